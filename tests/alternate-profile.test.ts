import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const dir = tempDir('alternate');

/**
 * Rules whose readings came from the triage of the independent deployment's first verdict
 * (fixtures/independent/TRIAGE.md): the alternate profile does not yet take the other side of
 * them (a 401 for a malformed host token, a 400 for the int64 range ends, descendants with fields
 * returned without them). The independent deployment takes that side of the first two; until the
 * alternate profile does too, they are listed here and must pass. (The two 400 code rules that had
 * the multipart form fields' reading warn now through their reading code-per-condition.)
 */
const ALTERNATE_NOT_YET = [
  'event-management/queries/standard-events-without-type-id',
  'notification/recipients/get-by-id',
  'technical-token-manager/user-tenants/invalid-host-token',
];

// A second conformant deployment: the reference taking the other side of every reading of ours.
// The readings cannot fail it; they show as warnings, and --strict fails them.
describe('the whole suite against the alternate profile of the reference', () => {
  it('exits 0 with no failed rule and a warning for every reading it takes the other side of', async () => {
    const reportDir = join(dir, 'all');
    const res = await runCli(
      ['run', '--profile', 'alternate', '--report-dir', reportDir, '--seed', '7', '--timeout', '30000'],
      {
        timeoutMs: 900_000,
      },
    );
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(res.code).toBe(0);
    expect(reportSchemaErrors(report)).toEqual([]);
    const warned = report.rules.filter((r) => r.status === 'warning');
    const withReadings = loadRules().filter((r) => r.readings?.length && !ALTERNATE_NOT_YET.includes(r.id));
    expect(warned.map((r) => r.id).sort()).toEqual(withReadings.map((r) => r.id).sort());
    // The readings the alternate profile does not take the other side of yet: their rules hold.
    for (const id of ALTERNATE_NOT_YET) expect(report.rules.find((r) => r.id === id)?.status).toBe('passed');
    for (const r of warned) expect(r.warning?.text).toBeTruthy();
    expect(res.stdout).toContain('Warnings (our reading');
    expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain('warning: reading');
  }, 960_000);

  it('--strict fails the readings', async () => {
    const reportDir = join(dir, 'strict');
    const res = await runCli(
      [
        'run',
        '--profile',
        'alternate',
        '--strict',
        '--service',
        'event-management',
        '--rule',
        'event-management/jobs/delete-details',
        '--report-dir',
        reportDir,
      ],
      { timeoutMs: 300_000 },
    );
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.rules.find((r) => r.id === 'event-management/jobs/delete-details')?.status).toBe('failed');
    expect(res.code).toBe(1);
  }, 320_000);
});
