import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge, type Judging } from './judge.ts';

/** What `served` judges: the answer to a request the service must serve, and the statuses that serve it. */
export type ServedOptions = {
  rule: string;
  res: HttpResponse;
  /** The request, as a failure names it (`not served: ${what}`). */
  what: string;
  /** The statuses that serve it (200 unless told). */
  statuses?: readonly number[];
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** A request the service must serve is answered with one of `statuses` (200 unless told). */
export function served(t: RuleContext, o: ServedOptions): boolean {
  const { res, statuses = [200] } = o;
  const d = {
    title: `not served: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `HTTP ${statuses.join(' or ')} for ${o.what}`,
    received: describeResponse(res),
    response: res,
  };
  const ok = statuses.includes(res.status);
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
