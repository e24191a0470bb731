/** What a test's checks make of one rule, and what a report makes of a rule over all its tests. */
export type OutcomeStatus = 'passed' | 'failed' | 'warning' | 'observed' | 'skipped' | 'not-exercised';

/**
 * The strength of each status as evidence: where several checks of a test, or several shards of a
 * run, speak of the same rule, the strongest stands (a failure over a warning over an observation
 * over a pass).
 */
export const STATUS_RANK: Readonly<Record<OutcomeStatus, number>> = {
  failed: 5, // not a contract bound: a rank among outcomes
  warning: 4,
  observed: 3,
  passed: 2,
  skipped: 1,
  'not-exercised': 0,
};
