import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge } from './judge.ts';

/** What `pageDescribed` judges: one page of a query, and what its page object must say. */
export type PageDescribedOptions = {
  rule: string;
  res: HttpResponse;
  /** The page as the test asked for it: its size and index (from 0). */
  size: number;
  number: number;
  /** What the test knows the query selects. */
  totalElements: number;
  totalPages: number;
  /** That size and number are the ones asked for rests on this reading (a warning when not). */
  reading: string;
  /** The page, as failures name it (`page 2 of size 5`). */
  what: string;
  /** High unless told. */
  severity?: Severity;
};

const INTEGERS = ['size', 'totalElements', 'totalPages', 'number'];

/**
 * A page object describes the answer: integers, with the totals of what the query selects (the
 * document); its size and number the ones asked for (a reading).
 */
export function pageDescribed(t: RuleContext, o: PageDescribedOptions): void {
  const { rule, res } = o;
  const pg = ((res.json as { page?: unknown } | undefined)?.page ?? {}) as Record<string, unknown>;
  const shown = JSON.stringify(pg);
  const totals =
    res.status === 200 &&
    INTEGERS.every((k) => Number.isInteger(pg[k])) &&
    pg.totalElements === o.totalElements &&
    pg.totalPages === o.totalPages;
  const severity = o.severity ?? 'high';
  judge(
    t,
    rule,
    totals,
    {
      title: `${o.what} misdescribed`,
      severity,
      expected: `integers; totalElements ${o.totalElements}, totalPages ${o.totalPages}`,
      received: shown,
    },
    {},
  );
  judge(
    t,
    rule,
    pg.size === o.size && pg.number === o.number,
    {
      title: `${o.what}: size or number is not the one asked for`,
      severity,
      expected: `size ${o.size}, number ${o.number}`,
      received: shown,
    },
    { reading: o.reading },
  );
}
