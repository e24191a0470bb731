import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `accepted` judges: the answer to input that keeps `rule`, and the statuses that take it. */
export type AcceptedOptions = {
  rule: string;
  res: HttpResponse;
  /** The input, as a failure names it (`valid input refused: ${what}`). */
  what: string;
  /** The statuses that accept it (201 unless told). */
  statuses?: readonly number[];
  /** That the input is valid rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
  /** High unless told. */
  severity?: Severity;
};

/**
 * Input that keeps a rule is accepted: answered with one of `statuses` (201 unless told). False
 * only when a `reading` did not hold (a warning); a document check that does not hold ends the test.
 */
export function accepted(t: RuleContext, o: AcceptedOptions): boolean {
  const { rule, res, what, statuses = [201] } = o;
  const d = {
    title: `valid input refused: ${what}`,
    severity: o.severity ?? 'high',
    expected: `HTTP ${statuses.join(' or ')} for ${what}`,
    received: describeResponse(res, 240),
    response: res,
  };
  const ok = statuses.includes(res.status);
  return judge(t, rule, ok, d, { reading: o.reading });
}
