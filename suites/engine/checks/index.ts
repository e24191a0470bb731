// The registry of named checks every suite uses. Checks of one response on its own (`RESPONSE_CHECKS`)
// run after every request a test sends and on every exchange an audit reads; the others take the
// rule ID they judge from the test that calls them.
export { responseSchema, matchesSchema } from './response-schema.ts';
export { missingCredentialsRejected, missingScopeRejected } from './auth-enforced.ts';
export { describeResponse } from './describe-response.ts';
export { refused, type RefusedOptions } from './refused.ts';
export { accepted, type AcceptedOptions } from './accepted.ts';
export { answered, type AnsweredOptions } from './answered.ts';
export { holds, type HoldsOptions } from './holds.ts';
export { notModified, type NotModifiedOptions } from './not-modified.ts';
export { hasRequiredMembers, requiredMembers, type HasRequiredMembersOptions } from './has-required-members.ts';
export { headerPresent, type HeaderPresentOptions } from './header-present.ts';
export { etagChanged, type EtagChangedOptions } from './etag-changed.ts';
export { locationNames, type LocationNamesOptions } from './location-names.ts';
export { servesRecord, type ServesRecordOptions } from './serves-record.ts';
export { etagHeader, etagOf, type EtagHeaderOptions } from './etag-header.ts';
export { memberProblems, jsonKind, type MemberShape } from './member-problems.ts';
export { observeTargetScheme } from './target-scheme.ts';
export { RESPONSE_CHECKS, responseCheckRules } from './response-checks.ts';
export type { CheckedExchange, Finding, ResponseCheck } from './response-check.ts';
export { listed, notListed, mentions, mentionsInteger, integersIn, shows, type ListedOptions } from './listed.ts';
export { served, type ServedOptions } from './served.ts';
export { storedAsSent, type StoredAsSentOptions } from './stored-as-sent.ts';
export { unchanged, type UnchangedOptions } from './unchanged.ts';
export { formatted, type FormattedOptions } from './formatted.ts';
export { everyItem, type EveryItemOptions } from './every-item.ts';
export { hasMembers, type HasMembersOptions } from './has-members.ts';
export { createdWithId, type CreatedWithIdOptions } from './created-with-id.ts';
export { applied, type AppliedOptions } from './applied.ts';
export { authAccepted, type AuthAcceptedOptions } from './auth-accepted.ts';
export {
  genericCode,
  withCode,
  hasCode,
  genericCodesIn,
  CODE_RULES,
  FOREIGN_REFUSAL,
  UNKNOWN_REFUSAL,
  type CodeSuffix,
} from './generic-code.ts';
export { answeredByReading, CLIENT_ERRORS, type AnsweredByReadingOptions } from './answered-by-reading.ts';
export { pageBeyondLast, type PageBeyondLastOptions } from './page-beyond-last.ts';
export { pageDescribed, type PageDescribedOptions } from './page-described.ts';
export { takenOrRefused, type TakenOrRefusedOptions } from './taken-or-refused.ts';
export { jobProgressed, type JobProgressedOptions, type JobMove } from './job-progressed.ts';
export { taken, type TakenOptions } from './taken.ts';
export { IF_MATCH_MISSING, LISTED_SCOPE_NEEDED } from './em-readings.ts';
