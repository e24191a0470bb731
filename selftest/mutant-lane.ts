// A lane of the mutation self-test (`conformance selftest-mutants-lane FILE`): in coverage mode,
// the unmutated instrumented reference against every spec file, one test at a time, recording
// which tests reach which mutant; in mutants mode, each job's mutant switched on against the
// tests that reach it, one job after another in one vitest worker (lane-worker.ts).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../contracts/services.ts';
import { loadRules } from '../contracts/catalog.ts';
import type { LaneFile } from './lane-pool.ts';
import { jobReport, projectRoot, runInOneWorker } from './lane-worker.ts';
import { fileKey } from './mutant-job.ts';
import type { SelftestJobSpec } from './selftest-job.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';

export interface MutantJob {
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

/** What a lane's file carries besides its jobs (none in coverage mode). */
export interface MutantLanePayload {
  mode: 'coverage' | 'mutants';
  instrumented: string;
  workDir: string;
  seed: number;
  runs: number;
  /** coverage: where the coverage goes. */
  coverageOut?: string;
  /** coverage: the spec files to run, one after another. */
  specFiles?: string[];
  services: ServiceName[];
}

export interface LaneResult {
  mutant: string;
  failed: string[];
  /** Rules whose reading did not hold (the reference gives none: the mutant took the other side). */
  warned?: string[];
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
  const lane = JSON.parse(readFileSync(file, 'utf8')) as LaneFile<MutantLanePayload, MutantJob>;
  const code = JSON.parse(readFileSync(lane.instrumented, 'utf8')) as Record<string, string>;
  const dir = join(lane.workDir, `lane-${lane.index}-specs`);
  mkdirSync(dir, { recursive: true });
  const jobModule = JSON.stringify(join(projectRoot, 'selftest/mutant-job.ts'));
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
    lane.jobs.forEach((job, i) => {
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
  let lastEnd = Date.now();
  const finish = (job: MutantJob, records: TestRecord[], errors: string[]) => {
    const report = jobReport(loadRules(job.services), records, { seed: lane.seed, errors, services: job.services });
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
      warned: report.rules.filter((x) => x.status === 'warning').map((x) => x.id),
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
  await runInOneWorker({
    files,
    jobOf,
    services: lane.services,
    // A test the job left out (skipped before it started) says nothing about the mutant.
    counts: (job, fullName) =>
      job.tests.includes(fullName) || job.whole.some((f) => fullName.startsWith(`${fileKey(f)} > `)),
    finish,
    unfinished: 'the mutant did not run to its end',
    // The coverage run runs one test at a time, so that the instrumented code's current test is exact.
    vitest:
      lane.mode === 'coverage'
        ? { sequence: { concurrent: false, sequencer: InOrder }, maxConcurrency: 1 }
        : { sequence: { sequencer: InOrder } },
    plugins: [instrumentedLoader(code)],
  });
}
