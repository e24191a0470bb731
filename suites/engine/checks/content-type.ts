import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** The response's media type is one of the expected ones (parameters such as charset aside). */
export function contentType(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  expected: readonly string[],
  soft = true,
): boolean {
  const ok = expected.includes(res.contentType);
  const d = {
    title: `content type ${expected.join(' or ')} expected`,
    expected: expected.join(' or '),
    received: `${res.contentType || '(none)'} — ${describeResponse(res, 80)}`,
  };
  if (soft) return t.verify(ruleId, ok, d);
  t.check(ruleId, ok, d);
  return true;
}
