// `conformance selftest --mutants`: the suites against machine-made mutants of the reference
// deployment. Stryker's instrumenter places every mutant of the rule-enforcing files into one
// instrumented copy (mutant schemata), served to the self-test's vitest worker instead of the
// files themselves; a mutant is switched on at run time through the instrumented code's global
// namespace. A coverage run first records which spec files reach which mutant; each mutant then
// runs against those spec files only, one after another in a lane (a child process), with a fresh
// deployment each. Mutants reached only while the modules load (a top-level constant, a regular
// expression) run in a lane of their own, with the mutant switched on before anything loads.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { loadRules } from '../contracts/catalog.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { toRecord, vitestOptions, type TestRecord } from '../suites/engine/suite-runner.ts';
import type { SelftestJobSpec } from './selftest-job.ts';
import { fileKey } from './mutant-job.ts';
import { THROTTLED_CLIENTS } from './reference-config.ts';
import { collectContext, serviceSpecFiles, specFilesByRule, specFilesFor, variantReport } from './selftest-command.ts';
import { resolveServices } from './rules-command.ts';
import { UsageError } from './usage-error.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const launcher = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
/** The triage lists: one JSON file per reference file, at its path under `fixtures/reference/`. */
export const TRIAGE_DIR = join(projectRoot, 'fixtures/mutants/triage');

/** The reference's files that enforce rules: not its server shell, seed data, test helpers or tests. */
const REFERENCE_FILES = 'fixtures/reference/{technical-token-manager,notification,event-management,shared}/**/*.ts';
const NOT_RULE_CODE = [
  '**/*.test.ts',
  '**/test-*.ts',
  '**/seed.ts',
  '**/seed-data.ts',
  '**/fault-switch.ts',
  // How seam sets compose: with no variant on, the reference's own seams pass through untouched.
  'fixtures/reference/shared/seams.ts',
  '**/context.ts',
  '**/model.ts',
  '**/scopes.ts',
  // The process-wide key pair cache: made once, before any mutant is on, and a mutant of it would
  // leave every later deployment of the lane without a key (not the rules' code either way).
  '**/signing-key.ts',
];

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
  /** The source line the mutant starts on, whitespace collapsed (see TriageEntry.at). */
  at: string;
  status: MutantStatus;
  /** The rules that failed against the mutant (the killing rules). */
  killedBy: string[];
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
  score: Record<string, { killed: number; undetected: number; equivalent: number; notRun: number; score: number }>;
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

export interface TriageEntry {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  /**
   * The source line the mutant starts on (whitespace collapsed), for a key that more than one
   * mutant of the file shares (`false` -> `true` in two places); without it, the entry names all.
   */
  at?: string;
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

/** The triage entry that explains a mutant, if any (one with `at` only for the mutant on that line). */
export function triageOf(triage: TriageEntry[], m: MutantRow): TriageEntry | undefined {
  const key = triageKey(m);
  return triage.find((t) => triageKey(t) === key && (t.at === undefined || t.at === m.at));
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 160);

interface Location {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** The source text at a location of Stryker's (lines and columns from 0). */
function textAt(source: string[], loc: Location): string {
  const lines = source.slice(loc.start.line, loc.end.line + 1);
  if (!lines.length) return '';
  if (lines.length === 1) return lines[0].slice(loc.start.column, loc.end.column);
  lines[0] = lines[0].slice(loc.start.column);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, loc.end.column);
  return lines.join('\n');
}

/** Minimal view of a babel node path, as Stryker's ignorers receive it. */
interface NodePathLike {
  node: unknown;
  key?: string | number | null;
  parentPath?: NodePathLike | null;
}

/** Whether an AST node contains a fault switch (`fault('…')`, `faultActive(…)`, `ctx.fault(…)`). */
function hasFaultSwitch(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const n = node as Record<string, unknown> & { type?: string };
  if (n.type === 'CallExpression') {
    const callee = n.callee as { type?: string; name?: string; property?: { name?: string } };
    const name = callee.type === 'Identifier' ? callee.name : callee.property?.name;
    if (name === 'fault' || name === 'faultActive') return true;
  }
  for (const [k, v] of Object.entries(n)) {
    if (k === 'loc' || k === 'start' || k === 'end' || k === 'leadingComments' || k === 'trailingComments') continue;
    if (Array.isArray(v) ? v.some(hasFaultSwitch) : typeof v === 'object' && hasFaultSwitch(v)) return true;
  }
  return false;
}

/** Whether a node is a fault switch call itself (`fault('…')`, `ctx.fault('…')`, `faultActive(…)`). */
function isFaultSwitch(node: unknown): boolean {
  const n = node as { type?: string } | undefined;
  return n?.type === 'CallExpression' && hasFaultSwitch({ ...n, arguments: [] });
}

/**
 * Whether a condition can hold only while a fault is on: a fault switch, or a conjunction with one
 * (`x && fault('…')`), or a disjunction of such. `x && !fault('…')` is not: with every fault off
 * it is `x`, the reference's own condition.
 */
export function onlyWithFault(node: unknown): boolean {
  const n = node as { type?: string; operator?: string; left?: unknown; right?: unknown; expression?: unknown };
  if (!n || typeof n !== 'object') return false;
  if (isFaultSwitch(n)) return true;
  if (n.type === 'ParenthesizedExpression' || n.type === 'TSAsExpression' || n.type === 'TSNonNullExpression')
    return onlyWithFault(n.expression);
  if (n.type === 'LogicalExpression' && n.operator === '&&') return onlyWithFault(n.left) || onlyWithFault(n.right);
  if (n.type === 'LogicalExpression' && n.operator === '||') return onlyWithFault(n.left) && onlyWithFault(n.right);
  return false;
}

/**
 * Leaves the fault variants' code alone: a fault switch, and what runs or decides only when one
 * is on, are not the reference's behaviour (switching a fault on is what the hand-written variants
 * do). The reference's own conditions beside a switch (`x && !fault('…')`) are mutated.
 */
const faultSwitchIgnorer = {
  shouldIgnore(path: NodePathLike): string | undefined {
    if (isFaultSwitch(path.node)) return 'a fault switch';
    const parent = path.parentPath?.node as { type?: string; test?: unknown } | undefined;
    if (
      parent &&
      (parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') &&
      (path.key === 'test' || path.key === 'consequent') &&
      onlyWithFault(parent.test)
    )
      return 'runs only with a fault variant on';
    if (parent && parent.type === 'LogicalExpression') {
      const { left, right, operator } = parent as { left?: unknown; right?: unknown; operator?: string };
      // `fault('…') && y`: y is never evaluated while the fault is off
      if (path.key === 'right' && operator === '&&' && onlyWithFault(left)) return 'runs only with a fault variant on';
      // `x && fault('…')`: false whatever x is while the fault is off
      if (path.key === 'left' && operator === '&&' && onlyWithFault(right)) return 'decides nothing with the fault off';
    }
    return undefined;
  },
};

interface Instrumented {
  /** Instrumented source by absolute path. */
  code: Record<string, string>;
  mutants: MutantRow[];
}

const quietLogger = {
  debug() {},
  info() {},
  trace() {},
  warn(m: string) {
    process.stderr.write(`${m}\n`);
  },
  error(m: string) {
    process.stderr.write(`${m}\n`);
  },
  fatal(m: string) {
    process.stderr.write(`${m}\n`);
  },
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
};

function groupOf(file: string): MutantGroup {
  const dir = file.split('/')[2];
  return (SERVICES as readonly string[]).includes(dir) ? (dir as ServiceName) : 'shared';
}

/** The reference's rule-enforcing files (relative paths), those matching `globs` when given. */
export function mutatedFiles(services: readonly ServiceName[], globs: string[]): string[] {
  const all = [...new Set(readdirRecursive(join(projectRoot, 'fixtures/reference')))]
    .map((f) => `fixtures/reference/${f}`)
    .filter((f) => picomatch.isMatch(f, REFERENCE_FILES) && !picomatch.isMatch(f, NOT_RULE_CODE))
    .filter((f) => {
      const g = groupOf(f);
      return g === 'shared' || services.includes(g);
    });
  return (globs.length ? all.filter((f) => globs.some((g) => picomatch.isMatch(f, g))) : all).sort();
}

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split('\\').join('/'));
}

/** Instruments `files` with every mutant Stryker makes of them. */
async function instrument(files: string[]): Promise<Instrumented> {
  let mod: typeof import('@stryker-mutator/instrumenter');
  try {
    mod = await import('@stryker-mutator/instrumenter');
  } catch {
    throw new UsageError('--mutants needs the development dependencies (npm ci): @stryker-mutator/instrumenter');
  }
  const sources = files.map((f) => ({
    name: join(projectRoot, f),
    content: readFileSync(join(projectRoot, f), 'utf8'),
  }));
  const instrumenter = new mod.Instrumenter(quietLogger);
  const result = await instrumenter.instrument(
    sources.map((s) => ({ ...s, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [faultSwitchIgnorer] },
  );
  const lines = new Map(sources.map((s) => [s.name, s.content.split('\n')]));
  const code: Record<string, string> = {};
  for (const f of result.files) code[f.name] = f.content;
  const mutants: MutantRow[] = result.mutants
    .filter((m) => m.status !== 'Ignored')
    .map((m) => {
      const file = relative(projectRoot, m.fileName);
      return {
        id: m.id,
        file,
        line: m.location.start.line + 1,
        group: groupOf(file),
        mutator: m.mutatorName,
        original: collapse(textAt(lines.get(m.fileName) ?? [], m.location)),
        at: collapse(lines.get(m.fileName)?.[m.location.start.line] ?? ''),
        replacement: collapse(m.replacement ?? ''),
        status: 'no-coverage',
        killedBy: [],
        specFiles: 0,
        tests: 0,
        durationMs: 0,
      };
    });
  return { code, mutants };
}

// ---------------------------------------------------------------------------------------------
// Lanes

interface MutantJob {
  mutant: string;
  /** The spec files the job imports. */
  specFiles: string[];
  /** Of these, the files whose every test runs (the others run only `tests`). */
  whole: string[];
  /** The tests to run, by full name (`spec:FILE > name`). */
  tests: string[];
  /** Start no further test once one has failed a rule (the mutant is killed). */
  stopAtKill: boolean;
  services: ServiceName[];
  hitLimit: number;
  /** Options of the job's deployment (a throttle, for the throttling code's mutants). */
  options?: SelftestJobSpec['options'];
}

interface LaneFile {
  mode: 'coverage' | 'mutants';
  instrumented: string;
  workDir: string;
  index: number;
  seed: number;
  runs: number;
  out: string;
  /** coverage: where the coverage goes. */
  coverageOut?: string;
  /** coverage: the spec files to run, one after another. */
  specFiles?: string[];
  services: ServiceName[];
  jobs?: MutantJob[];
}

interface LaneResult {
  mutant: string;
  failed: string[];
  /**
   * Every failed rule failed on a transport error (an answer not complete in time, a connection
   * lost): on a loaded machine that may be the machine, not the mutant.
   */
  transportOnly?: boolean;
  /** Tests were left out after one failed a rule. */
  stopped?: boolean;
  errors: string[];
  hits: number;
  limit: number;
  durationMs: number;
}

/** A failure that is a transport error (timeout, lost connection) rather than a judged answer. */
export function isTransportFailure(f: { title?: string; received?: string } | undefined): boolean {
  return (
    /^transport error/.test(f?.title ?? '') ||
    /: (timeout: response not complete|connection (reset|refused|closed)|socket)/i.test(f?.received ?? '')
  );
}

/** A vite plugin that serves the instrumented reference files instead of the files themselves. */
function instrumentedLoader(code: Record<string, string>) {
  return {
    name: 'conformance-mutants',
    enforce: 'pre' as const,
    load(id: string) {
      const path = id.split('?')[0];
      return code[path] ?? null;
    },
  };
}

/** Runs the generated files in the order they were written (vitest's own order puts large files first). */
class InOrder {
  sort<T extends { moduleId: string }>(files: T[]): T[] {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
  shard<T>(files: T[]): T[] {
    return files;
  }
}

/** `conformance selftest-mutants-lane FILE`: a lane of the mutation self-test (see above). */
export async function mutantsLaneCommand(file: string): Promise<void> {
  const lane = JSON.parse(readFileSync(file, 'utf8')) as LaneFile;
  const code = JSON.parse(readFileSync(lane.instrumented, 'utf8')) as Record<string, string>;
  const dir = join(lane.workDir, `lane-${lane.index}-specs`);
  mkdirSync(dir, { recursive: true });
  const jobModule = JSON.stringify(join(projectRoot, 'cli/mutant-job.ts'));
  const spec = (services: ServiceName[], index: number, options?: SelftestJobSpec['options']): SelftestJobSpec => ({
    id: `m${index}`,
    faults: [],
    rules: [],
    services,
    options,
    seed: lane.seed,
    runs: lane.runs,
    index,
  });
  // Each spec file in a suite of its own named after it, so that a test's full name is the same
  // key in the coverage run and in a mutant's run (`spec:FILE > name`).
  const suiteOf = (f: string, index: number) =>
    `describe(${JSON.stringify(fileKey(f))}, async () => { await import(${JSON.stringify(`${join(projectRoot, f)}?mutant=${lane.index}-${index}`)}); });`;
  const files: string[] = [];
  const jobOf = new Map<string, MutantJob>();
  const hitsFile = join(dir, 'hits.jsonl');
  if (lane.mode === 'coverage') {
    lane.specFiles!.forEach((f, i) => {
      const name = join(dir, `${String(i).padStart(4, '0')}.spec.ts`);
      writeFileSync(
        name,
        [
          `import { afterAll, afterEach, beforeEach, describe } from 'vitest';`,
          `import { beginCoverageFile, beginCoverageTest, endCoverage, endCoverageTest } from ${jobModule};`,
          `await beginCoverageFile(${JSON.stringify(spec(lane.services, i))}, ${JSON.stringify(f)});`,
          // One test at a time (the lane runs no test concurrently): what is reached is the test's.
          `beforeEach((ctx) => beginCoverageTest(ctx.task.fullTestName ?? ctx.task.name));`,
          `afterEach(() => endCoverageTest(${JSON.stringify(f)}));`,
          suiteOf(f, i),
          // vitest orders the files itself: each one's end writes the coverage so far.
          `afterAll(() => endCoverage(${JSON.stringify(lane.coverageOut)}));`,
          '',
        ].join('\n'),
      );
      files.push(name);
    });
  } else {
    lane.jobs!.forEach((job, i) => {
      const name = join(dir, `${String(i).padStart(4, '0')}.spec.ts`);
      writeFileSync(
        name,
        [
          `import { afterAll, afterEach, beforeEach, describe } from 'vitest';`,
          `import { beginMutantJob, endMutantJob, endMutantJobs, failedRule, stopAfterKill, stoppedAfterKill } from ${jobModule};`,
          `await beginMutantJob(${JSON.stringify(spec(job.services, i, job.options))}, ${JSON.stringify(job.mutant)}, ${job.hitLimit});`,
          // Only the tests that reach the mutant (every test of the files that run whole); with
          // stopAtKill, none that would start after a test failed a rule.
          `const whole = new Set(${JSON.stringify(job.whole.map(fileKey))});`,
          `const tests = new Set(${JSON.stringify(job.tests)});`,
          `beforeEach((ctx) => { const k = ctx.task.fullTestName ?? ''; if (!tests.has(k) && !whole.has(k.split(' > ')[0])) ctx.skip(); if (stoppedAfterKill(true)) ctx.skip(); });`,
          ...(job.stopAtKill ? [`afterEach((ctx) => { if (failedRule(ctx.task.meta)) stopAfterKill(); });`] : []),
          ...job.specFiles.map((f) => suiteOf(f, i)),
          `afterAll(() => endMutantJob(${JSON.stringify(hitsFile)}, ${JSON.stringify(job.mutant)}));`,
          'afterAll(endMutantJobs);',
          '',
        ].join('\n'),
      );
      files.push(name);
      jobOf.set(name, job);
    });
  }
  const records = new Map<MutantJob, TestRecord[]>();
  const done = new Set<MutantJob>();
  let lastEnd = Date.now();
  const finish = (job: MutantJob, errors: string[]) => {
    if (done.has(job)) return;
    done.add(job);
    const rules = loadRules(job.services);
    const report = variantReport(rules, records.get(job) ?? [], { seed: lane.seed, errors, services: job.services });
    const hits = existsSync(hitsFile)
      ? readFileSync(hitsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { mutant: string; hits: number; limit: number; stopped?: boolean })
          .find((h) => h.mutant === job.mutant)
      : undefined;
    const failedRules = report.rules.filter((x) => x.status === 'failed');
    const r: LaneResult = {
      mutant: job.mutant,
      failed: failedRules.map((x) => x.id),
      transportOnly: failedRules.length > 0 && failedRules.every((x) => isTransportFailure(x.failure)),
      stopped: hits?.stopped,
      errors: report.errors,
      hits: hits?.hits ?? 0,
      limit: hits?.limit ?? job.hitLimit,
      durationMs: Date.now() - lastEnd,
    };
    lastEnd = Date.now();
    appendFileSync(lane.out, `${JSON.stringify(r)}\n`);
    process.stdout.write(`${JSON.stringify(r)}\n`);
  };
  const wanted = (job: MutantJob, fullName: string) =>
    job.tests.includes(fullName) || job.whole.some((f) => fullName.startsWith(`${fileKey(f)} > `));
  const collector = {
    onTestCaseResult(tc: { module: { moduleId: string }; fullName: string }) {
      const job = jobOf.get(tc.module.moduleId);
      const rec = toRecord(tc);
      // A test the job left out (skipped before it started) says nothing about the mutant.
      if (job && rec && wanted(job, tc.fullName)) (records.get(job) ?? records.set(job, []).get(job)!).push(rec);
    },
    onTestModuleEnd(module: { moduleId: string; errors(): Array<{ message?: string }> }) {
      const job = jobOf.get(module.moduleId);
      if (job)
        finish(
          job,
          module.errors().map((e) => e.message ?? JSON.stringify(e)),
        );
    },
  };
  const placeholder: RunContext = { ...collectContext(lane.services), fresh: true };
  const base = vitestOptions(placeholder, [], [collector]);
  const { createVitest } = await import('vitest/node');
  // The coverage run runs one test at a time, so that the instrumented code's current test is exact.
  const sequence =
    lane.mode === 'coverage'
      ? { ...(base.sequence as object), concurrent: false, sequencer: InOrder }
      : { ...(base.sequence as object), sequencer: InOrder };
  const vitest = await createVitest(
    'test',
    { ...base, include: files, sequence, ...(lane.mode === 'coverage' ? { maxConcurrency: 1 } : {}) },
    { plugins: [instrumentedLoader(code)] },
  );
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  for (const job of jobOf.values()) if (!done.has(job)) finish(job, ['the mutant did not run to its end']);
}

interface LaneTask {
  lane: Omit<LaneFile, 'index' | 'out' | 'workDir' | 'instrumented' | 'seed' | 'runs'>;
  /** Switched on in the lane's environment before anything loads (a mutant reached while loading). */
  env?: string;
}

/**
 * Runs lane tasks `width` at a time. A lane that reports nothing for `stallMs` is stopped: its
 * current mutant is recorded as timed out and the rest of its mutants go to a new lane.
 */
async function runPool(
  tasks: LaneTask[],
  width: number,
  common: Pick<LaneFile, 'workDir' | 'instrumented' | 'seed' | 'runs'>,
  stallMs: number,
  onResult: (r: LaneResult) => void,
): Promise<void> {
  const queue = [...tasks];
  let counter = 0;
  // Stopped (SIGTERM, SIGINT): the lanes end at once; the mutants not yet run are reported as such.
  const live = new Set<ReturnType<typeof spawn>>();
  let stopped = false;
  const stop = () => {
    stopped = true;
    queue.length = 0;
    for (const c of live) c.kill('SIGKILL');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const runOne = (task: LaneTask): Promise<void> =>
    new Promise((resolve) => {
      const index = counter++;
      const out = join(common.workDir, `lane-${index}-results.jsonl`);
      const file = join(common.workDir, `lane-${index}.json`);
      writeFileSync(file, JSON.stringify({ ...task.lane, ...common, index, out } satisfies LaneFile));
      const child = spawn(process.execPath, [launcher, 'selftest-mutants-lane', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: task.env ? { ...process.env, __STRYKER_ACTIVE_MUTANT__: task.env } : process.env,
      });
      live.add(child);
      const seen = new Set<string>();
      let buffer = '';
      let stderr = '';
      let timer: NodeJS.Timeout | undefined;
      let stalled = false;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stalled = true;
          child.kill('SIGKILL');
        }, stallMs);
      };
      arm();
      child.stdout.on('data', (d) => {
        buffer += d;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          try {
            const r = JSON.parse(line) as LaneResult;
            if (typeof r.mutant !== 'string') continue;
            seen.add(r.mutant);
            arm();
            onResult(r);
          } catch {
            // not a result line
          }
        }
      });
      child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
      child.on('close', (code) => {
        clearTimeout(timer);
        live.delete(child);
        if (stopped) return resolve();
        const left = (task.lane.jobs ?? []).filter((j) => !seen.has(j.mutant));
        if (left.length) {
          const [current, ...rest] = left;
          onResult({
            mutant: current.mutant,
            failed: [],
            errors: [
              stalled
                ? `timed out: no result for ${stallMs / 1000} s`
                : `lane ended (exit ${code}): ${stderr.slice(-300)}`,
            ],
            hits: stalled ? Number.POSITIVE_INFINITY : 0,
            limit: current.hitLimit,
            durationMs: stalled ? stallMs : 0,
          });
          if (rest.length) queue.push({ ...task, lane: { ...task.lane, jobs: rest } });
        }
        resolve();
      });
    });
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await runOne(task);
  };
  try {
    await Promise.all(Array.from({ length: width }, worker));
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

// ---------------------------------------------------------------------------------------------
// The command

/**
 * A deterministic sample: the `size` mutants whose key (file, mutator, original code, replacement)
 * hashes lowest with `seed`, so that an unrelated edit elsewhere in the reference does not change it.
 */
export function sampleOf<T extends MutantRow>(mutants: T[], size: number, seed: number): T[] {
  const rank = (m: MutantRow) =>
    createHash('sha256')
      .update(`${seed}\u0000${triageKey(m)}`)
      .digest('hex');
  return mutants
    .map((m) => ({ m, r: rank(m) }))
    .sort((a, b) => a.r.localeCompare(b.r) || Number(a.m.id) - Number(b.m.id))
    .slice(0, size)
    .map((x) => x.m);
}

/** The statuses that count as detected: a rule failed, the mutant looped, or the deployment broke. */
const DETECTED: readonly MutantStatus[] = ['killed', 'timeout', 'crashed'];
/** The reason of a kill that is only transport errors (it runs again before it counts). */
const TRANSPORT_ONLY = 'killed only by transport errors';

/**
 * The reference's throttling code acts only in a deployment started with a throttle, which no
 * test's own deployment is: its mutants run in one throttled as a run of the embedded reference is
 * (the seed's throttled client only, probed with it), against the tests of the throttling rules.
 */
const THROTTLE_FILES = /^fixtures\/reference\/shared\/(rate-limiter|throttle-hook)\.ts$/;
const THROTTLE_RULES = /throttl|too-many-requests|rate-limits/;
const THROTTLE = 8;

/** Every mutant Stryker makes of the rule-enforcing files of `services` (those matching `globs`). */
export async function listMutants(services: readonly ServiceName[], globs: string[] = []): Promise<MutantRow[]> {
  return (await instrument(mutatedFiles(services, globs))).mutants;
}

interface Coverage {
  load: string[];
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}

/** The rows of an earlier `--out` result. */
function readEarlier(file: string): MutantRow[] {
  let rows: unknown;
  try {
    rows = (JSON.parse(readFileSync(file, 'utf8')) as MutantsResult).mutants;
  } catch (e) {
    throw new UsageError(`--since ${file}: not a result written by --out (${(e as Error).message})`);
  }
  if (!Array.isArray(rows)) throw new UsageError(`--since ${file}: not a result written by --out (no mutants)`);
  return rows as MutantRow[];
}

/**
 * Incremental runs: a mutant that an earlier result found killed (or timed out, or crashed) keeps
 * that verdict when the same mutant — same file, mutator, original, replacement and source line —
 * is made again. Kills carry over only as long as the suite was not weakened since; survivors and
 * mutants reached by no test always run again. Returns how many were carried.
 */
export function carryKills(earlier: MutantRow[], chosen: MutantRow[]): number {
  const rowKey = (m: MutantRow) => `${triageKey(m)}\u0000${m.at}`;
  const kills = new Map(earlier.filter((m) => DETECTED.includes(m.status)).map((m) => [rowKey(m), m]));
  let n = 0;
  for (const m of chosen) {
    const k = kills.get(rowKey(m));
    if (!k) continue;
    Object.assign(m, { status: k.status, killedBy: k.killedBy, reason: k.reason, carried: true });
    n++;
  }
  return n;
}

/** Runs the mutation self-test and returns its result (no printing). */
export async function runMutants(opts: MutantsOptions, log: (line: string) => void = () => {}): Promise<MutantsResult> {
  const started = Date.now();
  const services = resolveServices(opts.service);
  const globs = (opts.files ?? []).flatMap((g) => g.split(',')).filter(Boolean);
  const files = mutatedFiles(services, globs);
  if (!files.length) throw new UsageError(`--files ${globs.join(' ')} matches no rule-enforcing file of the reference`);
  const seed = Number(opts.seed ?? 1);
  const runs = Number(opts.runs ?? 10);
  const width = Math.max(1, Number(opts.parallel ?? availableParallelism()));
  const { code, mutants } = await instrument(files);
  const made: Record<string, number> = {};
  for (const m of mutants) made[m.group] = (made[m.group] ?? 0) + 1;
  log(`mutants: ${mutants.length} made in ${files.length} files (${JSON.stringify(made)})`);
  const sampleSize = opts.sample ? Number(opts.sample) : undefined;
  const chosen = sampleSize ? sampleOf(mutants, sampleSize, seed) : mutants;
  const carried = opts.since ? carryKills(opts.since.flatMap(readEarlier), chosen) : 0;
  if (opts.since) {
    // Incremental: a mutant the triage list explains is not run again either.
    const triage = loadTriage();
    let explained = 0;
    for (const m of chosen) {
      const t = !m.carried && triageOf(triage, m);
      if (!t) continue;
      Object.assign(m, { status: 'equivalent', reason: t.reason, carried: true });
      explained++;
    }
    log(
      `${carried} mutants killed in ${opts.since.join(', ')} keep that verdict, ${explained} the triage list explains are not run; the others run`,
    );
  }

  const workDir = mkdtempSync(join(tmpdir(), 'conformance-mutants-'));
  const instrumented = join(workDir, 'instrumented.json');
  writeFileSync(instrumented, JSON.stringify(code));
  const common = { workDir, instrumented, seed, runs };
  const specServices = services;
  const allSpecs = specServices.flatMap(serviceSpecFiles);

  // 1. Coverage: the unmutated instrumented reference against every spec file, one after another.
  const coverageStarted = Date.now();
  const coverageOut = join(workDir, 'coverage.json');
  const coverageResults: LaneResult[] = [];
  await runPool(
    [{ lane: { mode: 'coverage', specFiles: allSpecs, services: specServices, coverageOut } }],
    1,
    common,
    30 * 60_000,
    (r) => coverageResults.push(r),
  );
  if (!existsSync(coverageOut))
    throw new Error(`the coverage run did not finish: ${coverageResults.map((r) => r.errors.join('; ')).join(' ')}`);
  const coverage = JSON.parse(readFileSync(coverageOut, 'utf8')) as Coverage;
  const coverageMs = Date.now() - coverageStarted;
  log(`coverage run: ${(coverageMs / 1000).toFixed(1)} s`);
  const loaded = new Set(coverage.load);

  // 2. The mutants: each against the tests that reached it. A mutant that survives them runs
  // again against more (see `wider`): it is reported survived only if those held too.
  const byId = new Map(chosen.map((m) => [m.id, m]));
  const specServiceOf = (f: string) => f.split('/')[1] as ServiceName;
  /** The spec file of a coverage key (`spec:FILE` for a file's hooks, `spec:FILE > name` for a test). */
  const fileOf = (key: string) => key.split(' > ')[0].slice(fileKey('').length);
  const isTest = (key: string) => key.includes(' > ');
  const jobs: MutantJob[] = [];
  /** A survivor's second run: every test of the files its tests are in, or of its service. */
  const wider = new Map<string, MutantJob>();
  /** A job that left tests out after a failed check, yet failed no rule: it runs again in full. */
  const same = new Map<string, MutantJob>();
  /** Each mutant's first job (its reaching tests). */
  const first = new Map<string, MutantJob>();
  const kinds = { loading: 0, startUp: 0, tests: 0 };
  const jobOf = (m: MutantRow, whole: string[], tests: string[]): MutantJob => {
    const specFiles = [...new Set([...whole, ...tests.map(fileOf)])].sort();
    const hits = (coverage.static[m.id] ?? 0) + Object.values(coverage.perTest).reduce((n, c) => n + (c[m.id] ?? 0), 0);
    return {
      mutant: m.id,
      specFiles,
      whole,
      tests,
      stopAtKill: !opts.everyKiller,
      services: [...new Set(specFiles.map(specServiceOf))],
      hitLimit: Math.max(10_000, hits * 100),
    };
  };
  const throttleSpecs = chosen.some((m) => THROTTLE_FILES.test(m.file))
    ? specFilesFor(
        await specFilesByRule(specServices),
        loadRules(specServices)
          .map((r) => r.id)
          .filter((id) => THROTTLE_RULES.test(id)),
      )
    : undefined;
  for (const m of chosen) {
    if (m.carried) continue;
    const startUp = loaded.has(m.id) || !!coverage.static[m.id];
    const { job, second } =
      THROTTLE_FILES.test(m.file) && throttleSpecs
        ? {
            job: {
              ...jobOf(m, throttleSpecs, []),
              stopAtKill: false,
              options: { throttle: THROTTLE, throttledClients: THROTTLED_CLIENTS },
            },
            second: undefined,
          }
        : testJobs(m, startUp);
    if (!job) continue;
    first.set(m.id, job);
    if (second && (second.specFiles.length > job.specFiles.length || job.tests.length)) wider.set(m.id, second);
    else if (second) same.set(m.id, { ...job, stopAtKill: false });
    if (loaded.has(m.id)) kinds.loading++;
    else if (startUp) kinds.startUp++;
    else kinds.tests++;
    m.specFiles = job.specFiles.length;
    m.tests = job.tests.length;
    m.status = 'not-run';
    jobs.push(job);
  }
  /** The jobs of a mutant reached by tests: its first (the reaching tests) and its second (wider). */
  function testJobs(m: MutantRow, startUp: boolean): { job?: MutantJob; second?: MutantJob } {
    const reachedBy = Object.entries(coverage.perTest)
      .filter(([, c]) => c[m.id])
      .map(([k]) => k)
      .sort();
    const own = m.group === 'shared' ? specServices : [m.group];
    const ownFiles = own.flatMap(serviceSpecFiles);
    const reachedOwn = reachedBy.filter((k) => own.includes(specServiceOf(fileOf(k))));
    // The tests of its service that reached it (those of other services when only they did, as
    // through tokens); a file's hooks that reached it: all of that file's tests.
    const keys = reachedOwn.length ? reachedOwn : reachedBy;
    const files = [...new Set(keys.map(fileOf))].sort();
    const hooks = [...new Set(keys.filter((k) => !isTest(k)).map(fileOf))];
    const tests = keys.filter((k) => isTest(k) && !hooks.includes(fileOf(k)));
    // Reached while loading or at start-up (a route's options, a compiled schema, the seed data):
    // no test tells which requests that changes, so a survivor of its tests runs against every
    // test of its service, and one that no test of its service reached runs against those at once.
    const second = startUp ? jobOf(m, ownFiles, []) : jobOf(m, files, []);
    if (loaded.has(m.id) || (startUp && !reachedOwn.length)) return { job: jobOf(m, ownFiles, []), second };
    return files.length ? { job: jobOf(m, hooks, tests), second } : {};
  }
  /**
   * Lane tasks for jobs: the jobs spread over `lanes` lanes, and each mutant reached while loading
   * in a lane of its own (switched on before anything loads).
   */
  const tasksFor = (jobs: MutantJob[], lanes: number): LaneTask[] => {
    const plain = jobs.filter((j) => !loaded.has(j.mutant));
    const out: LaneTask[] = [];
    const laneCount = Math.max(1, Math.min(lanes, plain.length));
    for (let i = 0; i < laneCount; i++) {
      const own = plain.filter((_, j) => j % laneCount === i);
      if (own.length) out.push({ lane: { mode: 'mutants', services: specServices, jobs: own } });
    }
    for (const j of jobs)
      if (loaded.has(j.mutant)) out.push({ lane: { mode: 'mutants', services: j.services, jobs: [j] }, env: j.mutant });
    return out;
  };
  const tasks = tasksFor(jobs, width);
  const toRun = jobs.length;
  log(
    `running ${toRun} of ${chosen.length} mutants (${chosen.filter((m) => !m.carried).length - toRun} reached by no test${opts.since ? `, ${chosen.filter((m) => m.carried).length} not run again (--since)` : ''}; ${kinds.loading} reached while loading, run against every test of their service; ${kinds.startUp} reached at start-up), ${width} at a time`,
  );
  let done = 0;
  const verdict = (r: LaneResult, m: MutantRow) => {
    m.durationMs += r.durationMs;
    m.killedBy = r.failed;
    if (r.hits > r.limit) {
      m.status = 'timeout';
      m.reason = r.errors[0] ?? `reached ${r.hits} times (limit ${r.limit})`;
    } else if (r.failed.length) {
      m.status = 'killed';
      if (r.transportOnly) m.reason = TRANSPORT_ONLY;
    } else if (r.errors.length) {
      m.status = 'crashed';
      m.reason = r.errors[0].split('\n')[0].slice(0, 200);
    } else m.status = 'survived';
  };
  const line = (m: MutantRow, r: LaneResult, tag: string) =>
    `  [${tag}] ${m.file}:${m.line} ${m.mutator} ${m.status}${m.killedBy.length ? ` by ${m.killedBy.slice(0, 3).join(', ')}` : ''}${m.status === 'survived' ? `: ${m.original} -> ${m.replacement}` : ''} (${(r.durationMs / 1000).toFixed(1)} s, ${m.tests ? `${m.tests} tests in ` : ''}${m.specFiles} files)`;
  const stoppedEarly = new Set<string>();
  await runPool(tasks, width, common, 180_000, (r) => {
    const m = byId.get(r.mutant);
    if (!m) return;
    done++;
    if (r.stopped) stoppedEarly.add(r.mutant);
    verdict(r, m);
    log(line(m, r, `${done}/${toRun}`));
  });
  // A mutant killed only by transport errors runs again, one lane at a time: a loaded machine can
  // time out an answer of a sound reference. Only transport errors again: it counts as timed out.
  const shaky = chosen.filter((m) => m.status === 'killed' && m.reason === TRANSPORT_ONLY);
  if (shaky.length) {
    log(`running ${shaky.length} mutants killed only by transport errors again, one at a time`);
    let n = 0;
    const again = shaky.map((m) => first.get(m.id)).filter((j) => j !== undefined);
    await runPool(tasksFor(again, 1), 1, common, 180_000, (r) => {
      const m = byId.get(r.mutant);
      if (!m) return;
      n++;
      m.reason = undefined;
      verdict(r, m);
      if (m.reason === TRANSPORT_ONLY) {
        m.status = 'timeout';
        m.reason = 'answers timed out or connections failed on two runs';
      }
      log(line(m, r, `again ${n}/${shaky.length}`));
    });
  }
  const again = chosen
    .filter((m) => m.status === 'survived')
    .map((m) => wider.get(m.id) ?? (stoppedEarly.has(m.id) ? same.get(m.id) : undefined))
    .filter((j) => j !== undefined);
  if (again.length) {
    log(`running ${again.length} survivors again, against every test of their files (or service)`);
    let n = 0;
    await runPool(tasksFor(again, width), width, common, 180_000, (r) => {
      const m = byId.get(r.mutant);
      if (!m) return;
      n++;
      m.specFiles = (wider.get(m.id) ?? same.get(m.id))!.specFiles.length;
      m.tests = 0;
      m.widened = true;
      verdict(r, m);
      log(line(m, r, `again ${n}/${again.length}`));
    });
  }

  // 3. Triage: a survivor (or unreached mutant) listed as equivalent, with its reason.
  const triage = loadTriage();
  for (const m of chosen) {
    if (m.status !== 'survived' && m.status !== 'no-coverage') continue;
    const t = triageOf(triage, m);
    if (t) {
      m.status = 'equivalent';
      m.reason = t.reason;
    }
  }
  const score: MutantsResult['score'] = {};
  for (const g of [...SERVICES, 'shared'] as MutantGroup[]) {
    const own = chosen.filter((m) => m.group === g);
    if (!own.length) continue;
    const killed = own.filter((m) => DETECTED.includes(m.status)).length;
    const undetected = own.filter((m) => m.status === 'survived' || m.status === 'no-coverage').length;
    score[g] = {
      killed,
      undetected,
      equivalent: own.filter((m) => m.status === 'equivalent').length,
      notRun: own.filter((m) => m.status === 'not-run').length,
      score: killed + undetected ? killed / (killed + undetected) : 1,
    };
  }
  if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
  return {
    mutants: chosen,
    made,
    score,
    sample: sampleSize ? { size: sampleSize, seed } : undefined,
    coverageMs,
    durationMs: Date.now() - started,
  };
}

/** `conformance selftest --mutants`: prints the mutants' verdicts and the score per service. */
export async function mutantsCommand(opts: MutantsOptions): Promise<number> {
  const log = (line: string) => {
    if (!opts.json) process.stdout.write(`${line}\n`);
  };
  if (opts.sample !== undefined && !(Number(opts.sample) > 0))
    throw new UsageError('--sample must be a positive number');
  const result = await runMutants(opts, log);
  if (opts.out) writeFileSync(opts.out, JSON.stringify(result, null, 2));
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    log('');
    const undetected = result.mutants.filter((m) => m.status === 'survived' || m.status === 'no-coverage');
    for (const m of undetected)
      log(`${m.status.padEnd(12)} ${m.file}:${m.line} ${m.mutator}: ${m.original} -> ${m.replacement}`);
    log('');
    for (const [g, s] of Object.entries(result.score))
      log(
        `${g.padEnd(24)} killed ${s.killed}, undetected ${s.undetected}, equivalent ${s.equivalent}${s.notRun ? `, not run ${s.notRun}` : ''}: score ${(s.score * 100).toFixed(1)}%`,
      );
    log(`time: ${(result.durationMs / 1000).toFixed(1)} s (coverage run ${(result.coverageMs / 1000).toFixed(1)} s)`);
  }
  return Object.values(result.score).some((s) => s.undetected > 0) ? 1 : 0;
}
