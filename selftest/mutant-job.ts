// Runs inside the mutation self-test's vitest worker, where the reference deployment's modules are
// served instrumented with mutant schemata (see instrument.ts and mutant-lane.ts). Each generated spec file calls
// one of these before importing the suites' spec files it needs: the mutant is switched on through
// the instrumented code's own global namespace, much as a fault variant is switched on.
import { appendFileSync, writeFileSync } from 'node:fs';
import { beginSelftestJob, endSelftestJobs, type SelftestJobSpec } from './selftest-job.ts';

/** The global namespace the instrumented code reads (`globalThis.__stryker__`). */
interface MutantNamespace {
  activeMutant?: string;
  currentTestId?: string;
  hitCount?: number;
  hitLimit?: number;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

function namespace(): MutantNamespace {
  const g = globalThis as { __stryker__?: MutantNamespace };
  return (g.__stryker__ ??= {});
}

/** The mutants reached while the reference's modules were loaded (before any deployment started). */
let loadCoverage: string[] | undefined;

/**
 * The coverage key of a spec file: what the instrumented code reaches while none of the file's
 * tests runs (its hooks, a sweep after its last test) is counted under it.
 */
export const fileKey = (specFile: string): string => `spec:${specFile}`;

/**
 * Coverage run: starts a clean deployment and attributes what the next spec file reaches outside
 * its tests to the file itself (its tests set their own key, see beginCoverageTest).
 */
export async function beginCoverageFile(spec: SelftestJobSpec, specFile: string): Promise<void> {
  const ns = namespace();
  loadCoverage ??= Object.keys(ns.mutantCoverage?.static ?? {});
  ns.activeMutant = undefined;
  ns.currentTestId = undefined;
  await beginSelftestJob(spec);
  ns.currentTestId = fileKey(specFile);
}

/**
 * Coverage run: what the instrumented code reaches from here to the test's end counts for the test
 * (`key` is its full name, `spec:FILE > …`). The coverage run runs one test at a time, so the
 * global namespace names exactly one test.
 */
export function beginCoverageTest(key: string): void {
  namespace().currentTestId = key;
}

/** Coverage run: after a test, what is reached counts for its file again. */
export function endCoverageTest(specFile: string): void {
  namespace().currentTestId = fileKey(specFile);
}

/** Coverage run: writes what each spec file reached, what deployment start-up reached, and what loading did. */
export async function endCoverage(out: string): Promise<void> {
  const ns = namespace();
  ns.currentTestId = undefined;
  await endSelftestJobs();
  const coverage = ns.mutantCoverage ?? { static: {}, perTest: {} };
  writeFileSync(out, JSON.stringify({ load: loadCoverage ?? [], static: coverage.static, perTest: coverage.perTest }));
}

/** Mutant run: stops the previous deployment, switches `mutant` on and starts a deployment with it. */
export async function beginMutantJob(spec: SelftestJobSpec, mutant: string, hitLimit: number): Promise<void> {
  const ns = namespace();
  ns.activeMutant = undefined;
  ns.hitCount = undefined;
  await endSelftestJobs();
  killed = false;
  leftOut = 0;
  ns.activeMutant = mutant;
  ns.hitCount = 0;
  ns.hitLimit = hitLimit;
  await beginSelftestJob(spec);
}

/** Whether a test of the current mutant's job failed a rule, and how many tests were left out since. */
let killed = false;
let leftOut = 0;

/** Whether a test's rule outcomes hold a failed rule (the mutant is killed). */
export function failedRule(meta: { conformance?: { outcomes?: Record<string, { status?: string }> } }): boolean {
  return Object.values(meta.conformance?.outcomes ?? {}).some((o) => o.status === 'failed');
}

/** Mutant run: a test failed a rule; the tests that have not started yet need not run. */
export function stopAfterKill(): void {
  killed = true;
}

/** Mutant run: whether a test failed a rule already (`leaving` counts a test left out for it). */
export function stoppedAfterKill(leaving = false): boolean {
  if (killed && leaving) leftOut++;
  return killed;
}

/** Mutant run: records how often the mutant was reached (over the limit: an endless loop, a time-out). */
export function endMutantJob(out: string, mutant: string): void {
  const ns = namespace();
  appendFileSync(
    out,
    `${JSON.stringify({ mutant, hits: ns.hitCount ?? 0, limit: ns.hitLimit ?? 0, stopped: leftOut > 0 })}\n`,
  );
}

/** Mutant run: stops the deployment (after each file: vitest orders the files itself). */
export async function endMutantJobs(): Promise<void> {
  const ns = namespace();
  ns.activeMutant = undefined;
  await endSelftestJobs();
}
