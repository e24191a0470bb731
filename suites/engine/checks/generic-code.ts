import { exchangeOf, type HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { CODE_RULES, CODE_STATUS, genericCodesIn, type CodeSuffix } from './generic-codes.ts';

export { CODE_RULES, genericCodesIn, type CodeSuffix };

/** Whether a body carries the generic code (its shape is not shown: the code text is looked for anywhere). */
export function hasCode(res: HttpResponse, suffix: CodeSuffix): boolean {
  return res.text.includes(`platform.core.generic.${suffix}`);
}

/** The suffixes the Errors table lists for a status (`noContent` with 204, `internalServerError` with 500). */
function codesOfStatus(status: number): string[] {
  const listed = Object.entries(CODE_STATUS)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  if (status === 204) listed.push('noContent');
  if (status === 500) listed.push('internalServerError');
  return listed;
}

/** The other code a multipart form field may get: the documents do not say whether it is a parameter or a body property. */
const FORM_CODES: Partial<Record<CodeSuffix, CodeSuffix>> = {
  missingRequestBodyProperty: 'missingParameter',
  invalidRequestBodyProperty: 'invalidParameter',
};

/**
 * A notification answer of the code's status carries the generic code, judged when the calling test
 * declares the code's rule (words shared by tests judge only what a test declares). The Errors table
 * settles the pairing of codes with statuses: a generic code the body carries is one listed for its
 * status. It settles no more: the codes "may occur on any operation", the body shape is "not shown",
 * and no sentence ties a condition to one of the four 400 codes. That the body carries the code at
 * all (`generic-code-present`), and which 400 code a condition gets (`code-per-condition`, or
 * `form-field-body-property` for a multipart form field), are our readings.
 */
export function genericCode(t: RuleContext, res: HttpResponse, suffix: CodeSuffix): void {
  const rule = CODE_RULES[suffix];
  if (!t.declares(rule) || res.status !== CODE_STATUS[suffix]) return;
  const listed = codesOfStatus(res.status);
  const foreign = genericCodesIn(res.text).filter((c) => !listed.includes(c));
  t.verify(rule, foreign.length === 0, {
    title: `HTTP ${res.status} with a generic code the Errors table lists for another status`,
    expected: `no generic code other than ${listed.map((c) => `platform.core.generic.${c}`).join(', ')} with HTTP ${res.status}`,
    received: describeResponse(res, 240),
    response: res,
  });
  const d = {
    title: `HTTP ${res.status} without the code platform.core.generic.${suffix}`,
    expected: `the text platform.core.generic.${suffix} in the body`,
    received: describeResponse(res, 240),
    response: res,
  };
  if (res.status !== 400) {
    t.reading('generic-code-present', rule, hasCode(res, suffix), d);
    return;
  }
  const form = FORM_CODES[suffix];
  if (form && exchangeOf(res)?.request.form) t.reading('form-field-body-property', rule, hasCode(res, suffix), d);
  else t.reading('code-per-condition', rule, hasCode(res, suffix), d);
}

/**
 * How another tenant's request on a notification resource is refused, for `refused`: a 4xx (the
 * resource is not served to it; critical) and, as our reading `foreign-resource-404`, 404 noMatch
 * rather than, say, 403 forbidden: the document does not say which.
 */
export const FOREIGN_REFUSAL = {
  statuses: [404],
  statusReading: 'foreign-resource-404',
  code: 'noMatch',
  verifyCode: genericCode,
  severity: 'critical' as Severity,
} as const;

/**
 * How a notification request naming, in its body or query, an ID that names nothing of the tenant is
 * refused, for `refused`: a 4xx (the named record cannot be acted on) and, as our reading
 * `unknown-reference-404`, 404 noMatch rather than 400: the document ties no status to it.
 */
export const UNKNOWN_REFUSAL = {
  statuses: [404],
  statusReading: 'unknown-reference-404',
  code: 'noMatch',
  verifyCode: genericCode,
} as const;

/** The options that make `refused` or `answeredByReading` judge the generic code `code` beside the status (none when undefined). */
export function withCode<C extends CodeSuffix>(code: C | undefined): { code?: C; verifyCode: typeof genericCode } {
  return { code, verifyCode: genericCode };
}
