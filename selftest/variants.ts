// The fault-variant self-test: the suites against the reference (no false failure allowed) and
// against every fault variant (each must fail the rules it breaks), spread over lanes.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { ServiceName } from '../contracts/services.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { resolveServices } from '../cli/rules-command.ts';
import { UsageError } from '../cli/usage-error.ts';
import { lostReason, runLanePool, type LaneTask } from './lane-pool.ts';
import { specFilesByRule, specFilesFor } from './lane-worker.ts';
import type { VariantJob, VariantLanePayload, VariantResult } from './variant-lane.ts';

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

export interface SelftestOptions {
  faults?: string[];
  service?: string[];
  json?: boolean;
  parallel?: string;
  runs?: string;
  seed?: string;
  keep?: boolean;
}

/** A lane that prints no result for this long is stopped: the reference's whole run is its longest job. */
const STALL_MS = 15 * 60_000;

/** Runs the self-test and returns its result; `log` gets one line per job as it ends. */
export async function runSelftest(opts: SelftestOptions, log: (line: string) => void): Promise<SelftestResult> {
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
  log(`selftest: reference + ${variants.length} fault variants, ${width} at a time (seed ${seed}, runs ${runs})`);
  const filesOf = await specFilesByRule(services);
  const jobs: VariantJob[] = [
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
  const laneCount = Math.min(width, jobs.length);
  const payload: VariantLanePayload = { workDir, seed, runs };
  const tasks: LaneTask<VariantJob>[] = Array.from({ length: laneCount }, (_, i) => ({
    jobs: jobs.filter((_, j) => j % laneCount === i),
    payload,
  }));
  const results: VariantResult[] = [];
  try {
    await runLanePool<VariantJob, VariantResult>(tasks, {
      command: 'selftest-lane',
      workDir,
      width,
      stallMs: STALL_MS,
      jobId: (j) => j.id,
      resultId: (r) => r.id,
      lost: (j, why) => ({ id: j.id, failed: [], errors: [], error: lostReason(why), durationMs: 0 }),
      onResult: (r) => {
        results.push(r);
        log(
          `  [${results.length}/${jobs.length}] ${r.id}: ${r.error ? `error: ${r.error.split('\n')[0]}` : r.failed.length ? `failed ${r.failed.join(', ')}` : 'no failure'} (${(r.durationMs / 1000).toFixed(1)} s)`,
        );
      },
    });
  } finally {
    if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
  }
  const byId = new Map(results.map((r) => [r.id, r]));
  const missing = (id: string): VariantResult => ({ id, failed: [], errors: [], error: 'no result', durationMs: 0 });
  const ref = byId.get('reference') ?? missing('reference');
  const rows: SelftestRow[] = variants.map((v) => {
    const r = byId.get(v.id) ?? missing(v.id);
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
  return {
    reference: { falseFailures: ref.failed, errors: ref.error ? [ref.error] : ref.errors, durationMs: ref.durationMs },
    variants: rows,
    score: rows.length ? killed / rows.length : 1,
    durationMs: Date.now() - started,
  };
}
