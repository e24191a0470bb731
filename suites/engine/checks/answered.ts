import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `answered` judges: the answer to a request a rule's behaviour needs, and the statuses that serve it. */
export type AnsweredOptions = {
  rule: string;
  res: HttpResponse;
  /** The request, as a failure names it (`${what} not answered 200`). */
  what: string;
  /** The statuses that serve it (200 unless told). */
  statuses?: readonly number[];
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
  /** That it is served rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
  /** High unless told. */
  severity?: Severity;
};

/** A request is served: answered with one of `statuses` (200 unless told). Returns whether it was. */
export function answered(t: RuleContext, o: AnsweredOptions): boolean {
  const { rule, res, what, statuses = [200] } = o;
  const ok = statuses.includes(res.status);
  const d = {
    title: `${what} not answered ${statuses.join(' or ')}`,
    severity: o.severity ?? 'high',
    expected: `HTTP ${statuses.join(' or ')} for ${what}`,
    received: ok ? '' : describeResponse(res, 240),
  };
  return judge(t, rule, ok, d, o);
}
