// The registry of named checks every suite uses; each takes the rule ID it judges.
export { statusCode } from './status-code.ts';
export { contentType } from './content-type.ts';
export { requiredHeaders } from './required-headers.ts';
export { responseSchema, matchesSchema } from './response-schema.ts';
export { missingCredentialsRejected, missingScopeRejected } from './auth-enforced.ts';
export { invalidRejected, validAccepted } from './data-acceptance.ts';
export { describeResponse } from './describe-response.ts';
export { observeTargetScheme } from './target-scheme.ts';
