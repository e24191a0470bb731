import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** A request without credentials is refused with 401 (ignored auth is a critical failure). */
export function missingCredentialsRejected(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  expected: readonly number[] = [401],
): void {
  t.check(ruleId, expected.includes(res.status), {
    title: 'request without credentials was not refused',
    severity: 'critical',
    expected: `HTTP ${expected.join(' or ')}`,
    received: describeResponse(res),
  });
}

/** A request whose token lacks the operation's scope is refused with 403. */
export function missingScopeRejected(t: RuleContext, ruleId: string, res: HttpResponse, scope: string): void {
  t.check(ruleId, res.status === 403, {
    title: `token without scope ${scope} was not refused`,
    severity: 'critical',
    expected: 'HTTP 403',
    received: describeResponse(res),
  });
}
