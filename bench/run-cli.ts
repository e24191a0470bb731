import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  report?: ConformanceReport;
  output: string;
}

/** Runs `conformance run …` in a child process and measures its wall time and peak RSS. */
export function timedRun(args: string[]): Promise<TimedRun> {
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
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let stderr = '';
    child.stdout.on('data', (d) => (output = (output + d).slice(-5000)));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
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
        report,
        output: output + stderr.replace(/BENCH_(MAX_RSS_KB|CPU_MS)=\d+/g, ''),
      });
    });
  });
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
