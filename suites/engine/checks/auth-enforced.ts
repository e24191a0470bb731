import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { refused } from './refused.ts';

/**
 * A request without valid credentials is refused with 401 (ignored auth is a critical failure): a
 * `refused` whose options this only builds. `what` names what the request carried (none by
 * default, or a malformed or tampered token), so that a failure points at the path that let it through.
 */
export function missingCredentialsRejected(
  t: RuleContext,
  rule: string,
  res: HttpResponse,
  what = 'a request without credentials',
): void {
  refused(t, { rule, res, what, statuses: [401], severity: 'critical' });
}

/**
 * A request whose token lacks the operation's scope is refused with 403: a `refused` whose options
 * this only builds; with `reading`, the refusal rests on that reading (a warning when it does not come).
 */
export function missingScopeRejected(
  t: RuleContext,
  rule: string,
  res: HttpResponse,
  scope: string,
  reading?: string,
): void {
  refused(t, { rule, res, what: `a token without scope ${scope}`, statuses: [403], severity: 'critical', reading });
}
