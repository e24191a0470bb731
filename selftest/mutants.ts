// The mutation self-test (`conformance selftest --mutants`): the suites against machine-made mutants of the reference
// deployment. Stryker's instrumenter places every mutant of the rule-enforcing files into one
// instrumented copy (mutant schemata), served to the self-test's vitest worker instead of the
// files themselves; a mutant is switched on at run time through the instrumented code's global
// namespace. A coverage run first records which spec files reach which mutant; each mutant then
// runs against those spec files only, one after another in a lane (a child process), with a fresh
// deployment each. Mutants reached only while the modules load (a top-level constant, a regular
// expression) run in a lane of their own, with the mutant switched on before anything loads.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { loadRules } from '../contracts/catalog.ts';
import { THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { resolveServices } from '../cli/rules-command.ts';
import { UsageError } from '../cli/usage-error.ts';
import { INPUT_BOUNDS, readUntrustedJson, UntrustedInputError } from '../reporters/untrusted-input.ts';
import { instrument, mutatedFiles } from './instrument.ts';
import { lostReason, runLanePool, type LaneTask } from './lane-pool.ts';
import { serviceSpecFiles, specFilesByRule, specFilesFor } from './lane-worker.ts';
import { fileKey } from './mutant-job.ts';
import type { LaneResult, MutantJob, MutantLanePayload } from './mutant-lane.ts';
import type { MutantGroup, MutantRow, MutantsOptions, MutantsResult, MutantStatus } from './mutant-row.ts';
import { loadTriage, triageKey, triageOf } from './triage.ts';

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

interface Coverage {
  load: string[];
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}

/** The rows of an earlier `--out` result. */
function readEarlier(file: string): MutantRow[] {
  let rows: unknown;
  try {
    rows = (readUntrustedJson(file, 'a result of --out', INPUT_BOUNDS.mutationResult) as MutantsResult).mutants;
  } catch (e) {
    if (e instanceof UntrustedInputError) throw new UsageError(`--since ${e.message}`);
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
  const rowKey = (m: MutantRow) => `${triageKey(m)}\u0000${m.at}\u0000${m.nth ?? 1}`;
  const kills = new Map(earlier.filter((m) => DETECTED.includes(m.status)).map((m) => [rowKey(m), m]));
  let n = 0;
  for (const m of chosen) {
    const k = kills.get(rowKey(m));
    if (!k) continue;
    Object.assign(m, {
      status: k.status,
      killedBy: k.killedBy,
      byWarning: k.byWarning,
      reason: k.reason,
      carried: true,
    });
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
  /** Runs lane tasks `lanes` at a time; a lane silent for `stallMs` has its current mutant timed out. */
  const pool = (
    tasks: LaneTask<MutantJob>[],
    lanes: number,
    stallMs: number,
    onResult: (r: LaneResult) => void,
  ): Promise<void> =>
    runLanePool<MutantJob, LaneResult>(tasks, {
      command: 'selftest-mutants-lane',
      workDir,
      width: lanes,
      stallMs,
      jobId: (j) => j.mutant,
      resultId: (r) => (typeof r.mutant === 'string' ? r.mutant : undefined),
      lost: (j, why) => ({
        mutant: j.mutant,
        failed: [],
        errors: [lostReason(why)],
        hits: why.stalled ? Number.POSITIVE_INFINITY : 0,
        limit: j.hitLimit,
        durationMs: why.stalled ? why.stallMs : 0,
      }),
      onResult,
    });
  const payload = (mode: MutantLanePayload['mode'], services: ServiceName[]): MutantLanePayload => ({
    ...common,
    mode,
    services,
  });
  const specServices = services;
  const allSpecs = specServices.flatMap(serviceSpecFiles);

  // 1. Coverage: the unmutated instrumented reference against every spec file, one after another.
  const coverageStarted = Date.now();
  const coverageOut = join(workDir, 'coverage.json');
  const coverageResults: LaneResult[] = [];
  await pool(
    [{ jobs: [], payload: { ...payload('coverage', specServices), specFiles: allSpecs, coverageOut } }],
    1,
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
  const tasksFor = (jobs: MutantJob[], lanes: number): LaneTask<MutantJob>[] => {
    const plain = jobs.filter((j) => !loaded.has(j.mutant));
    const out: LaneTask<MutantJob>[] = [];
    const laneCount = Math.max(1, Math.min(lanes, plain.length));
    for (let i = 0; i < laneCount; i++) {
      const own = plain.filter((_, j) => j % laneCount === i);
      if (own.length) out.push({ jobs: own, payload: payload('mutants', specServices) });
    }
    for (const j of jobs)
      if (loaded.has(j.mutant))
        out.push({
          jobs: [j],
          payload: payload('mutants', j.services),
          env: { __STRYKER_ACTIVE_MUTANT__: j.mutant },
        });
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
    m.byWarning = undefined;
    if (r.hits > r.limit) {
      m.status = 'timeout';
      m.reason = r.errors[0] ?? `reached ${r.hits} times (limit ${r.limit})`;
    } else if (r.failed.length) {
      m.status = 'killed';
      if (r.transportOnly) m.reason = TRANSPORT_ONLY;
    } else if (r.warned?.length && !r.errors.length) {
      m.status = 'killed';
      m.byWarning = true;
      m.killedBy = r.warned;
    } else if (r.errors.length) {
      m.status = 'crashed';
      m.reason = r.errors[0].split('\n')[0].slice(0, 200);
    } else m.status = 'survived';
  };
  const line = (m: MutantRow, r: LaneResult, tag: string) =>
    `  [${tag}] ${m.file}:${m.line} [${m.region}] ${m.mutator} ${m.status}${m.killedBy.length ? ` by ${m.byWarning ? 'a warning on ' : ''}${m.killedBy.slice(0, 3).join(', ')}` : ''}${m.status === 'survived' ? `: ${m.original} -> ${m.replacement}` : ''} (${(r.durationMs / 1000).toFixed(1)} s, ${m.tests ? `${m.tests} tests in ` : ''}${m.specFiles} files)`;
  const stoppedEarly = new Set<string>();
  await pool(tasks, width, 180_000, (r) => {
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
    await pool(tasksFor(again, 1), 1, 180_000, (r) => {
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
    await pool(tasksFor(again, width), width, 180_000, (r) => {
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
      byWarning: own.filter((m) => m.status === 'killed' && m.byWarning).length,
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
