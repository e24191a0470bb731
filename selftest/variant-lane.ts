// A lane of the fault-variant self-test (`conformance selftest-lane FILE`): the reference job is
// a whole `conformance run`, as a user would start it; the variants run in one vitest worker, one
// generated spec file each, which starts the variant's deployment with its faults and imports the
// spec files that declare its rules.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../contracts/services.ts';
import { loadRules } from '../contracts/catalog.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { ruleSelected } from '../suites/engine/rule-index.ts';
import { probesThrottling, referenceRunConfig } from '../cli/reference-config.ts';
import { EXIT, runCommand } from '../cli/run-command.ts';
import type { LaneFile } from './lane-pool.ts';
import { jobReport, projectRoot, runInOneWorker, serviceSpecFiles } from './lane-worker.ts';
import type { SelftestJobSpec } from './selftest-job.ts';

/** One job of the self-test: the reference (no faults) or one fault variant. */
export interface VariantJob {
  id: string;
  services: ServiceName[];
  faults: string[];
  rules: string[];
  options?: FaultVariant['options'];
  /** The spec files whose tests declare one of `rules` (none: every spec file of the services). */
  specFiles?: string[];
}

/** What a lane prints for each job. */
export interface VariantResult {
  id: string;
  failed: string[];
  warned?: string[];
  verdict?: 'passed' | 'failed';
  errors: string[];
  error?: string;
  durationMs: number;
}

/** What a lane's file carries besides its jobs. */
export interface VariantLanePayload {
  workDir: string;
  seed: number;
  runs: number;
}

type Lane = LaneFile<VariantLanePayload, VariantJob>;

/** `conformance selftest-lane FILE`: runs a lane's jobs in this process, printing each result. */
export async function selftestLaneCommand(file: string): Promise<void> {
  const lane = JSON.parse(readFileSync(file, 'utf8')) as Lane;
  const results: VariantResult[] = [];
  const emit = (r: VariantResult) => {
    results.push(r);
    writeFileSync(lane.out, JSON.stringify(results));
    process.stdout.write(`${JSON.stringify(r)}\n`);
  };
  for (const job of lane.jobs.filter((j) => j.faults.length === 0)) emit(await runWhole(job, lane));
  const variants = lane.jobs.filter((j) => j.faults.length > 0);
  if (variants.length) await runVariantsInOneWorker(lane, variants, emit);
}

/** Runs one job as a user would: a reference with the job's faults, and a quiet run against it. */
async function runWhole(job: VariantJob, lane: Lane): Promise<VariantResult> {
  const started = Date.now();
  const dir = join(lane.workDir, job.id);
  mkdirSync(dir, { recursive: true });
  let ref: Awaited<ReturnType<typeof startReference>> | undefined;
  try {
    ref = await startReference({ port: 0, faults: job.faults, ...job.options });
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
    const code = await runCommand({
      config,
      reportDir: dir,
      seed: String(lane.seed),
      runs: String(lane.runs),
      service: job.services,
      rule: job.rules.length ? job.rules : undefined,
      quiet: true,
      probeThrottling: probesThrottling(job.options),
    });
    // A run that ends with a verdict: passed, failed, or stopped early by the target (unresponsive).
    if (![EXIT.passed, EXIT.failed, EXIT.timedOut, EXIT.unresponsive, EXIT.staleBaseline].includes(code as never))
      return { id: job.id, failed: [], errors: [], error: `run exited ${code}`, durationMs: Date.now() - started };
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    return { id: job.id, ...verdictOf(report), durationMs: Date.now() - started };
  } catch (e) {
    return { id: job.id, failed: [], errors: [], error: (e as Error).message, durationMs: Date.now() - started };
  } finally {
    await ref?.close();
  }
}

/** What a job's report says: its failed and warned rules, its verdict and errors. */
function verdictOf(report: ConformanceReport): Omit<VariantResult, 'id' | 'durationMs'> {
  return {
    failed: report.rules.filter((x) => x.status === 'failed').map((x) => x.id),
    warned: report.rules.filter((x) => x.status === 'warning').map((x) => x.id),
    verdict: report.verdict,
    errors: report.errors,
  };
}

/** The generated spec file of one variant. */
function variantSpecSource(job: VariantJob, index: number, lane: Lane, last: boolean): string {
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
  const jobModule = JSON.stringify(join(projectRoot, 'selftest/selftest-job.ts'));
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

async function runVariantsInOneWorker(lane: Lane, jobs: VariantJob[], emit: (r: VariantResult) => void): Promise<void> {
  const dir = join(lane.workDir, `lane-${lane.index}-specs`);
  mkdirSync(dir, { recursive: true });
  const jobOf = new Map<string, VariantJob>();
  jobs.forEach((job, i) => {
    const f = join(dir, `${String(i).padStart(4, '0')}.spec.ts`);
    writeFileSync(f, variantSpecSource(job, i, lane, i === jobs.length - 1));
    jobOf.set(f, job);
  });
  // Variants run one after another: each one's time is from the end of the one before.
  let lastEnd = Date.now();
  await runInOneWorker({
    files: [...jobOf.keys()],
    jobOf,
    services: jobs[0].services,
    unfinished: 'the variant did not run to its end',
    finish: (job, records, errors) => {
      const rules = loadRules(job.services).filter((r) => ruleSelected(r.id, job.rules));
      const report = jobReport(rules, records, { seed: lane.seed, errors, services: job.services });
      emit({ id: job.id, ...verdictOf(report), durationMs: Date.now() - lastEnd });
      lastEnd = Date.now();
    },
  });
}
