import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

describe('run --low-memory (V8 favouring size over speed)', () => {
  it('gives the verdict a default run gives: every Technical Token Manager rule passes', async () => {
    const reportDir = join(tempDir('low-memory'), 'out');
    const res = await runCli(
      ['run', '--service', 'technical-token-manager', '--report-dir', reportDir, '--seed', '42', '--low-memory'],
      { timeoutMs: 120_000 },
    );
    expect(res.stdout).toContain('seed 42');
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.rules.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
    expect(res.code).toBe(0);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(
      report.rules.filter((r) => r.service === 'technical-token-manager').every((r) => r.status !== 'not-exercised'),
    ).toBe(true);
  });
});
