import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { refused } from './refused.ts';

/**
 * A request without credentials is refused with 401 (ignored auth is a critical failure): a `refused`
 * whose options this only builds.
 */
export function missingCredentialsRejected(
  t: RuleContext,
  rule: string,
  res: HttpResponse,
  statuses: readonly number[] = [401],
): void {
  refused(t, { rule, res, what: 'a request without credentials', statuses, severity: 'critical' });
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
