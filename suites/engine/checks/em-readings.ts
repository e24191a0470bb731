// Event management refusals whose status rests on a reading, named once for the suites and the audit.
/**
 * How `refused` judges an event management write without the required If-Match (or with one naming
 * no etag): a 4xx, which the document settles (the header is required); that it is 400 is our
 * reading (if-match-missing-400): 428, or 412 (409 on DELETE) for a value that cannot match, read
 * it too. The suites' ETag model and the audit judge it with these same options.
 */
export const IF_MATCH_MISSING = { statuses: [400], statusReading: 'if-match-missing-400' } as const;

/**
 * Where an event management operation lists several scopes, the document leaves open whether any
 * one suffices: a refusal without one of them rests on this reading (the suites' auth tests and
 * the audit judge it so).
 */
export const LISTED_SCOPE_NEEDED = 'listed-scope-needed';
