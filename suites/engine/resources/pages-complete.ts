import fc from 'fast-check';
import { holds, pageDescribed } from '../checks/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import type { ResourceIo } from './resource-io.ts';

/** How a resource's collection query pages: the rules and readings its pages are judged by. */
export interface PagesCompleteDescription {
  collection: string;
  listKey: string;
  rules: { pageObject: string; links: string; order: string };
  readings: { pageAsAsked: string; linksWhereAPageExists: string };
  /** The default order, as failures say it (`newest first`). */
  order: string;
  /** The page sizes drawn (not bounds: sizes that page the test's own records), and most property runs. */
  sizes: { min: number; max: number };
  runs: number;
}

/** A link of a page, as the answer gives it. */
type Link = { href?: unknown; templated?: unknown };

const ids = (io: ResourceIo, res: HttpResponse, key: string) => io.listed(res, key).map((x) => String(x.id));

/**
 * Paging through a query with any size: each page described by its page object and its links,
 * the pages disjoint, and together every record once in the default order (property). `want`: the
 * ids the query selects, in that order, known from the test's own records.
 */
export async function pagesComplete(
  t: RuleContext,
  io: ResourceIo,
  d: PagesCompleteDescription,
  query: Record<string, unknown>,
  want: string[],
): Promise<void> {
  await t.property(
    fc.integer(d.sizes),
    async (size) => {
      const seenIds: string[] = [];
      const firstSeen = new Map<string, number>();
      const repeated: string[] = [];
      // The page count comes from the test's own records, never from the target's answers.
      const pages = Math.ceil(want.length / size);
      for (let p = 0; p < pages; p++) {
        const res = await io.send(t, { method: 'GET', path: d.collection, query: { ...query, size, page: p } });
        pageDescribed(t, {
          rule: d.rules.pageObject,
          res,
          size,
          number: p,
          totalElements: want.length,
          totalPages: pages,
          reading: d.readings.pageAsAsked,
          what: `page ${p} of size ${size}`,
        });
        const links = ((res.json as { _links?: unknown } | undefined)?._links ?? {}) as Record<
          string,
          Link | undefined
        >;
        holds(t, {
          rule: d.rules.links,
          ok:
            !!links.self?.href &&
            typeof links.self?.templated === 'boolean' &&
            !!links.first?.href &&
            !!links.last?.href &&
            (p + 1 >= pages || !!links.next) &&
            (p === 0 || !!links.prev),
          failure: 'paging links do not describe the page',
          expected: 'self, first, last; next and prev where such pages exist',
          received: JSON.stringify(links),
        });
        holds(t, {
          reading: d.readings.linksWhereAPageExists,
          rule: d.rules.links,
          ok: (p + 1 < pages || !links.next) && (p > 0 || !links.prev),
          failure: 'next or prev where no such page exists',
          expected: 'no next on the last page, no prev on the first',
          received: JSON.stringify(links),
        });
        for (const id of ids(io, res, d.listKey)) {
          const first = firstSeen.get(id);
          // not a contract bound: the repeats a failure shows
          if (first !== undefined && repeated.length < 5) repeated.push(`${id} on pages ${first} and ${p}`);
          else firstSeen.set(id, p);
        }
        seenIds.push(...ids(io, res, d.listKey));
      }
      holds(t, {
        rule: d.rules.pageObject,
        ok: new Set(seenIds).size === seenIds.length && seenIds.length === want.length,
        failure: `pages of size ${size} overlap or miss records`,
        expected: `${want.length} distinct records`,
        received: `${seenIds.length} records, ${new Set(seenIds).size} distinct${repeated.length ? `; repeated: ${repeated.join(', ')}` : ''}`,
      });
      holds(t, {
        rule: d.rules.order,
        ok: JSON.stringify(seenIds) === JSON.stringify(want),
        failure: `pages of size ${size} are not the list ${d.order} cut in pieces`,
        expected: JSON.stringify(want),
        received: JSON.stringify(seenIds),
      });
    },
    { rule: d.rules.pageObject, runs: Math.min(t.session.context.runs, d.runs) },
  );
}
