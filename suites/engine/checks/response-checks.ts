import type { ServiceName } from '../../../contracts/services.ts';
import { emErrorBody } from './em-error-body.ts';
import { emHalJson } from './em-hal-json.ts';
import { notificationGenericCode } from './notification-generic-code.ts';
import type { ResponseCheck } from './response-check.ts';
import { ttmErrorBody } from './ttm-error-body.ts';

/** Every check of one response on its own, in the order they judge an exchange. */
export const RESPONSE_CHECKS: readonly ResponseCheck[] = [
  emErrorBody,
  emHalJson,
  ttmErrorBody,
  notificationGenericCode,
];

/** The rules the response checks judge. */
export function responseCheckRules(): Set<string> {
  return new Set(RESPONSE_CHECKS.flatMap((c) => c.rules));
}

/** The file a response check lives in (named after the check). */
export function responseCheckFile(check: ResponseCheck): string {
  return `suites/engine/checks/${check.name}.ts`;
}

/**
 * The rules a test of `service` judges: those it declares, and those the response checks judge
 * on every answer it receives (so `--rule` on one of those selects every test of the service).
 */
export function judgedRules(service: ServiceName, declared: readonly string[]): string[] {
  const everyAnswer = [...responseCheckRules()].filter((r) => r.startsWith(`${service}/`));
  return [...new Set([...declared, ...everyAnswer])];
}
