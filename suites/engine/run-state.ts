import type { LedgerStats, TrackedResource } from './ledger.ts';

/**
 * What the suites' worker hands the command line at the end of a suite file: the HTTP counters,
 * when the target stopped answering, and what the cleanup did. It travels on the file's task
 * meta (vitest sends it with the file's result), never through a file or a text.
 */
export interface RunState {
  http: { requests: number; throttled: number; retriedAfter429: number; transportErrors: number };
  unresponsiveSince?: number;
  cleanup: {
    created: number;
    deleted: number;
    outstanding: Array<Pick<TrackedResource, 'service' | 'kind' | 'id' | 'label'>>;
    failures: LedgerStats['cleanupFailures'];
    budgetSpent: boolean;
    leftoversSwept: number;
  };
}

declare module 'vitest' {
  interface TaskMeta {
    runState?: RunState;
  }
}
