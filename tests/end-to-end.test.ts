import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

let ref: RunningReference;
const dir = tempDir('e2e');

beforeAll(async () => {
  ref = await startReference({ port: 0 });
});
afterAll(async () => {
  await ref.close();
});

function writeConfig(name: string, mutate: (c: ReturnType<typeof referenceRunConfig>) => void = () => {}): string {
  const c = referenceRunConfig(ref, ref.baseUrl);
  mutate(c);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

describe('conformance run against the reference deployment', () => {
  // Run with --low-memory (V8 favouring size): the verdict must not depend on it.
  it('passes every Technical Token Manager rule and reports each one', async () => {
    const reportDir = join(dir, 'ttm');
    const res = await runCli(
      [
        'run',
        '--config',
        writeConfig('ok.json'),
        '--service',
        'technical-token-manager',
        '--report-dir',
        reportDir,
        '--seed',
        '42',
        '--low-memory',
      ],
      { timeoutMs: 90_000 },
    );
    expect(res.stdout).toContain('seed 42');
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => `${r.id}: ${r.failure?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(res.code).toBe(0);
    expect(report.seed).toBe(42);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(
      report.rules.filter((r) => r.service === 'technical-token-manager').every((r) => r.status !== 'not-exercised'),
    ).toBe(true);
    expect(report.rules.filter((r) => r.level === 'UNSPECIFIED' && r.status === 'observed').length).toBeGreaterThan(0);
  });

  it('exits 3 when the target refuses the configured credentials', async () => {
    const file = writeConfig('wrong.json', (c) => {
      c.tokenManager!.clientSecret = 'not-the-secret';
    });
    const res = await runCli([
      'run',
      '--config',
      file,
      '--service',
      'technical-token-manager',
      '--report-dir',
      join(dir, 'wrong'),
    ]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/refused the configured credentials/);
    expect(res.stderr + res.stdout).not.toContain('not-the-secret');
  });

  it('lists what it would exercise with --dry-run, sending nothing', async () => {
    const res = await runCli([
      'run',
      '--config',
      writeConfig('dry.json'),
      '--service',
      'technical-token-manager',
      '--dry-run',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/dry run: nothing is sent/);
    expect(res.stdout).toMatch(/at most \d+ requests in all/);
  });
});
