// Inside a lane: its generated spec files (one per job, each starting the job's deployment and
// importing the suites' spec files it needs) run in one vitest worker, so that the worker, the
// contracts' compiled schemas and the catalog load once per lane rather than once per job. The
// test records of each file are judged, when the file ends, by the same `buildReport` as a run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceName } from '../contracts/services.ts';
import type { Rule } from '../contracts/catalog.ts';
import { buildReport, type ConformanceReport } from '../reporters/conformance-report.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { collectSuites, toRecord, vitestOptions, type TestRecord } from '../suites/engine/suite-runner.ts';
import { judgedRules } from '../suites/engine/checks/response-checks.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** A context for collecting (or hosting) the suites' tests without a target of its own. */
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

/** Which spec files hold a test declaring each rule (collected once, without sending anything). */
export async function specFilesByRule(services: ServiceName[]): Promise<Map<string, Set<string>>> {
  const byRule = new Map<string, Set<string>>();
  for (const t of await collectSuites(collectContext(services), services))
    for (const r of judgedRules(t.service, t.rules)) (byRule.get(r) ?? byRule.set(r, new Set()).get(r)!).add(t.file);
  return byRule;
}

/** The spec files a job needs: those declaring one of its rules (undefined when none does). */
export function specFilesFor(byRule: Map<string, Set<string>>, rules: string[]): string[] | undefined {
  const files = new Set(rules.flatMap((r) => [...(byRule.get(r) ?? [])]));
  return files.size ? [...files].sort() : undefined;
}

/** Every spec file of a service, relative to the project root. */
export function serviceSpecFiles(service: ServiceName): string[] {
  return readdirSync(join(projectRoot, 'suites', service))
    .filter((f) => f.endsWith('.spec.ts'))
    .map((f) => `suites/${service}/${f}`)
    .sort();
}

/**
 * The report of one job (a variant or a mutant) run inside a lane's worker, judged by the same
 * `buildReport` as a run; only its rule statuses, verdict and errors are read.
 */
export function jobReport(
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

export interface WorkerOptions<J> {
  /** The generated spec files in their order, and the job each one is (none: a file of no job). */
  files: string[];
  jobOf: Map<string, J>;
  services: ServiceName[];
  /** Whether a test's record counts for its job (default: every test). */
  counts?: (job: J, fullName: string) => boolean;
  /** Called once per job, when its file ends (or after the worker, for a file that never ended). */
  finish: (job: J, records: TestRecord[], errors: string[]) => void;
  /** The error of a job whose file never ended. */
  unfinished: string;
  /** vitest options over the run's own (sequence, maxConcurrency) and vite plugins. */
  vitest?: Record<string, unknown>;
  plugins?: unknown[];
}

/** Runs the generated spec files in one vitest worker, finishing each job as its file ends. */
export async function runInOneWorker<J>(o: WorkerOptions<J>): Promise<void> {
  const records = new Map<J, TestRecord[]>();
  const done = new Set<J>();
  const finish = (job: J, errors: string[]) => {
    if (done.has(job)) return;
    done.add(job);
    o.finish(job, records.get(job) ?? [], errors);
  };
  const collector = {
    onTestCaseResult(tc: { module: { moduleId: string }; fullName: string }) {
      const job = o.jobOf.get(tc.module.moduleId);
      const rec = toRecord(tc);
      // A test the job left out (skipped before it started) says nothing about the job.
      if (job !== undefined && rec && (o.counts?.(job, tc.fullName) ?? true))
        (records.get(job) ?? records.set(job, []).get(job)!).push(rec);
    },
    onTestModuleEnd(module: { moduleId: string; errors(): Array<{ message?: string }> }) {
      const job = o.jobOf.get(module.moduleId);
      if (job !== undefined)
        finish(
          job,
          module.errors().map((e) => e.message ?? JSON.stringify(e)),
        );
    },
  };
  const placeholder: RunContext = { ...collectContext(o.services), fresh: true };
  const base = vitestOptions(placeholder, [], [collector]);
  const { createVitest } = await import('vitest/node');
  const extra = o.vitest ?? {};
  const vitest = await createVitest(
    'test',
    {
      ...base,
      ...extra,
      include: o.files,
      ...(extra.sequence ? { sequence: { ...(base.sequence as object), ...extra.sequence } } : {}),
    },
    o.plugins ? { plugins: o.plugins as never } : undefined,
  );
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  for (const job of o.jobOf.values()) if (!done.has(job)) finish(job, [o.unfinished]);
}
