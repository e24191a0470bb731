// The triage lists of the mutation self-test: one JSON file per reference file, each entry a mutant
// that no test can kill (equivalent, or irrelevant to any rule) with the reason why.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './lane-worker.ts';
import type { MutantRow } from './mutant-row.ts';

/** The triage lists: one JSON file per reference file, at its path under `fixtures/reference/`. */
export const TRIAGE_DIR = join(projectRoot, 'fixtures/mutants/triage');

export interface TriageEntry {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  /**
   * The source line the mutant starts on (whitespace collapsed), for a key that more than one
   * mutant of the file shares (`false` -> `true` in two places).
   */
  at?: string;
  /** Which of the mutants sharing key and `at` (1: the first in source order), where a line is repeated. */
  nth?: number;
  /** What observable answer the mutant changes, or why none changes. */
  reason: string;
}

/** The triage list of a reference file (`fixtures/reference/x/y.ts` -> `fixtures/mutants/triage/x/y.json`). */
export function triageFileOf(file: string): string {
  return join(TRIAGE_DIR, file.replace(/^fixtures\/reference\//, '').replace(/\.ts$/, '.json'));
}

/** The checked-in lists of equivalent or irrelevant mutants, each with its reason. */
export function loadTriage(): TriageEntry[] {
  if (!existsSync(TRIAGE_DIR)) return [];
  const files = readdirSync(TRIAGE_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
  return files.sort().flatMap((f) => JSON.parse(readFileSync(join(TRIAGE_DIR, f), 'utf8')) as TriageEntry[]);
}

export function triageKey(m: Pick<TriageEntry, 'file' | 'mutator' | 'original' | 'replacement'>): string {
  return [m.file, m.mutator, m.original, m.replacement].join('\u0000');
}

/** Whether an entry names a mutant: same key, and the same line (and place among its twins) where it gives them. */
export function names(t: TriageEntry, m: MutantRow): boolean {
  return (
    triageKey(t) === triageKey(m) && (t.at === undefined || t.at === m.at) && (t.nth === undefined || t.nth === m.nth)
  );
}

/** The triage entry that explains a mutant, if any. */
export function triageOf(triage: TriageEntry[], m: MutantRow): TriageEntry | undefined {
  return triage.find((t) => names(t, m));
}
