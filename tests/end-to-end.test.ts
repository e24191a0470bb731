import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';
import { sharedRunDir, sharedRunSeed } from './shared-run-report.ts';

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
  // The run every other test of `npm test` shares (tests/shared-run.ts): all three services.
  it('passes every rule of the three services and reports each one', async () => {
    const reportDir = await sharedRunDir();
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'warning');
    expect(failed.map((r) => `${r.id}: ${r.failure?.received ?? r.warning?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(report.verdict).toBe('passed');
    expect(report.seed).toBe(sharedRunSeed());
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.rules.filter((r) => r.status === 'not-exercised')).toEqual([]);
    // Every rule it did not judge says why, as a code.
    expect(report.rules.filter((r) => r.status === 'skipped' && !r.reasonCode).map((r) => r.id)).toEqual([]);
    expect(report.rules.filter((r) => r.level === 'UNSPECIFIED' && r.status === 'observed').length).toBeGreaterThan(0);
    // The cleanup deleted all the run created.
    expect(report.cleanup?.outstanding).toEqual([]);
    for (const f of ['report.html', 'junit.xml', 'summary.md', 'exchanges.har'])
      expect(existsSync(join(reportDir, f)), f).toBe(true);
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
