import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../reporters/conformance-report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface TimedRun {
  code: number | null;
  wallMs: number;
  maxRssMiB: number;
  /** CPU time of the run's process, user and system, in milliseconds. */
  cpuMs: number;
  /**
   * Peak of the resident memory of the run's process and every process it started (tsx's esbuild
   * service, say), summed: what a pod's memory limit counts. Sampled every 100 ms from /proc.
   */
  treeRssMiB: number;
  report?: ConformanceReport;
  output: string;
}

/** Runs `conformance run …` in a child process and measures its wall time and peak RSS. */
export function timedRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<TimedRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(root, 'bench/print-rss.mjs'),
        join(root, 'bin/conformance.js'),
        'run',
        '--report-dir',
        reportDir,
        ...args,
      ],
      {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let stderr = '';
    let treePeakKb = 0;
    const sampler = setInterval(() => {
      if (child.pid !== undefined) treePeakKb = Math.max(treePeakKb, treeRssKb(child.pid));
    }, 100);
    child.stdout.on('data', (d) => (output = (output + d).slice(-5000)));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearInterval(sampler);
      const wallMs = performance.now() - started;
      const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(stderr);
      const cpu = /BENCH_CPU_MS=(\d+)/.exec(stderr);
      let report: ConformanceReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
      } catch {
        report = undefined;
      }
      rmSync(reportDir, { recursive: true, force: true });
      resolve({
        code,
        wallMs,
        maxRssMiB: rss ? Number(rss[1]) / 1024 : NaN,
        cpuMs: cpu ? Number(cpu[1]) : NaN,
        treeRssMiB: treePeakKb ? treePeakKb / 1024 : NaN,
        report,
        output: output + stderr.replace(/BENCH_(MAX_RSS_KB|CPU_MS)=\d+/g, ''),
      });
    });
  });
}

/** Resident memory (KiB) of a process and all its descendants, from /proc (0 where there is none). */
function treeRssKb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  for (const e of entries) {
    try {
      const status = readFileSync(`/proc/${e}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      rss.set(Number(e), kb);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // The process ended while it was read.
    }
  }
  let sum = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    sum += rss.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
  }
  return sum;
}

export interface ServedReference {
  /** A run configuration for it. */
  config: string;
  stop(): Promise<void>;
}

/** Starts `conformance serve` in its own process (so that a run's figures are the suite's alone). */
export async function servedReference(args: string[] = []): Promise<ServedReference> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-bench-serve-'));
  const config = join(dir, 'run.json');
  const child = spawn(
    process.execPath,
    [join(root, 'bin/conformance.js'), 'serve', '--port', '0', '--write-config', config, ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const deadline = Date.now() + 30_000;
  while (!existsSync(config)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('conformance serve did not start within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    config,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('close', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
