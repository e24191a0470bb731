import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** What `authAccepted` judges: the answer to a request whose token holds what the operation lists. */
export type AuthAcceptedOptions = {
  rule: string;
  res: HttpResponse;
  /** The request and its token, as a failure names them (`refused for its authorization: ${what}`). */
  what: string;
  /** High unless told. */
  severity?: Severity;
};

/** A token that holds what the operation lists is not refused for its authorization (no 401, no 403). */
export function authAccepted(t: RuleContext, o: AuthAcceptedOptions): void {
  const { res } = o;
  t.check(o.rule, res.status !== 401 && res.status !== 403, {
    title: `refused for its authorization: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `not 401 or 403 for ${o.what}`,
    received: describeResponse(res),
    response: res,
  });
}
