import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIndependentDeployment, type IndependentDeployment } from '../fixtures/independent/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

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
  it('fails no rule, its filter dialect declared as a vendor would (fixtures/independent/filter-dialect.ts)', async () => {
    const config = join(dir, 'independent.json');
    writeFileSync(
      config,
      JSON.stringify({
        ...deployment.config,
        filterDialect: { module: join(root, 'fixtures/independent/filter-dialect.ts') },
      }),
    );
    const reportDir = join(dir, 'report');
    const res = await runCli(['run', '--config', config, '--report-dir', reportDir, '--seed', '29'], {
      timeoutMs: 240_000,
    });
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.interrupted).toBe(false);
    expect(res.code, res.stdout.slice(-2000)).toBe(0);
  }, 300_000);
});
