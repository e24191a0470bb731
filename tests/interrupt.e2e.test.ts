import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

/** Starts a run, sends `signal` once the first test has finished, and waits for the run to end. */
function interruptedRun(
  signal: NodeJS.Signals,
  reportDir: string,
): Promise<{ code: number | null; stdout: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'bin/conformance.js'), 'run', '--report-dir', reportDir, '--concurrency', '1'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let sentAt = 0;
    child.stdout.on('data', (d) => {
      stdout += d;
      // The first test's line (the list reporter: not a terminal).
      if (!sentAt && /^ {2}[✓✗-] \d+\/\d+ /m.test(stdout)) {
        sentAt = Date.now();
        child.kill(signal);
      }
    });
    child.stderr.on('data', (d) => (stdout += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`run did not end after ${signal}\n${stdout.slice(-2000)}`));
    }, 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, ms: sentAt ? Date.now() - sentAt : -1 });
    });
  });
}

describe('a run interrupted by a signal', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: stops, writes a partial report marked interrupted, and exits ${code}`, async () => {
      const dir = tempDir('interrupt');
      const res = await interruptedRun(signal, dir);
      process.stdout.write(`${signal}: the run ended ${res.ms} ms after the signal\n`);
      expect(res.code, res.stdout.slice(-1500)).toBe(code);
      expect(res.stdout).toContain(`${signal}: stopping the run`);
      // No counter past its total (a cancelled run reports its tests again), and the tests the
      // stopping run never started are counted, not listed.
      const counters = [...res.stdout.matchAll(/^ {2}[✓✗-] (\d+)\/(\d+) /gm)];
      for (const [line, done, total] of counters) expect(Number(done), line).toBeLessThanOrEqual(Number(total));
      expect(counters.length).toBeLessThan(Number(counters[0]?.[2] ?? 0));
      const file = join(dir, 'conformance-report.json');
      expect(existsSync(file)).toBe(true);
      const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
      expect(report.interrupted).toBe(true);
      expect(report.verdict).toBe('failed');
      expect(report.rules.some((r) => r.status === 'passed')).toBe(true);
      expect(report.rules.some((r) => r.status === 'not-exercised')).toBe(true);
    }, 100_000);
  }
});

describe('a run that reaches --max-time', () => {
  it('stops its tests, cleans up, writes the report marked timed-out and exits 4', async () => {
    const dir = tempDir('max-time');
    const started = Date.now();
    const res = await runCli(['run', '--report-dir', dir, '--max-time', '10s', '--concurrency', '1'], {
      timeoutMs: 90_000,
    });
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`--max-time 10s: the run ended after ${seconds.toFixed(1)} s\n`);
    expect(res.code, res.stdout.slice(-1500)).toBe(4);
    expect(res.stdout).toContain('--max-time 10s reached');
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.stopped).toEqual({ reason: 'timed-out', detail: 'the run reached --max-time 10s' });
    expect(report.interrupted).toBe(true);
    expect(report.verdict).toBe('failed');
    const notRun = report.rules.filter((r) => r.status === 'not-exercised');
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun.some((r) => r.reason?.startsWith('the run reached --max-time 10s'))).toBe(true);
    expect(report.cleanup?.outstanding ?? []).toEqual([]);
    // The page and the CI summary a person reads name the stop, not just "interrupted".
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('FAILED (timed-out)');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('Stopped early: the run reached --max-time 10s');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('Conformance failed (timed-out)');
  }, 100_000);
});
