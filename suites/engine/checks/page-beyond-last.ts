import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { answered } from './answered.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `pageBeyondLast` judges: the answer to a page past the last of a query, and the items it holds. */
export type PageBeyondLastOptions = {
  rule: string;
  res: HttpResponse;
  /** The items the answer lists. */
  items: number;
  /** That such a page is a 200 at all, rather than a refusal, rests on this reading (a warning when not). */
  reading: string;
  /** High unless told. */
  severity?: Severity;
};

/** A page beyond the last holds no items, and is answered 200 (on `reading`). */
export function pageBeyondLast(t: RuleContext, o: PageBeyondLastOptions): void {
  const { rule, res } = o;
  const ok = res.status !== 200 || o.items === 0;
  const d = {
    title: 'a page beyond the last holds items',
    severity: o.severity ?? 'high',
    expected: 'no items',
    received: ok ? '' : describeResponse(res, 160),
  };
  judge(t, rule, ok, d, {});
  answered(t, { rule, res, what: 'a page beyond the last', reading: o.reading });
}
