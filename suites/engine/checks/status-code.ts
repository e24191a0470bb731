import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** The response has one of the expected status codes. */
export function statusCode(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  expected: number | readonly number[],
  title?: string,
): void {
  const list = typeof expected === 'number' ? [expected] : expected;
  t.check(ruleId, list.includes(res.status), {
    title: title ?? `status ${list.join(' or ')} expected`,
    expected: `HTTP ${list.join(' or ')}`,
    received: describeResponse(res),
  });
}
