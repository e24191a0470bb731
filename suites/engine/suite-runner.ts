import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { Writable } from 'node:stream';
import type { ServiceName } from '../../contracts/services.ts';
import type { RunState } from './run-state.ts';
import type { RunContext } from './run-context.ts';
import type { ConfigNeed } from './config-needs.ts';
import type { RuleOutcome, RuleTestMeta } from './rule-test.ts';
import { testSelected } from './test-selection.ts';
import { ruleSelected } from './rule-index.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The result of one conformance test, as the reporters see it. */
export interface TestRecord {
  file: string;
  name: string;
  service: ServiceName;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  durationMs: number;
  /** When the test started (ms since the epoch), for the report's time line; absent when it never ran. */
  startedAt?: number;
  rules: string[];
  outcomes: Record<string, RuleOutcome>;
  budget: number;
  readOnly: boolean;
  /** The pieces of the configuration the test declares it needs. */
  needs?: ConfigNeed[];
  errors: string[];
}

export interface SuiteRunResult {
  tests: TestRecord[];
  interrupted: boolean;
  /** Errors outside tests (a suite file that could not be loaded, a hook that threw). */
  unhandledErrors: string[];
  /** What the worker handed back at the end of the suites (undefined: the file never ended). */
  state?: RunState;
}

/** One selected test's end, with the run's overall counters (never past their totals). */
export interface ProgressEvent {
  service: ServiceName;
  /** Tests of the service ended, of the service's selected tests. */
  testsDone: number;
  testsTotal: number;
  /** Tests of the run ended, of all its selected tests. */
  done: number;
  total: number;
  failedRules: number;
  /** Rules that failed for the first time in this test. */
  newlyFailed: string[];
  test: TestRecord;
}

/**
 * A run keeps the suites' transformed modules on disk (vitest's file-system module cache, keyed by
 * each file's content): a run's start-up costs about a quarter less CPU (2.1 s → 1.5 s user for
 * `run --dry-run`). Left out where a plugin changes the code a file yields (the mutation lanes),
 * and where the package's folder cannot be written (an install owned by another user): vitest
 * would stop on it.
 */
function cachedTransforms(): Record<string, unknown> {
  const path = join(projectRoot, 'node_modules', '.experimental-vitest-cache');
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
    return { experimental: { fsModuleCache: true, fsModuleCachePath: path } };
  } catch {
    return {};
  }
}

/** Keeps each run's generated file (a new temporary path every run) out of that cache. */
function uncachedRunFiles(dir: string) {
  return {
    name: 'conformance-run-file-uncached',
    configureVitest(ctx: {
      experimental_defineCacheKeyGenerator: (generate: (c: { id: string }) => string | false | undefined) => void;
    }) {
      ctx.experimental_defineCacheKeyGenerator(({ id }) => (id.startsWith(dir) ? false : undefined));
    },
  };
}

/** The vitest configuration of a conformance run: one worker, so limits, tokens and ledger are shared. */
export function vitestOptions(
  context: RunContext,
  services: readonly ServiceName[],
  reporters: unknown[],
): Record<string, unknown> {
  return {
    config: false,
    root: projectRoot,
    include: services.map((s) => `suites/${s}/**/*.spec.ts`),
    watch: false,
    reporters,
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    sequence: { concurrent: context.concurrency > 1 },
    maxConcurrency: context.concurrency,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    provide: { runContext: context },
    setupFiles: [join(projectRoot, 'suites/engine/worker-setup.ts')],
    passWithNoTests: true,
    silent: true,
  };
}

/** The record of one finished vitest test case, when it is a conformance test. */
export function toRecord(tc: any): TestRecord | undefined {
  const meta = tc.meta()?.conformance as RuleTestMeta | undefined;
  if (!meta) return undefined;
  const result = tc.result();
  const diag = tc.diagnostic?.();
  const { file, name } = locate(tc);
  return {
    file,
    name,
    service: meta.service,
    state: result.state,
    durationMs: Math.round(diag?.duration ?? 0),
    ...(typeof diag?.startTime === 'number' && diag.startTime > 0 ? { startedAt: Math.round(diag.startTime) } : {}),
    rules: meta.rules,
    outcomes: meta.outcomes ?? {},
    budget: meta.budget,
    readOnly: meta.readOnly,
    needs: meta.needs ?? [],
    errors: (result.errors ?? []).map((e: { message?: string }) => e.message ?? JSON.stringify(e)),
  };
}

/**
 * vitest's console, passed on to ours but not a terminal: on a terminal vitest hides the cursor
 * and shows it again, escape sequences the console guard would print as text over the run's
 * status line.
 */
function vitestStreams(): { stdout: Writable; stderr: Writable } {
  const forward = (stream: NodeJS.WriteStream) =>
    new Writable({
      write(chunk, _encoding, done) {
        stream.write(chunk);
        done();
      },
    });
  return { stdout: forward(process.stdout), stderr: forward(process.stderr) };
}

/** The describe block a run's generated file wraps each spec file in: `spec:<file>`. */
export const SPEC_SUITE = 'spec:';

/** The spec file and name of a test, also when it ran inside the run's generated file. */
function locate(tc: any): { file: string; name: string } {
  const full: string = tc.fullName ?? tc.name;
  if (full.startsWith(SPEC_SUITE)) {
    const at = full.indexOf(' > ');
    return { file: full.slice(SPEC_SUITE.length, at), name: full.slice(at + 3) };
  }
  return { file: relative(projectRoot, tc.module.moduleId), name: full };
}

/** Every spec file of the services, relative to the project root. */
export function specFiles(services: readonly ServiceName[]): string[] {
  return services.flatMap((s) =>
    readdirSync(join(projectRoot, 'suites', s))
      .filter((f) => f.endsWith('.spec.ts'))
      .sort()
      .map((f) => `suites/${s}/${f}`),
  );
}

/**
 * One generated test file that imports every spec file of the run, each in a suite of its own:
 * vitest runs one file's tests concurrently, so tests of different files share the run's
 * request slots instead of waiting for each other's file to end. Each spec file's own hooks
 * stay with its suite.
 */
function runFile(services: readonly ServiceName[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const file = join(dir, 'run.spec.ts');
  const lines = ["import { describe } from 'vitest';"];
  for (const f of specFiles(services))
    lines.push(
      `describe(${JSON.stringify(SPEC_SUITE + f)}, async () => { await import(${JSON.stringify(join(projectRoot, f))}); });`,
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

/**
 * Makes vitest without the SIGINT and SIGTERM handlers its logger adds while it is made: they end
 * the process at once, and a signal in that window would leave no report. The run's own handlers
 * stop it instead (cleanup, then the report).
 */
async function withoutExitOnSignal<T>(make: () => Promise<T>): Promise<T> {
  // Put back as it was (the same function), so it is kept unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const once = process.once;
  process.once = function (this: NodeJS.Process, event: string | symbol, listener: (...args: any[]) => void) {
    if (event === 'SIGINT' || event === 'SIGTERM') return this;
    return once.call(this, event, listener);
  } as typeof process.once;
  try {
    return await make();
  } finally {
    process.once = once;
  }
}

/**
 * Runs the conformance suites of the given services in one vitest worker (so that the rate
 * limit, the token cache and the ledger are shared), and collects each test's rule outcomes.
 */
export async function runSuites(
  context: RunContext,
  services: readonly ServiceName[],
  hooks: {
    onProgress?: (e: ProgressEvent) => void;
    signal?: AbortSignal;
    /** What must be done before the first test starts (the readiness checks): awaited once vitest is made. */
    ready?: Promise<void>;
    /** vitest reporters of the run's own outputs besides the collector (Allure's). */
    reporters?: unknown[];
  } = {},
): Promise<SuiteRunResult> {
  const { createVitest } = await import('vitest/node');
  const tests: TestRecord[] = [];
  const unhandledErrors: string[] = [];
  const totals = new Map<ServiceName, number>();
  const done = new Map<ServiceName, number>();
  const counted = new Set<string>();
  const reported = new Set<string>();
  const failedRules = new Set<string>();
  let interrupted = false;
  let state: RunState | undefined;
  let cancel: (() => void) | undefined;
  // Only the tests the run executes are counted and reported: `--rule`, `--shard` and the
  // read-only profile skip the others inside the test (their outcomes still reach the report).
  const selected = (tc: any, meta: RuleTestMeta) => testSelected(context, { ...meta, name: tc.name });
  const collector = {
    onTestModuleCollected(module: any) {
      for (const tc of module.children.allTests()) {
        const meta = tc.meta()?.conformance as RuleTestMeta | undefined;
        if (!meta || !selected(tc, meta) || counted.has(tc.id)) continue;
        counted.add(tc.id);
        totals.set(meta.service, (totals.get(meta.service) ?? 0) + 1);
      }
    },
    onTestCaseResult(tc: any) {
      const rec = toRecord(tc);
      // A test is recorded once, however often vitest reports it (a cancelled run reports again).
      if (!rec || reported.has(tc.id)) return;
      reported.add(tc.id);
      tests.push(rec);
      // The console counts and shows the selected rules only: a test run for a selected rule's
      // after-every-request check still judges its own rules, which --rule left out.
      const newlyFailed: string[] = [];
      let failedSelected = false;
      for (const [id, o] of Object.entries(rec.outcomes)) {
        if (o.status !== 'failed' || !ruleSelected(id, context.ruleGlobs)) continue;
        failedSelected = true;
        if (!failedRules.has(id)) {
          failedRules.add(id);
          newlyFailed.push(id);
        }
      }
      // The target stopped answering (rule-test.ts): the files left are not started at all.
      if (Object.values(rec.outcomes).some((o) => o.reasonCode === 'target-unresponsive')) cancel?.();
      if (!counted.has(tc.id)) return;
      done.set(rec.service, (done.get(rec.service) ?? 0) + 1);
      const sum = (m: Map<ServiceName, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      hooks.onProgress?.({
        service: rec.service,
        testsDone: done.get(rec.service) ?? 0,
        testsTotal: totals.get(rec.service) ?? 0,
        done: sum(done),
        total: sum(totals),
        failedRules: failedRules.size,
        newlyFailed,
        // Failed on rules --rule did not select only: passed, as far as the selection goes.
        test:
          rec.state === 'failed' && !failedSelected && Object.values(rec.outcomes).some((o) => o.status === 'failed')
            ? { ...rec, state: 'passed' }
            : rec,
      });
    },
    onTestModuleEnd(module: any) {
      state = (module.meta() as { runState?: RunState }).runState ?? state;
    },
    onUnhandledError(error: { message?: string }) {
      unhandledErrors.push(error?.message ?? JSON.stringify(error));
    },
  };
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const reporters = [collector, ...(hooks.reporters ?? [])];
  const generated = runFile(services);
  const vitest = await withoutExitOnSignal(() =>
    createVitest(
      'test',
      {
        ...vitestOptions(context, services, reporters),
        include: [generated.file],
        provide: { runContext: context, sweepAtSetup: true },
        ...cachedTransforms(),
        // Four times as many tests under way as request slots: a slot freed by one test's answer is
        // taken by another while the first works out its next request, and the slots go first to the
        // tests that have sent the most (`HttpRequest.priority`), so that long chains started early
        // keep going and the short tests fill the slots around them.
        maxConcurrency: context.concurrency * 4,
      },
      { plugins: [uncachedRunFiles(generated.dir)] },
      vitestStreams(),
    ),
  );
  // vitest's logger exits the process on SIGINT/SIGTERM; the run must instead stop its tests,
  // clean up what they created and write a partial report, so those handlers are taken off.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
  }
  const onAbort = () => {
    interrupted = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  cancel = () => {
    cancel = undefined;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  hooks.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Stopped (a signal, --max-time) while vitest was starting: no test is started.
    await hooks.ready;
    // createVitest took a copy of the context it was given; the readiness checks (hooks.ready) may
    // have finished after that, so the tests get the context as it stands now, the pieces found not
    // ready included: without them, a test needing a fixture the target does not hold would run.
    vitest.provide('runContext', context);
    if (hooks.signal?.aborted) interrupted = true;
    else await vitest.start();
    for (const e of (vitest.state as any).getUnhandledErrors?.() ?? []) unhandledErrors.push(String(e?.message ?? e));
    for (const f of (vitest.state as any).getFiles?.() ?? []) {
      if (f.result?.state === 'fail' && f.result.errors?.length) {
        for (const e of f.result.errors)
          unhandledErrors.push(`${relative(projectRoot, f.filepath)}: ${e.message ?? e}`);
      }
    }
  } finally {
    hooks.signal?.removeEventListener('abort', onAbort);
    await vitest.close();
    rmSync(generated.dir, { recursive: true, force: true });
  }
  return { tests, interrupted, unhandledErrors, state };
}

/** The tests a run would execute, with their rules and request budgets, without sending anything. */
export async function collectSuites(context: RunContext, services: readonly ServiceName[]): Promise<TestRecord[]> {
  const { createVitest } = await import('vitest/node');
  const vitest = await withoutExitOnSignal(() =>
    createVitest('test', { ...vitestOptions(context, services, [{}]), ...cachedTransforms() }, {}, vitestStreams()),
  );
  try {
    const result = await vitest.collect();
    const out: TestRecord[] = [];
    for (const m of result.testModules) {
      for (const tc of m.children.allTests()) {
        const meta = tc.meta()?.conformance;
        if (!meta) continue;
        const perRun = (tc.meta() as { budgetPerRun?: number }).budgetPerRun ?? 0;
        out.push({
          file: relative(projectRoot, m.moduleId),
          name: tc.fullName,
          service: meta.service,
          state: 'pending',
          durationMs: 0,
          rules: meta.rules,
          outcomes: {},
          budget: meta.budget + perRun * context.runs,
          readOnly: meta.readOnly,
          needs: meta.needs ?? [],
          errors: [],
        });
      }
    }
    return out;
  } finally {
    await vitest.close();
  }
}
