import type { TransportOptions } from './http-client.ts';
import type { NotReady } from './config-needs.ts';
import type { RunConfig } from './run-config.ts';

/** Everything a conformance run hands from the command line to the suites (serializable). */
export interface RunContext extends TransportOptions {
  config: RunConfig;
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  /** Identifies this run; its resources carry `prefix` in their names. */
  runId: string;
  prefix: string;
  /** The services this run tests. */
  services?: string[];
  /** Rule globs selected with `--rule` (empty: all). */
  ruleGlobs: string[];
  profile: 'full' | 'read-only';
  /** `--probe-throttling`: the 429 rules send a bounded burst meant to meet the target's throttle. */
  probeThrottling?: boolean;
  /** JSON-lines file where every exchange is recorded as a HAR entry (none: no recording). */
  harFile?: string;
  /** JSON-lines file where the ledger records what the suites created and deleted. */
  ledgerFile?: string;
  /** `i/n`: this run executes the i-th of n deterministic shares of the tests. */
  shard?: { index: number; total: number };
  /** Replays one recorded property failure: its rule, property seed and shrink path. */
  replay?: { rule: string; seed: number; path?: string };
  /** The target is a fresh deployment with nothing left by earlier runs: no leftover sweep (the self-test). */
  fresh?: boolean;
  /** Most time one cleanup pass (after a test, after a file) may take, in ms (`--cleanup-timeout`). */
  cleanupTimeoutMs?: number;
  /** Longest wait for a bulk job to reach a final state, in ms (`--job-deadline`; default 15 s). */
  jobDeadlineMs?: number;
  /**
   * The pieces of the configuration the run's readiness check (the one `doctor` prints) found
   * missing or failing, by key: a test that declares it needs one is not started.
   */
  unready?: NotReady;
  /** Where allure-vitest writes its results (none: no Allure output). */
  allureDir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    runContext: RunContext;
    /** Set by a run (not a dry run's collection): the leftover sweep starts as this setup file loads. */
    sweepAtSetup?: boolean;
  }
}
