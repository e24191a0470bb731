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
 * Rules with readings the alternate profile does not take the other side of yet (each must pass).
 * Those of event management and notification wait for seams of their references (answers, page
 * objects, job processing) that are being written; the token manager's signed-jwt waits for the
 * suite to read the claims of an encrypted token.
 */
const ALTERNATE_NOT_YET: string[] = [
  // signed-jwt: a five-part JWE would leave the claims the other token rules read unreadable.
  'technical-token-manager/access-token/access-token-jwt',
  // type-etag-increases: an etag that changes without increasing needs the etags of the type store.
  'event-management/etags/event-type-etag-counter',
  // spring-data-page: no seam shapes the page object of a query answer.
  'event-management/queries/page-object',
  // events-judged-in-job: refusing a payload whole needs the validation of the job itself.
  'event-management/jobs/create-job-202',
  // invalid-event-alone: stopping at the first invalid event needs the processing of the job.
  'event-management/jobs/create-job-creates-events',
  // The notification readings below: their other side is not written as seams yet.
  'notification/recipients/address-types-listed', // address-type-names
  'notification/groups/update-operation-enum', // operation-required
  'notification/categories/search-fields-required', // unsupported-fields-refused
  'notification/templates/file-size-limit', // oversize-400
  'notification/templates/channel-and-file-required-on-create', // empty-list-refused
  'notification/templates/content-text-plain', // content-as-uploaded
  'notification/publish/category-reaches-sms-and-push', // audit-lists-addresses
  'notification/lookups/channels', // channel-ids-listed
  'notification/errors/channel-error-message', // error-message-http-status
  'notification/errors/bad-input-not-5xx', // oversized-string-no-5xx
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
