import { holds, refused } from '../checks/index.ts';
import type { RuleContext } from '../rule-test.ts';
import type { ResourceIo } from './resource-io.ts';

/** The page sizes a collection query takes, as its contract bounds them, and the rules that judge them. */
export interface PageSizesDescription {
  collection: string;
  listKey: string;
  /** The contract's bounds of `size`. */
  size: { min: number; max: number };
  rules: { served: string; below: string; above: string; page: string };
  /** Sizes far above the maximum, tried besides the one just above it. */
  farAbove: number[];
  /** The reading a refusal of a size below its bounds, a negative page or one that is no integer rests on. */
  outOfBounds: string;
}

/**
 * The least and the greatest size are served with pages of that size; one above the greatest, and
 * sizes and pages below their bounds or that are no integers, are refused. `selects`: how many
 * records the query selects, where the test knows it.
 */
export async function pageSizes(
  t: RuleContext,
  io: ResourceIo,
  d: PageSizesDescription,
  query: Record<string, unknown>,
  selects?: number,
): Promise<void> {
  const get = (extra: Record<string, unknown>) =>
    io.send(t, { method: 'GET', path: d.collection, query: { ...query, ...extra } });
  for (const size of [d.size.min, d.size.max]) {
    const res = await get({ size });
    const items = io.listed(res, d.listKey).length;
    const page = (res.json as { page?: { size?: unknown } } | undefined)?.page;
    holds(t, {
      rule: d.rules.served,
      ok:
        res.status === 200 &&
        page?.size === size &&
        (selects === undefined ? items <= size : items === Math.min(size, selects)),
      failure: `size ${size} not served`,
      expected: `HTTP 200, page.size ${size}${selects === undefined ? '' : ` with ${Math.min(size, selects)} items`}`,
      received: `${items} items; HTTP ${res.status} page ${JSON.stringify(page)}`,
    });
  }
  for (const size of [d.size.max + 1, ...d.farAbove])
    refused(t, { rule: d.rules.above, res: await get({ size }), what: `size ${size}` });
  // not a contract bound: sizes below any bound, and no integers
  for (const size of [d.size.min - 1, -1, -5, '1.5', 'ten'])
    refused(t, { rule: d.rules.below, res: await get({ size }), what: `size ${size}`, reading: d.outOfBounds });
  for (const page of [-1, '0.5', 'first'])
    refused(t, { rule: d.rules.page, res: await get({ page }), what: `page ${page}`, reading: d.outOfBounds });
}
