import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';

/** The response carries each named header with a non-empty value. */
export function requiredHeaders(t: RuleContext, ruleId: string, res: HttpResponse, names: readonly string[]): boolean {
  const missing = names.filter((n) => !res.headers[n.toLowerCase()]);
  return t.verify(ruleId, missing.length === 0, {
    title: `header ${names.join(', ')} required`,
    expected: `headers ${names.join(', ')}`,
    received: missing.length
      ? `missing ${missing.join(', ')} (headers: ${Object.keys(res.headers).join(', ')})`
      : 'present',
  });
}
