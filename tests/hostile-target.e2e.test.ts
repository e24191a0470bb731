import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { hostileRunConfig, startHostileTarget, type HostileTarget } from './hostile-target.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

let target: HostileTarget;
const dir = tempDir('hostile');

beforeAll(async () => {
  target = await startHostileTarget();
});
afterAll(async () => {
  await target.close();
});

describe('a run against a hostile target', () => {
  it('ends by itself in bounded time with exit 1 and a written report', async () => {
    const config = join(dir, 'run.json');
    writeFileSync(config, hostileRunConfig(target, 'hostile-secret-value'));
    const started = Date.now();
    const res = await runCli(
      ['run', '--config', config, '--timeout', '800', '--runs', '3', '--report-dir', join(dir, 'report')],
      { timeoutMs: 170_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `hostile target: run took ${seconds.toFixed(1)} s, behaviours met ${JSON.stringify(target.counts)}\n`,
    );
    expect(res.code, res.stderr + res.stdout.slice(-2000)).toBe(1);
    const file = join(dir, 'report', 'conformance-report.json');
    expect(existsSync(file)).toBe(true);
    const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('failed');
    expect(reportSchemaErrors(report)).toEqual([]);
    // Fewer than the whole catalog: the run stops once the target counts as unresponsive.
    expect(report.rules.filter((r) => r.status === 'failed').length).toBeGreaterThan(3);
    expect(report.http?.transportErrors).toBeGreaterThan(0);
    // The stalls and resets outweigh the answers: the target counts as unresponsive, the tests
    // left are not run, and their rules say why.
    expect(report.stopped?.reason).toBe('target-unresponsive');
    expect(
      report.rules.some((r) => r.status === 'not-exercised' && r.reason?.startsWith('target unresponsive since')),
    ).toBe(true);
    const everything = readFileSync(file, 'utf8') + res.stdout + res.stderr;
    expect(everything).not.toContain('hostile-secret-value');
    for (const b of ['truncated-json', 'html-error', 'wrong-content-type', 'huge-body', 'reset', 'redirect', 'stall']) {
      expect(target.counts[b], b).toBeGreaterThan(0);
    }
  }, 180_000);
});
