import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** The 4xx statuses: a refusal whose status the document does not fix. */
export const CLIENT_ERRORS: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i); // not a contract bound: the 4xx class of HTTP

/** What `answeredByReading` judges: an answer the document leaves between several statuses, one of them our reading's. */
export type AnsweredByReadingOptions<C extends string = string> = {
  rule: string;
  res: HttpResponse;
  /** The request, as a failure names it (`${what} not answered ${wanted}`). */
  what: string;
  /** The statuses the document allows (anything else, a 5xx above all, fails). */
  allowed: readonly number[];
  /** The status among them our reading wants, and the reading's ID (listed with the rule in the catalog). */
  wanted: number;
  reading: string;
  /** High unless told. */
  severity?: Severity;
} & (
  | { code?: undefined; verifyCode?: undefined }
  | { code?: C; verifyCode: (t: RuleContext, res: HttpResponse, code: C) => void }
);

/**
 * An answer the document leaves between several statuses is one of `allowed` (settled), and
 * `wanted` by our reading (a warning otherwise); the code, where given, is judged by the service's
 * `verifyCode` (on its code rule, when `wanted` is answered).
 */
export function answeredByReading<C extends string>(t: RuleContext, o: AnsweredByReadingOptions<C>): void {
  const { rule, res, what, allowed, wanted, code } = o;
  t.check(rule, allowed.includes(res.status), {
    title: `${what}: answered outside what the document allows`,
    severity: o.severity ?? 'high',
    expected: `HTTP ${allowed.join(' or ')} for ${what} (${wanted}${code ? ` ${code}` : ''} by our reading)`,
    received: describeResponse(res, 240),
    response: res,
  });
  t.reading(o.reading, rule, res.status === wanted, {
    title: `${what} not answered ${wanted}`,
    expected: `HTTP ${wanted}${code ? ` (${code})` : ''} for ${what}`,
    received: describeResponse(res, 240),
    response: res,
  });
  if (o.code !== undefined && o.verifyCode) o.verifyCode(t, res, o.code);
}
