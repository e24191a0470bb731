import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** Input that breaks the rule is rejected with a client error (negative data rejection). */
export function invalidRejected(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  what: string,
  expected: readonly number[] = [400],
): void {
  t.check(ruleId, expected.includes(res.status), {
    title: `invalid input accepted: ${what}`,
    expected: `HTTP ${expected.join(' or ')} for ${what}`,
    received: describeResponse(res),
  });
}

/** Input that keeps every rule is accepted (positive data acceptance). */
export function validAccepted(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  what: string,
  expected: readonly number[],
): void {
  t.check(ruleId, expected.includes(res.status), {
    title: `valid input rejected: ${what}`,
    expected: `HTTP ${expected.join(' or ')} for ${what}`,
    received: describeResponse(res),
  });
}
