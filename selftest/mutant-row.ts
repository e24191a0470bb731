import type { ServiceName } from '../contracts/services.ts';

/** Where a mutant lives: one of the services, or `shared` (code all three use). */
export type MutantGroup = ServiceName | 'shared';

export type MutantStatus = 'killed' | 'timeout' | 'crashed' | 'survived' | 'no-coverage' | 'equivalent' | 'not-run';

export interface MutantRow {
  id: string;
  file: string;
  line: number;
  group: MutantGroup;
  mutator: string;
  /** The original code the mutant replaces (whitespace collapsed) and what replaces it. */
  original: string;
  replacement: string;
  /** The source line the mutant starts on, whitespace collapsed (a triage class's `line` names it). */
  at: string;
  /**
   * 1 for the first mutant of its file with this key and line text, 2 for the next (in source
   * order): with `at`, names one mutant even where a line is repeated (kills are carried over by it).
   */
  nth: number;
  /** The innermost named region of its file it lies in (`EventService.create`; see regions.ts), '' at the top. */
  region: string;
  status: MutantStatus;
  /** The rules that failed against the mutant (the killing rules), or whose reading it broke. */
  killedBy: string[];
  /**
   * Killed by a warning: no rule failed, but a reading did not hold (the reference breaks none,
   * so the mutant took the other side of it), as the self-test counts a reading's fault variant.
   */
  byWarning?: boolean;
  /** The spec files the mutant ran against. */
  specFiles: number;
  /** The tests it ran against, when not every test of those files (0: all of them). */
  tests: number;
  /** It survived its tests and ran again against every test of their files (or of its service). */
  widened?: boolean;
  durationMs: number;
  /** Why the mutant is equivalent (from the triage list), or why it crashed or timed out. */
  reason?: string;
  /** Not run: its kill was carried over from an earlier result, or the triage list explains it (`--since`). */
  carried?: boolean;
}

export interface MutantsResult {
  mutants: MutantRow[];
  made: Record<string, number>;
  score: Record<
    string,
    { killed: number; byWarning: number; undetected: number; equivalent: number; notRun: number; score: number }
  >;
  sample?: { size: number; seed: number };
  coverageMs: number;
  durationMs: number;
}

export interface MutantsOptions {
  service?: string[];
  files?: string[];
  sample?: string;
  seed?: string;
  parallel?: string;
  runs?: string;
  json?: boolean;
  keep?: boolean;
  /** Run every test of a mutant even after one killed it (every killing rule is then known). */
  everyKiller?: boolean;
  /** Earlier results (`--out` JSON): mutants one of them found killed keep that verdict and are not run. */
  since?: string[];
  out?: string;
}
