/**
 * Notification's generic error codes (`platform.core.generic.<suffix>`) as its Errors table lists
 * them: the rule of each and the status it goes with. A leaf module: the response check run after
 * every request and the `genericCode` word both read it.
 */
export const CODE_RULES = {
  invalidParameter: 'notification/errors/code-invalid-parameter',
  invalidRequestBodyProperty: 'notification/errors/code-invalid-request-body-property',
  missingParameter: 'notification/errors/code-missing-parameter',
  missingRequestBodyProperty: 'notification/errors/code-missing-request-body-property',
  unauthorized: 'notification/errors/code-unauthorized',
  forbidden: 'notification/errors/code-forbidden',
  noMatch: 'notification/errors/code-no-match',
  conflict: 'notification/errors/code-conflict',
  tooManyRequests: 'notification/errors/code-too-many-requests',
} as const;

export type CodeSuffix = keyof typeof CODE_RULES;

/** The status each generic code goes with. */
export const CODE_STATUS: Readonly<Record<CodeSuffix, number>> = {
  invalidParameter: 400,
  invalidRequestBodyProperty: 400,
  missingParameter: 400,
  missingRequestBodyProperty: 400,
  unauthorized: 401,
  forbidden: 403,
  noMatch: 404,
  conflict: 409,
  tooManyRequests: 429,
};

/** The generic codes a body carries (`platform.core.generic.<suffix>`, looked for anywhere: the body shape is not shown). */
export function genericCodesIn(text: string): string[] {
  return [...text.matchAll(/platform\.core\.generic\.([A-Za-z]+)/g)].map((m) => m[1]);
}
