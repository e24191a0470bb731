// The triage of the mutation self-test: classes of mutants that no test can kill (equivalent, or
// irrelevant to any rule), each with the reason why. A class names a region of a reference file (a
// function, method, class, constant or route, found by the TypeScript parser: see regions.ts), and
// within it optionally the line a mutant starts on, its mutators and the code it changes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { projectRoot } from './lane-worker.ts';
import type { MutantRow } from './mutant-row.ts';

/** The triage: one YAML file per reference file, at its path under `fixtures/reference/`. */
export const TRIAGE_DIR = join(projectRoot, 'fixtures/mutants/triage');

/**
 * A class of mutants with one reason. In its file it is written `region: reason` (every mutant of
 * the region) or, under the region, `selector: reason`, the selector being `Mutator` or
 * `Mutator, Mutator` (those mutators' mutants), `Mutator: original` (its mutants of that code) or
 * `Mutator: original -> replacement` (that one change), code written as a mutant row shows it
 * (whitespace collapsed). A region is a path of names (`EventService.create`, `registerEventRoutes.POST
 * /events`), and `path @ line` narrows it to the mutants that start on a line reading `line`.
 */
export interface TriageClass {
  /** The reference file (`fixtures/reference/...ts`), from the triage file's path. */
  file: string;
  /** The region's path of names; a mutant lies in it when it lies in the region or one inside it. */
  region: string;
  /** The text of the line the mutants start on (whitespace collapsed), where the region is too wide. */
  line?: string;
  mutators?: string[];
  original?: string;
  replacement?: string;
  /** What observable answer the mutants change, or why none changes. */
  reason: string;
}

/** The triage file of a reference file (`fixtures/reference/x/y.ts` -> `fixtures/mutants/triage/x/y.yaml`). */
export function triageFileOf(file: string): string {
  return join(TRIAGE_DIR, file.replace(/^fixtures\/reference\//, '').replace(/\.ts$/, '.yaml'));
}

/** The reference file a triage file is about (the inverse of triageFileOf; `name` relative to TRIAGE_DIR). */
export function referenceFileOf(name: string): string {
  return `fixtures/reference/${name
    .split('\\')
    .join('/')
    .replace(/\.yaml$/, '.ts')}`;
}

/** Splits a region key (`path` or `path @ line`). */
export function parseRegion(key: string): Pick<TriageClass, 'region' | 'line'> {
  const at = key.indexOf(' @ ');
  return at < 0 ? { region: key } : { region: key.slice(0, at), line: key.slice(at + 3) };
}

/** Splits a selector (`Mutator, Mutator`, `Mutator: original` or `Mutator: original -> replacement`). */
export function parseSelector(key: string): Pick<TriageClass, 'mutators' | 'original' | 'replacement'> {
  const colon = key.indexOf(': ');
  const mutators = (colon < 0 ? key : key.slice(0, colon)).split(', ');
  if (colon < 0) return { mutators };
  const code = key.slice(colon + 2);
  const arrow = code.indexOf(' -> ');
  return arrow < 0
    ? { mutators, original: code }
    : { mutators, original: code.slice(0, arrow), replacement: code.slice(arrow + 4) };
}

/** A class's selector as its file writes it (see triage.ts), undefined for a whole region. */
export function selectorOf(c: TriageClass): string | undefined {
  if (!c.mutators) return undefined;
  const mutators = c.mutators.join(', ');
  if (c.original === undefined) return mutators;
  return c.replacement === undefined ? `${mutators}: ${c.original}` : `${mutators}: ${c.original} -> ${c.replacement}`;
}

/** The classes of one triage file (`name` relative to TRIAGE_DIR). */
export function readTriageFile(name: string): TriageClass[] {
  const file = referenceFileOf(name);
  const doc = (yaml.load(readFileSync(join(TRIAGE_DIR, name), 'utf8')) ?? {}) as Record<
    string,
    string | Record<string, string>
  >;
  return Object.entries(doc).flatMap(([regionKey, value]) => {
    const region = parseRegion(regionKey);
    if (typeof value === 'string') return [{ file, ...region, reason: value }];
    return Object.entries(value).map(([selector, reason]) => ({ file, ...region, ...parseSelector(selector), reason }));
  });
}

/** The triage files (relative to TRIAGE_DIR). */
export function triageFiles(): string[] {
  if (!existsSync(TRIAGE_DIR)) return [];
  return readdirSync(TRIAGE_DIR, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

/** The checked-in classes of equivalent or irrelevant mutants, each with its reason. */
export function loadTriage(): TriageClass[] {
  return triageFiles().flatMap(readTriageFile);
}

/** The key a mutant is sampled and carried over by: file, mutator, original and replacement. */
export function triageKey(m: Pick<MutantRow, 'file' | 'mutator' | 'original' | 'replacement'>): string {
  return [m.file, m.mutator, m.original, m.replacement].join('\u0000');
}

/** Whether a mutant in region `at` lies in the region `path` names (that region or one inside it). */
export function liesIn(at: string, path: string): boolean {
  return at === path || at.startsWith(`${path}.`);
}

/** Whether a class holds a mutant. */
export function names(t: TriageClass, m: MutantRow): boolean {
  return (
    t.file === m.file &&
    liesIn(m.region, t.region) &&
    (t.line === undefined || t.line === m.at) &&
    (t.mutators === undefined || t.mutators.includes(m.mutator)) &&
    (t.original === undefined || t.original === m.original) &&
    (t.replacement === undefined || t.replacement === m.replacement)
  );
}

/** The triage class that explains a mutant, if any. */
export function triageOf(triage: TriageClass[], m: MutantRow): TriageClass | undefined {
  return triage.find((t) => names(t, m));
}
