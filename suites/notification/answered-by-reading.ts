import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { seen, verifyCode, type CodeSuffix } from './notification-client.ts';

/**
 * Checks an answer the document leaves between several statuses: one of `allowed` is settled
 * (anything else, a 5xx above all, fails), and `wanted` among them is our reading `readingId`
 * (a warning otherwise). The code, where given, is judged on its code rule when `wanted` is answered.
 */
export function answeredByReading(
  t: RuleContext,
  rule: string,
  res: HttpResponse,
  what: string,
  readingId: string,
  allowed: readonly number[],
  wanted: number,
  code?: CodeSuffix,
): void {
  t.check(rule, allowed.includes(res.status), {
    title: `${what}: answered outside what the document allows`,
    expected: `HTTP ${allowed.join(' or ')} for ${what} (${wanted}${code ? ` ${code}` : ''} by our reading)`,
    received: seen(res),
    response: res,
  });
  t.reading(readingId, rule, res.status === wanted, {
    title: `${what} not answered ${wanted}`,
    expected: `HTTP ${wanted}${code ? ` (${code})` : ''} for ${what}`,
    received: seen(res),
    response: res,
  });
  if (code) verifyCode(t, res, code);
}

/** The 4xx statuses: a refusal whose status the document does not fix. */
export const CLIENT_ERRORS: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i);
