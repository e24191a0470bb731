import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIndependentDeployment, type IndependentDeployment } from '../fixtures/independent/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

/**
 * Rules that still fail on the independent deployment because the suite sends its own filter and
 * sort grammar, which the documents do not show ("Grammar of the filter and sort JSON: not shown").
 * The filter dialect (issue 29, cause 1) is being built on another branch; once it is merged and
 * this deployment's dialect is declared in its configuration, this list must become empty.
 */
const PENDING_FILTER_GRAMMAR = [
  'event-management/queries/events-200',
  'event-management/queries/events-filter-fields',
  'event-management/queries/events-sort-filterable',
  'event-management/queries/timestamp-operators',
  'event-management/queries/event-types-200',
  'event-management/queries/event-types-filter-fields',
  'event-management/queries/event-types-non-sortable-400',
];

let deployment: IndependentDeployment;
const dir = tempDir('independent');

beforeAll(async () => {
  deployment = await startIndependentDeployment({ port: 0 });
});
afterAll(async () => {
  await deployment.close();
});

describe('the whole suite against the deployment written from the documents alone (fixtures/independent)', () => {
  // About 40 s on an idle machine (the full run of all three services).
  it('fails no rule but those pending the filter dialect', async () => {
    const config = join(dir, 'independent.json');
    writeFileSync(config, JSON.stringify(deployment.config));
    const reportDir = join(dir, 'report');
    const res = await runCli(['run', '--config', config, '--report-dir', reportDir, '--seed', '29'], {
      timeoutMs: 240_000,
    });
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed');
    const unexpected = failed.filter((r) => !PENDING_FILTER_GRAMMAR.includes(r.id));
    expect(unexpected.map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.interrupted).toBe(false);
    // Exit 1 only while grammar rules are pending; 0 once none fails.
    expect(res.code).toBe(failed.length ? 1 : 0);
  }, 300_000);
});
