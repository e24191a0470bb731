import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { runCli } from './run-cli.ts';

// Rules whose tests have an other-tenant half: without the otherTenant principal that half does
// not run, and the rule must be reported skipped with the reason, never passed on the other half.
const HALVES = [
  'notification/categories/list',
  'notification/groups/search-by-name',
  'notification/groups/get-by-id',
  'notification/templates/list-details',
  'notification/templates/get-set',
  'notification/bounced/list',
];

let ref: RunningReference;
const dir = mkdtempSync(join(tmpdir(), 'conformance-halves-'));

beforeAll(async () => {
  ref = await startReference({ port: 0 });
});
afterAll(async () => {
  await ref.close();
});

describe('a rule with a half not exercised', () => {
  it('is reported skipped, not passed, when the otherTenant principal is missing', async () => {
    const config = referenceRunConfig(ref, ref.baseUrl);
    delete config.principals!.otherTenant;
    const file = join(dir, 'no-other.json');
    writeFileSync(file, JSON.stringify(config));
    const reportDir = join(dir, 'report');
    const res = await runCli(
      [
        'run',
        '--config',
        file,
        '--service',
        'notification',
        ...HALVES.flatMap((r) => ['--rule', r]),
        '--report-dir',
        reportDir,
        '--runs',
        '2',
      ],
      { timeoutMs: 120_000 },
    );
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.errors).toEqual([]);
    for (const id of HALVES) {
      const rule = report.rules.find((r) => r.id === id)!;
      expect({ id, status: rule.status }).toEqual({ id, status: 'skipped' });
      expect(rule.reason).toMatch(/otherTenant/);
    }
    expect(res.code).toBe(0);
  }, 150_000);
});
