import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { answered, holds } from '../engine/checks/index.ts';
import { defaultDialect } from '../engine/filter-dialect.ts';
import { between, where, type FilterExpr } from '../engine/filter-expression.ts';
import { seen, send } from './em-client.ts';

/**
 * The reading a refusal of a query parameter below its documented bounds rests on (size below 1, a
 * negative page, or not an integer): the document states the bounds but lists no 400 for them; a
 * deployment taking the default instead reads it too.
 */
export const OUT_OF_BOUNDS = 'out-of-bounds-param-400';

/**
 * A page beyond the last: a 200 holds no items (the document); that it is a 200 at all rather
 * than a refusal is our reading (page-beyond-last-empty).
 */
export function beyondTheLast(t: RuleContext, res: HttpResponse, items: number): void {
  const rule = 'event-management/queries/page-default-and-minimum';
  holds(t, {
    rule,
    ok: res.status !== 200 || items === 0,
    failure: 'a page beyond the last holds items',
    expected: 'no items',
    received: () => seen(res, 160),
  });
  answered(t, { rule, res, what: 'a page beyond the last', reading: 'page-beyond-last-empty' });
}

/**
 * A timestamp `between` the deployment takes. In the suite's default dialect it is tried on
 * GET /events for `typeId` as the interval text `[from,to)` (the contract's grammar), else as
 * the array `[from, to]`: the document names between without its syntax, so a refusal of the
 * text is our reading (between-interval-text); the range it selects stays a document check. A
 * declared dialect is the deployment's own word on the spelling: its between is taken as it is.
 */
export async function betweenRange(
  t: RuleContext,
  rule: string,
  typeId: string,
  from: string,
  to: string,
): Promise<FilterExpr> {
  const range = between('timestamp', from, to);
  if ((await t.session.filterDialect) !== defaultDialect) return range;
  const text = `[${from},${to})`;
  const probe = await send(t, {
    method: 'GET',
    path: '/events',
    query: { filter: where({ typeId }, range), size: 1 },
  });
  const ok = t.reading('between-interval-text', rule, probe.status === 200, {
    title: `timestamp between written as "${text}" refused`,
    expected: 'HTTP 200',
    received: probe.status === 200 ? '' : seen(probe, 160),
  });
  return ok ? range : between('timestamp', from, to, true);
}
