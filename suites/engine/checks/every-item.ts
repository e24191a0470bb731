import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge, type Judging } from './judge.ts';

/** What `everyItem` judges: the items of an answer, and what each must be. */
export type EveryItemOptions<T> = {
  rule: string;
  /** The items, as a failure names them (`not every item is ${what}`). */
  what: string;
  items: readonly T[];
  /** What each item must be, and its words for the expectation. */
  is: (item: T) => boolean;
  expected: string;
  /** The answer that carried them: it must be one of `statuses` (200 unless told) when given. */
  res?: HttpResponse;
  statuses?: readonly number[];
  /** The answer's body must be a JSON array (its items being `items`). */
  arrayBody?: boolean;
  /** At least one item is required (an empty list does not hold). */
  nonEmpty?: boolean;
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** Every item of an answer is what the document says it is (a filter's match, a member of an enum). */
export function everyItem<T>(t: RuleContext, o: EveryItemOptions<T>): boolean {
  const { res, statuses = [200] } = o;
  const bad = o.items.filter((x) => !o.is(x));
  const ok =
    (res === undefined || statuses.includes(res.status)) &&
    (!o.arrayBody || Array.isArray(res?.json)) &&
    bad.length === 0 &&
    (!o.nonEmpty || o.items.length > 0);
  const d = {
    title: `not every item is ${o.what}`,
    severity: o.severity ?? 'high',
    expected: o.expected,
    received:
      (res && !statuses.includes(res.status) ? `HTTP ${res.status}; ` : '') +
      (bad.length
        ? `${bad.length} of ${o.items.length} not: ${JSON.stringify(bad.slice(0, 3))}`
        : `${o.items.length} items`),
    ...(res ? { response: res } : {}),
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
