import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import type { ServiceName } from '../contracts/services.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { collectSuites, toRecord, vitestOptions, type TestRecord } from '../suites/engine/suite-runner.ts';
import { judgedRules } from '../suites/engine/checks/response-checks.ts';
import { ruleSelected } from '../suites/engine/rule-index.ts';
import { buildReport } from '../reporters/conformance-report.ts';
import { loadRules, type Rule } from '../contracts/catalog.ts';
import type { SelftestJobSpec } from './selftest-job.ts';
import { probesThrottling, referenceRunConfig } from './reference-config.ts';
import { resolveServices } from './rules-command.ts';
import { EXIT, runCommand } from './run-command.ts';
import { UsageError } from './usage-error.ts';

const launcher = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));

export type Verdict = 'killed' | 'killed-elsewhere' | 'survived' | 'error';

export interface SelftestRow {
  variant: string;
  service: ServiceName;
  expected: string[];
  verdict: Verdict;
  /** Rules that failed against the variant. */
  failed: string[];
  /** Rules that got a warning (a reading of ours did not hold) against the variant. */
  warned?: string[];
  durationMs: number;
  error?: string;
}

export interface SelftestResult {
  reference: { falseFailures: string[]; errors: string[]; durationMs: number };
  variants: SelftestRow[];
  score: number;
  durationMs: number;
}

interface Job {
  id: string;
  services: ServiceName[];
  faults: string[];
  rules: string[];
  options?: FaultVariant['options'];
  /** The spec files whose tests declare one of `rules` (none: every spec file of the services). */
  specFiles?: string[];
}

interface JobResult {
  id: string;
  failed: string[];
  warned?: string[];
  verdict?: 'passed' | 'failed';
  errors: string[];
  error?: string;
  durationMs: number;
}

/** Runs one job in this process: a reference with the job's faults, and a quiet run against it. */
async function runJob(job: Job, workDir: string, seed: number, runs: number): Promise<JobResult> {
  const started = Date.now();
  const dir = join(workDir, job.id);
  mkdirSync(dir, { recursive: true });
  let ref: Awaited<ReturnType<typeof startReference>> | undefined;
  try {
    ref = await startReference({
      port: 0,
      faults: job.faults,
      ...job.options,
    });
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
    const code = await runCommand({
      config,
      reportDir: dir,
      seed: String(seed),
      runs: String(runs),
      service: job.services,
      rule: job.rules.length ? job.rules : undefined,
      quiet: true,
      probeThrottling: probesThrottling(job.options),
    });
    // A run that ends with a verdict: passed, failed, or stopped early by the target (unresponsive).
    if (![EXIT.passed, EXIT.failed, EXIT.timedOut, EXIT.unresponsive, EXIT.staleBaseline].includes(code as never))
      return { id: job.id, failed: [], errors: [], error: `run exited ${code}`, durationMs: Date.now() - started };
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    return {
      id: job.id,
      failed: report.rules.filter((x) => x.status === 'failed').map((x) => x.id),
      warned: report.rules.filter((x) => x.status === 'warning').map((x) => x.id),
      verdict: report.verdict,
      errors: report.errors,
      durationMs: Date.now() - started,
    };
  } catch (e) {
    return { id: job.id, failed: [], errors: [], error: (e as Error).message, durationMs: Date.now() - started };
  } finally {
    await ref?.close();
  }
}

interface LaneFile {
  jobs: Job[];
  workDir: string;
  seed: number;
  runs: number;
  out: string;
  index: number;
}

/**
 * `conformance selftest-lane FILE`: runs a lane's jobs in one process. The reference job is a
 * whole `conformance run`, as a user would start it; the variants run in one vitest worker, one
 * generated spec file each, which starts the variant's deployment and imports the spec files
 * that declare its rules, so that the worker, the contracts' compiled schemas and the catalog
 * are loaded once per lane rather than once per variant.
 */
export async function selftestLaneCommand(file: string): Promise<void> {
  const lane = JSON.parse(readFileSync(file, 'utf8')) as LaneFile;
  const results: JobResult[] = [];
  const emit = (r: JobResult) => {
    results.push(r);
    writeFileSync(lane.out, JSON.stringify(results));
    process.stdout.write(`${JSON.stringify(r)}\n`);
  };
  for (const job of lane.jobs.filter((j) => j.faults.length === 0))
    emit(await runJob(job, lane.workDir, lane.seed, lane.runs));
  const variants = lane.jobs.filter((j) => j.faults.length > 0);
  if (variants.length) await runVariantsInOneWorker(lane, variants, emit);
}

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The report of one variant (or mutant) run inside a lane's worker, judged by the same
 * `buildReport` as a run; only its rule statuses, verdict and errors are read.
 */
export function variantReport(
  rules: Rule[],
  tests: TestRecord[],
  facts: { seed: number; errors: string[]; services: ServiceName[] },
): ConformanceReport {
  const now = new Date().toISOString();
  return buildReport(rules, tests, {
    toolVersion: '',
    target: '',
    embedded: true,
    startedAt: now,
    finishedAt: now,
    seed: facts.seed,
    options: {},
    interrupted: false,
    errors: facts.errors,
    services: facts.services,
    reportFile: '',
  });
}

/** Every spec file of a service, relative to the project root. */
export function serviceSpecFiles(service: ServiceName): string[] {
  return readdirSync(join(projectRoot, 'suites', service))
    .filter((f) => f.endsWith('.spec.ts'))
    .map((f) => `suites/${service}/${f}`)
    .sort();
}

/** The generated spec file of one variant. */
function variantSpecSource(job: Job, index: number, lane: LaneFile, last: boolean): string {
  const specs = job.specFiles ?? job.services.flatMap(serviceSpecFiles);
  const spec: SelftestJobSpec = {
    id: job.id,
    faults: job.faults,
    rules: job.rules,
    services: job.services,
    options: job.options,
    seed: lane.seed,
    runs: lane.runs,
    index,
  };
  const jobModule = JSON.stringify(join(projectRoot, 'cli/selftest-job.ts'));
  return [
    `import { afterAll } from 'vitest';`,
    `import { beginSelftestJob, endSelftestJobs } from ${jobModule};`,
    `await beginSelftestJob(${JSON.stringify(spec)});`,
    // A query makes each variant's import a fresh instance of the spec file, whose tests register here.
    ...specs.map((f) => `await import(${JSON.stringify(`${join(projectRoot, f)}?variant=${index}`)});`),
    last ? 'afterAll(endSelftestJobs);' : '',
    '',
  ].join('\n');
}

async function runVariantsInOneWorker(lane: LaneFile, jobs: Job[], emit: (r: JobResult) => void): Promise<void> {
  const dir = join(lane.workDir, `lane-${lane.index}-specs`);
  mkdirSync(dir, { recursive: true });
  const fileOf = new Map<string, Job>();
  jobs.forEach((job, i) => {
    const f = join(dir, `${String(i).padStart(4, '0')}.spec.ts`);
    writeFileSync(f, variantSpecSource(job, i, lane, i === jobs.length - 1));
    fileOf.set(f, job);
  });
  const records = new Map<Job, TestRecord[]>();
  const done = new Set<Job>();
  // Variants run one after another: each one's time is from the end of the one before.
  let lastEnd = Date.now();
  const finish = (job: Job, errors: string[]) => {
    if (done.has(job)) return;
    done.add(job);
    const rules = loadRules(job.services).filter((r) => ruleSelected(r.id, job.rules));
    const report = variantReport(rules, records.get(job) ?? [], { seed: lane.seed, errors, services: job.services });
    emit({
      id: job.id,
      failed: report.rules.filter((x) => x.status === 'failed').map((x) => x.id),
      warned: report.rules.filter((x) => x.status === 'warning').map((x) => x.id),
      verdict: report.verdict,
      errors: report.errors,
      durationMs: Date.now() - lastEnd,
    });
    lastEnd = Date.now();
  };
  const collector = {
    onTestCaseResult(tc: { module: { moduleId: string } }) {
      const job = fileOf.get(tc.module.moduleId);
      const rec = toRecord(tc);
      if (job && rec) (records.get(job) ?? records.set(job, []).get(job)!).push(rec);
    },
    onTestModuleEnd(module: { moduleId: string; errors(): Array<{ message?: string }> }) {
      const job = fileOf.get(module.moduleId);
      if (job)
        finish(
          job,
          module.errors().map((e) => e.message ?? JSON.stringify(e)),
        );
    },
  };
  const placeholder: RunContext = { ...collectContext(jobs[0].services), fresh: true };
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', {
    ...vitestOptions(placeholder, [], [collector]),
    include: [...fileOf.keys()],
  });
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  for (const job of jobs) if (!done.has(job)) finish(job, ['the variant did not run to its end']);
}

/** Runs jobs on `width` lanes (child processes), each taking jobs in turn; reports each result as it comes. */
async function runLanes(
  jobs: Job[],
  width: number,
  workDir: string,
  seed: number,
  runs: number,
  onResult: (r: JobResult) => void,
): Promise<JobResult[]> {
  const lanes: Job[][] = Array.from({ length: Math.min(width, jobs.length) }, () => []);
  jobs.forEach((j, i) => lanes[i % lanes.length].push(j));
  const all: JobResult[] = [];
  await Promise.all(
    lanes.map(
      (laneJobs, i) =>
        new Promise<void>((resolve) => {
          const file = join(workDir, `lane-${i}.json`);
          const out = join(workDir, `lane-${i}-results.json`);
          writeFileSync(
            file,
            JSON.stringify({ jobs: laneJobs, workDir, seed, runs, out, index: i } satisfies LaneFile),
          );
          const child = spawn(process.execPath, [launcher, 'selftest-lane', file], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let buffer = '';
          let stderr = '';
          const seen = new Set<string>();
          child.stdout.on('data', (d) => {
            buffer += d;
            let nl: number;
            while ((nl = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              try {
                const r = JSON.parse(line) as JobResult;
                seen.add(r.id);
                all.push(r);
                onResult(r);
              } catch {
                // not a result line
              }
            }
          });
          child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
          child.on('close', (code) => {
            for (const j of laneJobs) {
              if (!seen.has(j.id)) {
                const r: JobResult = {
                  id: j.id,
                  failed: [],
                  errors: [],
                  error: `lane ended (exit ${code}) before this job: ${stderr.slice(-400)}`,
                  durationMs: 0,
                };
                all.push(r);
                onResult(r);
              }
            }
            resolve();
          });
        }),
    ),
  );
  return all;
}

export interface SelftestOptions {
  faults?: string[];
  service?: string[];
  json?: boolean;
  parallel?: string;
  runs?: string;
  seed?: string;
  keep?: boolean;
}

/** Which spec files hold a test declaring each rule (collected once, without sending anything). */
export function collectContext(services: ServiceName[]): RunContext {
  return {
    config: { target: 'http://127.0.0.1:0' },
    seed: 1,
    runs: 1,
    timeoutMs: 1000,
    maxBodyBytes: 1024,
    rate: 0,
    concurrency: 4,
    runId: 'collect',
    prefix: 'cfzcollect',
    ruleGlobs: [],
    profile: 'full',
    services,
  };
}

export async function specFilesByRule(services: ServiceName[]): Promise<Map<string, Set<string>>> {
  const context = collectContext(services);
  const byRule = new Map<string, Set<string>>();
  for (const t of await collectSuites(context, services))
    for (const r of judgedRules(t.service, t.rules)) (byRule.get(r) ?? byRule.set(r, new Set()).get(r)!).add(t.file);
  return byRule;
}

/** The spec files a variant's run needs: those declaring one of its rules (undefined when none does). */
export function specFilesFor(byRule: Map<string, Set<string>>, rules: string[]): string[] | undefined {
  const files = new Set(rules.flatMap((r) => [...(byRule.get(r) ?? [])]));
  return files.size ? [...files].sort() : undefined;
}

/** `conformance selftest`: the suite against the reference and every fault variant. */
export async function selftestCommand(opts: SelftestOptions): Promise<number> {
  const services = resolveServices(opts.service);
  const globs = (opts.faults ?? []).flatMap((g) => g.split(',')).filter(Boolean);
  const all = (await loadFaults()).filter((f) => services.includes(f.service));
  const variants = globs.length ? all.filter((f) => globs.some((g) => picomatch.isMatch(f.id, g) || f.id === g)) : all;
  if (globs.length && !variants.length) throw new UsageError(`--faults ${globs.join(' ')} matches no fault variant`);
  const width = Math.max(1, Number(opts.parallel ?? availableParallelism()));
  const runs = Number(opts.runs ?? 10);
  const seed = Number(opts.seed ?? 1);
  const workDir = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const started = Date.now();
  const log = (line: string) => {
    if (!opts.json) process.stdout.write(`${line}\n`);
  };
  log(`selftest: reference + ${variants.length} fault variants, ${width} at a time (seed ${seed}, runs ${runs})`);
  const filesOf = await specFilesByRule(services);
  const jobs: Job[] = [
    { id: 'reference', services, faults: [], rules: [] },
    ...variants.map((v) => ({
      id: v.id,
      services: [v.service],
      faults: [v.id],
      rules: v.breaks,
      options: v.options,
      specFiles: specFilesFor(filesOf, v.breaks),
    })),
  ];
  let done = 0;
  const results = await runLanes(jobs, width, workDir, seed, runs, (r) => {
    done++;
    log(
      `  [${done}/${jobs.length}] ${r.id}: ${r.error ? `error: ${r.error.split('\n')[0]}` : r.failed.length ? `failed ${r.failed.join(', ')}` : 'no failure'} (${(r.durationMs / 1000).toFixed(1)} s)`,
    );
  });
  const byId = new Map(results.map((r) => [r.id, r]));
  const ref = byId.get('reference')!;
  const rows: SelftestRow[] = variants.map((v) => {
    const r = byId.get(v.id)!;
    const verdict: Verdict = r.error
      ? 'error'
      : r.failed.some((id) => v.breaks.includes(id)) ||
          // A variant that only breaks a reading of ours is detected by a warning of its rule.
          (v.reading && (r.warned ?? []).some((id) => v.breaks.includes(id)))
        ? 'killed'
        : r.verdict === 'failed'
          ? 'killed-elsewhere'
          : 'survived';
    return {
      variant: v.id,
      service: v.service,
      expected: v.breaks,
      verdict,
      failed: r.failed,
      warned: r.warned,
      durationMs: r.durationMs,
      error: r.error,
    };
  });
  const killed = rows.filter((r) => r.verdict === 'killed').length;
  const result: SelftestResult = {
    reference: { falseFailures: ref.failed, errors: ref.error ? [ref.error] : ref.errors, durationMs: ref.durationMs },
    variants: rows,
    score: rows.length ? killed / rows.length : 1,
    durationMs: Date.now() - started,
  };
  if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    log('');
    log(`${'variant'.padEnd(48)} ${'verdict'.padEnd(17)} failed rules`);
    for (const r of rows)
      log(
        `${r.variant.padEnd(48)} ${r.verdict.padEnd(17)} ${r.error ? r.error.split('\n')[0] : r.failed.join(', ') || '-'}`,
      );
    log('');
    log(
      `reference: ${result.reference.falseFailures.length} false failures${result.reference.falseFailures.length ? ` (${result.reference.falseFailures.join(', ')})` : ''}${result.reference.errors.length ? `, errors: ${result.reference.errors.join('; ')}` : ''}`,
    );
    log(
      `mutation score: ${killed}/${rows.length} = ${(result.score * 100).toFixed(1)}%   time: ${(result.durationMs / 1000).toFixed(1)} s`,
    );
  }
  const bad =
    rows.some((r) => r.verdict !== 'killed') ||
    result.reference.falseFailures.length > 0 ||
    result.reference.errors.length > 0;
  return bad ? 1 : 0;
}

/** `conformance faults`: the variants and the rules each must make fail. */
export async function faultsCommand(opts: { json?: boolean }): Promise<void> {
  const faults = await loadFaults();
  if (opts.json) {
    // Seams are code (functions, patterns): the listing names what each variant breaks.
    const listed = faults.map(({ seams: _seams, ...fault }) => fault);
    process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    return;
  }
  for (const f of faults)
    process.stdout.write(`${f.id}  [${f.service}]\n    ${f.description}\n    breaks: ${f.breaks.join(', ')}\n`);
  process.stdout.write(`\n${faults.length} fault variants\n`);
}
