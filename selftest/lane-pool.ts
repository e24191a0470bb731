// The lane runner both self-tests use (fault variants and mutants): lanes are child processes
// (`conformance selftest-lane FILE`, `conformance selftest-mutants-lane FILE`) that run their
// jobs one after another and print one JSON result line per job. The pool keeps `width` lanes
// busy; a lane that ends (or stalls) before its last job reports its current job lost and hands
// the rest to a new lane; SIGINT or SIGTERM ends every lane at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const launcher = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));

/** One lane's work: its jobs, what else its lane file carries, and its environment. */
export interface LaneTask<J> {
  jobs: J[];
  /** Written into the lane file beside `jobs`, `index` and `out`. */
  payload: object;
  /** Set in the lane's environment before anything loads. */
  env?: Record<string, string>;
}

/** What the lane file holds: the task's payload, its jobs, the lane's number and its results file. */
export type LaneFile<P, J> = P & { jobs: J[]; index: number; out: string };

/** Why a job got no result from its lane. */
export interface Lost {
  /** The lane gave no result for `stallMs` and was stopped. */
  stalled: boolean;
  stallMs: number;
  /** The lane's exit code and the end of its standard error. */
  code: number | null;
  stderr: string;
}

export interface PoolOptions<J, R> {
  /** The hidden subcommand a lane runs. */
  command: 'selftest-lane' | 'selftest-mutants-lane';
  workDir: string;
  width: number;
  /** A lane that prints no result for this long is stopped (its current job lost). */
  stallMs: number;
  jobId: (job: J) => string;
  /** The job a printed line is the result of (undefined: not a result line). */
  resultId: (result: R) => string | undefined;
  /** The result recorded for a job its lane did not finish. */
  lost: (job: J, why: Lost) => R;
  onResult: (result: R) => void;
}

/** Runs `tasks` on `o.width` lanes at a time; resolves when every job has a result (or the pool was stopped). */
export async function runLanePool<J, R>(tasks: LaneTask<J>[], o: PoolOptions<J, R>): Promise<void> {
  const queue = [...tasks];
  let counter = 0;
  const live = new Set<ChildProcess>();
  let stopped = false;
  const stop = () => {
    stopped = true;
    queue.length = 0;
    for (const c of live) c.kill('SIGKILL');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const runOne = (task: LaneTask<J>): Promise<void> =>
    new Promise((resolve) => {
      const index = counter++;
      const out = join(o.workDir, `lane-${index}-results.jsonl`);
      const file = join(o.workDir, `lane-${index}.json`);
      writeFileSync(file, JSON.stringify({ ...task.payload, jobs: task.jobs, index, out }));
      const child = spawn(process.execPath, [launcher, o.command, file], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: task.env ? { ...process.env, ...task.env } : process.env,
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
        }, o.stallMs);
      };
      arm();
      child.stdout.on('data', (d) => {
        buffer += d;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          let r: R;
          try {
            r = JSON.parse(line) as R;
          } catch {
            continue; // not a result line
          }
          const id = r && typeof r === 'object' ? o.resultId(r) : undefined;
          if (typeof id !== 'string') continue;
          seen.add(id);
          arm();
          o.onResult(r);
        }
      });
      child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
      child.on('close', (code) => {
        clearTimeout(timer);
        live.delete(child);
        if (stopped) return resolve();
        const left = task.jobs.filter((j) => !seen.has(o.jobId(j)));
        if (left.length) {
          const [current, ...rest] = left;
          o.onResult(o.lost(current, { stalled, stallMs: o.stallMs, code, stderr }));
          if (rest.length) queue.push({ ...task, jobs: rest });
        }
        resolve();
      });
    });
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await runOne(task);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, o.width) }, worker));
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

/** One line on why a job got no result, for its error. */
export function lostReason(why: Lost): string {
  return why.stalled
    ? `timed out: no result for ${why.stallMs / 1000} s`
    : `lane ended (exit ${why.code}) before this job: ${why.stderr.slice(-400)}`;
}
