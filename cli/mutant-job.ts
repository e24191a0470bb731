// Runs inside the mutation self-test's vitest worker, where the reference deployment's modules are
// served instrumented with mutant schemata (see mutants-command.ts). Each generated spec file calls
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

/** Coverage run: starts a clean deployment and attributes what the next spec file reaches to `specFile`. */
export async function beginCoverageFile(spec: SelftestJobSpec, specFile: string): Promise<void> {
  const ns = namespace();
  loadCoverage ??= Object.keys(ns.mutantCoverage?.static ?? {});
  ns.activeMutant = undefined;
  ns.currentTestId = undefined;
  await beginSelftestJob(spec);
  ns.currentTestId = specFile;
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
  ns.activeMutant = mutant;
  ns.hitCount = 0;
  ns.hitLimit = hitLimit;
  await beginSelftestJob(spec);
}

/** Mutant run: records how often the mutant was reached (over the limit: an endless loop, a time-out). */
export function endMutantJob(out: string, mutant: string): void {
  const ns = namespace();
  appendFileSync(out, `${JSON.stringify({ mutant, hits: ns.hitCount ?? 0, limit: ns.hitLimit ?? 0 })}\n`);
}

/** Mutant run: stops the deployment (after each file: vitest orders the files itself). */
export async function endMutantJobs(): Promise<void> {
  const ns = namespace();
  ns.activeMutant = undefined;
  await endSelftestJobs();
}
