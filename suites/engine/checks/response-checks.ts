import { emErrorBody } from './em-error-body.ts';
import { emHalJson } from './em-hal-json.ts';
import type { ResponseCheck } from './response-check.ts';
import { ttmErrorBody } from './ttm-error-body.ts';

/** Every check of one response on its own, in the order they judge an exchange. */
export const RESPONSE_CHECKS: readonly ResponseCheck[] = [emErrorBody, emHalJson, ttmErrorBody];

/** The rules the response checks judge. */
export function responseCheckRules(): Set<string> {
  return new Set(RESPONSE_CHECKS.flatMap((c) => c.rules));
}
