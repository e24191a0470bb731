import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { INPUT_BOUNDS, readUntrustedJson } from '../reporters/untrusted-input.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { basisOf, loadRules, serviceOfRule, type Basis, type Rule, type SecondReading } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';
import { forTerminal, forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { didYouMean } from './did-you-mean.ts';
import { testsByRule } from './coverage-command.ts';
import { declares, REFERENCE_DIR, referenceLines, suiteSites, type ReferenceLine } from './rule-sites.ts';
import { UsageError } from './usage-error.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where `explain` finds the parts of the project an installation may leave out (under fixtures/). */
export interface ExplainSources {
  faultsRegistry: string;
  referenceDir: string;
  /** Stored results of `selftest --mutants --out`, read without being named. */
  mutationResultsDir: string;
}

export const INSTALLED_SOURCES: ExplainSources = {
  faultsRegistry: join(projectRoot, 'fixtures', 'faults', 'registry.ts'),
  referenceDir: REFERENCE_DIR,
  mutationResultsDir: join(projectRoot, 'fixtures', 'mutants', 'results'),
};

export interface ExplainOptions {
  json?: boolean;
  /** `--out` results of `selftest --mutants` to read besides the stored ones. */
  mutationResult?: string[];
}

/** What `conformance explain` knows about one rule (the `--json` shape). */
export interface Explanation {
  id: string;
  level: string;
  status: string;
  source: Rule['source'];
  statement: string;
  readings: { id: string; reading: string }[];
  testable: boolean;
  note?: string;
  passive: boolean;
  /** The tests that declare the rule; `line` is the declaring call's (absent when not found). */
  tests: { file: string; line?: number; name: string }[];
  /** The places in suites/ that name the rule outside a test's rule list. */
  checks: { file: string; line: number; call?: string }[];
  /**
   * What settles the verdict of the rule's checks (computed from its level and readings), how many
   * checks name it (the places above) and the catalog's note on it; null for a rule not testable.
   */
  basis: { basis: Basis; checks: number; note?: string } | null;
  /** The second reading of the rule's `document` checks and our decisions on it, from its catalog entry. */
  secondReading: SecondReading | null;
  /** null: the fault variants are not in this installation. */
  faults: { id: string; description: string; reading?: string }[] | null;
  /** null: the reference deployment is not in this installation. */
  reference: ReferenceLine[] | null;
  /** null: no mutation result on record. */
  mutants: {
    results: string[];
    killedBy: number;
    near: { file: string; line: number; mutator: string; status: string; killedBy: string[] }[];
  } | null;
}

/** `conformance explain RULE`: everything the project holds about one rule. */
export async function explainCommand(id: string, opts: ExplainOptions): Promise<number> {
  const x = await explain(id, opts);
  process.stdout.write(opts.json ? `${JSON.stringify(x, null, 2)}\n` : renderExplanation(x));
  return 0;
}

/** Gathers the explanation of rule `id`; a UsageError (exit 2) with a suggestion for an unknown ID. */
export async function explain(
  id: string,
  opts: Pick<ExplainOptions, 'mutationResult'> = {},
  sources: ExplainSources = INSTALLED_SOURCES,
): Promise<Explanation> {
  const rules = loadRules();
  const rule = rules.find((r) => r.id === id);
  if (!rule) {
    const ids = rules.map((r) => r.id);
    const hint = didYouMean(id, ids) ?? ids.find((r) => r.endsWith(`/${id}`));
    throw new UsageError(
      `unknown rule ${t(id)}${hint ? ` (did you mean ${hint}?)` : ''}; \`conformance rules\` lists them`,
    );
  }
  // Collecting the suite is the slow part: it runs while the rest is read.
  const [collectedOfService, faults] = [collectedTests(serviceOfRule(id)), faultsOf(id, sources.faultsRegistry)];
  const { sites, tests: declarations } = suiteSites([id]);
  const checks = sites
    .filter((s) => s.kind === 'check')
    .map((s) => ({ file: s.file, line: s.line, ...(s.call ? { call: s.call } : {}) }));
  const reference = referenceLines(id, sources.referenceDir) ?? null;
  return {
    id,
    level: rule.level,
    status: rule.status ?? 'active',
    source: rule.source,
    statement: rule.statement,
    readings: rule.readings ?? [],
    testable: rule.testable !== false,
    ...(rule.note ? { note: rule.note } : {}),
    passive: rule.passive === true,
    tests: testsOf((await collectedOfService).get(id) ?? [], sites, declarations),
    checks,
    basis:
      rule.testable === false
        ? null
        : { basis: basisOf(rule), checks: checks.length, ...(rule.basisNote ? { note: rule.basisNote } : {}) },
    secondReading: rule.secondReading ?? null,
    faults: await faults,
    reference,
    mutants: mutantsOf(id, reference ?? [], mutationResults(sources.mutationResultsDir, opts.mutationResult ?? [])),
  };
}

const collected = new Map<ServiceName, Promise<Map<string, string[]>>>();

/** The tests of a service's suite per rule, collected once per process. */
function collectedTests(service: ServiceName): Promise<Map<string, string[]>> {
  let hit = collected.get(service);
  if (!hit) collected.set(service, (hit = testsByRule([service])));
  return hit;
}

/**
 * The rule's tests: those collected from its service's suite (so declared through a table too),
 * each at the line of its declaration, and any literal declaration the collection did not name.
 */
function testsOf(
  listed: readonly string[],
  sites: ReturnType<typeof suiteSites>['sites'],
  declarations: ReturnType<typeof suiteSites>['tests'],
): Explanation['tests'] {
  const own = sites.filter((s) => s.kind === 'test');
  const out: Explanation['tests'] = [];
  const used = new Set<string>();
  for (const name of listed) {
    const file = name.split(' › ')[0];
    const d =
      own.find((s) => declares({ file: s.file, line: s.line, call: s.call ?? '', title: s.title }, name)) ??
      declarations.find((x) => x.file === file && declares(x, name));
    if (d) used.add(`${d.file}:${d.line}`);
    out.push({ file, ...(d ? { line: d.line } : {}), name: name.slice(file.length + 3) });
  }
  for (const s of own)
    if (!used.has(`${s.file}:${s.line}`)) out.push({ file: s.file, line: s.line, name: s.title ?? '(title computed)' });
  return out;
}

/**
 * The fault variants that must make the rule fail. Variants declare `breaks` literally, in the
 * folder of their service, so only the files of that folder naming the ID are loaded.
 */
async function faultsOf(id: string, registry: string): Promise<Explanation['faults']> {
  // An installation may leave the fixtures out: the rule is explained without them.
  if (!existsSync(registry)) return null;
  const dir = join(dirname(registry), serviceOfRule(id));
  if (!existsSync(dir)) return [];
  const out: NonNullable<Explanation['faults']> = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const text = readFileSync(join(dir, f), 'utf8');
    if (!text.includes(`'${id}'`) && !text.includes(`"${id}"`)) continue;
    const { default: v } = (await import(pathToFileURL(join(dir, f)).href)) as { default: FaultVariant };
    if (v.breaks.includes(id))
      out.push({ id: v.id, description: v.description, ...(v.reading ? { reading: v.reading } : {}) });
  }
  return out;
}

export interface StoredMutant {
  file: string;
  line: number;
  mutator: string;
  status: string;
  killedBy?: string[];
}

/** The mutation results on record: the stored ones and those named on the command line. */
function mutationResults(dir: string, named: string[]): string[] {
  const stored = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(dir, f))
    : [];
  return [...stored, ...named];
}

/**
 * The mutants of a result written by `selftest --mutants --out`; refused with one line (exit 2)
 * when it is not a regular file within the bound, not JSON, too deep, or holds no mutants.
 */
export function readMutationResult(file: string): StoredMutant[] {
  const parsed = readUntrustedJson(file, 'a result of `selftest --mutants --out`', INPUT_BOUNDS.mutationResult);
  const mutants = (parsed as { mutants?: unknown } | null)?.mutants;
  if (!Array.isArray(mutants))
    throw new UsageError(`${t(file)}: not a result written by \`selftest --mutants --out\` (no mutants)`);
  return mutants as StoredMutant[];
}

/**
 * The rule's mutants in the results on record: those it killed, and every mutant from each of its
 * reference lines down to the next blank line (at most 12 lines).
 */
function mutantsOf(id: string, reference: ReferenceLine[], files: string[]): Explanation['mutants'] {
  if (!files.length) return null;
  const rows = files.flatMap(readMutationResult);
  const regions = reference.map((r) => ({ file: r.file, from: r.line, to: regionEnd(r) }));
  const near = rows
    .filter((m) => regions.some((r) => r.file === m.file && m.line >= r.from && m.line <= r.to))
    .map((m) => ({ file: m.file, line: m.line, mutator: m.mutator, status: m.status, killedBy: m.killedBy ?? [] }));
  return {
    results: files.map((f) => (f.startsWith(projectRoot) ? f.slice(projectRoot.length) : f)),
    killedBy: rows.filter((m) => m.killedBy?.includes(id)).length,
    near,
  };
}

function regionEnd(r: ReferenceLine): number {
  const lines = readFileSync(join(projectRoot, r.file), 'utf8').split('\n');
  let end = r.line;
  while (end < lines.length && end < r.line + 12 && lines[end].trim() !== '') end++;
  return end;
}

const where = (file: string, line?: number) => (line === undefined ? file : `${file}:${line}`);

/** The explanation as the terminal shows it; every piece read from a file passes `forTerminal`. */
export function renderExplanation(x: Explanation): string {
  const out: string[] = [];
  out.push(
    `${t(x.id)}  ${t(x.level)}${x.status !== 'active' ? ` (${t(x.status)})` : ''}${x.passive ? '  passive' : ''}`,
  );
  out.push(`  "${t(x.source.quote)}"`);
  out.push(`    ${t(x.source.doc)}, section "${t(x.source.section)}"`);
  out.push(`  statement: ${t(x.statement)}`);
  for (const r of x.readings) out.push(`  reading ${t(r.id)}: ${t(r.reading)}`);
  out.push(`  testable: ${x.testable ? 'yes' : 'no'}`);
  if (x.note) out.push(`  note: ${forTerminal(x.note).replace(/\s*\n\s*/g, ' ')}`);

  out.push('', `tests (${x.tests.length}):`);
  for (const s of x.tests) out.push(`  ${t(where(s.file, s.line))}  ${t(s.name)}`);
  if (!x.tests.length) out.push('  none');

  out.push('', `checks naming it (${x.checks.length}):`);
  for (const c of x.checks) out.push(`  ${t(where(c.file, c.line))}${c.call ? `  ${t(c.call)}(…)` : ''}`);
  if (!x.checks.length) out.push('  none outside the test declarations');

  out.push(
    '',
    x.basis
      ? `basis: ${t(x.basis.basis)} (${x.basis.checks} check${x.basis.checks === 1 ? '' : 's'})${x.basis.note ? `: ${t(x.basis.note)}` : ''}`
      : 'basis: none (not testable)',
  );
  const sr = x.secondReading;
  if (sr) {
    out.push('', `second reading: ${sr.verdict ? t(sr.verdict) : 'not given to the reader; decided on a later pass'}`);
    if (sr.otherReading) out.push(`  other reading: ${t(sr.otherReading)}`);
    if (sr.because) out.push(`  because: ${t(sr.because)}`);
    for (const d of sr.decisions ?? [])
      out.push(`  decided on "${t(d.part)}"${d.verdict ? ` (${t(d.verdict)})` : ''}: ${t(d.decision)}. ${t(d.why)}`);
  }

  if (x.faults === null) out.push('', 'fault variants: not in this installation');
  else {
    out.push('', `fault variants (${x.faults.length}):`);
    for (const f of x.faults)
      out.push(`  ${t(f.id)}  ${t(f.description)}${f.reading ? ` (reading ${t(f.reading)})` : ''}`);
    if (!x.faults.length) out.push('  none');
  }

  if (x.reference === null) out.push('', 'reference: not in this installation');
  else {
    out.push(
      '',
      `reference (${x.reference.length} line${x.reference.length === 1 ? '' : 's'}: \`// rule:\` comments, refusals):`,
    );
    for (const r of x.reference)
      out.push(`  ${t(where(r.file, r.line))}  ${t(r.comment ? `${r.comment} | ${r.code}` : r.code)}`);
    if (!x.reference.length) out.push('  none');
  }

  if (x.mutants === null) out.push('', 'mutants: no mutation result on record');
  else {
    out.push('', `mutants (${x.mutants.results.map(t).join(', ')}):`);
    out.push(`  killed by this rule: ${x.mutants.killedBy}`);
    for (const m of x.mutants.near)
      out.push(
        `  ${t(where(m.file, m.line))}  ${t(m.mutator)} ${t(m.status)}${m.killedBy.length ? ` by ${m.killedBy.map(t).join(', ')}` : ''}`,
      );
  }
  return `${out.join('\n')}\n`;
}
