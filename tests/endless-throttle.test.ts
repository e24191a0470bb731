import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { attackRunConfig, startAttackTarget, type AttackTarget } from './credential-attacks.ts';
import { cliEnv, root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// A target that throttles every request with an endless Retry-After cannot hold a run: every wait
// honours --max-time and the signals, and SIGTERM ends the run with a report within the grace
// period Kubernetes gives.

function readReport(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
}

/** Runs `conformance run` and sends SIGTERM once its tests begin; resolves with how long it took to end after. */
function terminatedRun(args: string[]): Promise<{ code: number | null; out: string; afterSignalMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/conformance.js'), ...args], {
      cwd: root,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let sentAt = 0;
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      // The line printed as the suites start: the run is past its start and into its tests.
      if (!sentAt && /^services: /m.test(out)) {
        sentAt = Date.now();
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the run did not end\n${out.slice(-2000)}`));
    }, 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, afterSignalMs: sentAt ? Date.now() - sentAt : -1 });
    });
  });
}

describe('a target that answers 429 with Retry-After: 999999', () => {
  let forever: AttackTarget;
  let writes: AttackTarget;
  beforeAll(async () => {
    forever = await startAttackTarget('throttle-forever');
    writes = await startAttackTarget('throttle-writes');
  });
  afterAll(async () => {
    await forever?.close();
    await writes?.close();
  });

  it('cannot hold a run past --max-time: it stops at the start, with a report', async () => {
    const dir = tempDir('throttle-max-time');
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(attackRunConfig(forever.url)));
    const started = Date.now();
    const res = await runCli(['run', '--config', file, '--report-dir', join(dir, 'out'), '--max-time', '3s'], {
      timeoutMs: 120_000,
    });
    const seconds = (Date.now() - started) / 1000;
    expect(res.code, res.stdout.slice(-1500)).toBe(4);
    expect(readReport(join(dir, 'out')).stopped?.reason).toBe('timed-out');
    // --max-time 3s, and the time it takes to start and write the report: far from the 10
    // minutes the readiness check's waits once added up to.
    expect(seconds).toBeLessThan(60);
  }, 130_000);

  it('cannot hold a run past SIGTERM: its tests stop and it ends with a report within 30 s', async () => {
    const dir = tempDir('throttle-sigterm');
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(attackRunConfig(writes.url)));
    const res = await terminatedRun(['run', '--config', file, '--report-dir', join(dir, 'out')]);
    expect(res.afterSignalMs).toBeGreaterThan(0);
    expect(res.code, res.out.slice(-3000)).toBe(143);
    // Kubernetes' grace period between SIGTERM and SIGKILL.
    expect(res.afterSignalMs).toBeLessThan(30_000);
    const report = readReport(join(dir, 'out'));
    expect(report.interrupted).toBe(true);
    const unjudged = report.rules.filter((r) => r.status === 'not-exercised');
    expect(unjudged.length).toBeGreaterThan(0);
    expect(unjudged.filter((r) => !r.reasonCode)).toEqual([]);
  }, 250_000);
});
