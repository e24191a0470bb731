import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { startJsonOperatorsProxy, type JsonOperatorsProxy } from './json-operators-proxy.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// "Grammar of the filter and sort JSON: not shown": a deployment that speaks another grammar
// (MongoDB operators, the reference behind a translating proxy that refuses the suite's default
// grammar) must get no failure from the grammar, declared or not.
let ref: RunningReference;
let proxy: JsonOperatorsProxy;
const dir = tempDir('dialect');

beforeAll(async () => {
  ref = await startReference({ port: 0 });
  proxy = await startJsonOperatorsProxy(ref.baseUrl);
});
afterAll(async () => {
  await proxy.close();
  await ref.close();
});

/** The filter rules the suite judges on GET /events, GET /eventTypes and delete jobs. */
const FILTER_RULES = [
  'event-management/queries/events-filter-fields',
  'event-management/queries/timestamp-operators',
  'event-management/queries/events-sort-filterable',
  'event-management/queries/asset-type-id-in-max-5',
  'event-management/queries/event-types-filter-fields',
  'event-management/jobs/delete-filter-timestamp',
];

async function run(name: string, filterDialect?: string): Promise<{ code: number | null; report: ConformanceReport }> {
  const config = { ...referenceRunConfig(ref, proxy.url), ...(filterDialect ? { filterDialect } : {}) };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  const reportDir = join(dir, name);
  const res = await runCli(
    ['run', '--config', file, '--service', 'event-management', '--report-dir', reportDir, '--seed', '7'],
    { timeoutMs: 300_000 },
  );
  return { code: res.code, report: JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) };
}

describe('a deployment that speaks another filter grammar', () => {
  it('doctor says in its filterDialect row whether the deployment understands the dialect', async () => {
    const row = async (name: string, filterDialect?: string) => {
      const config = { ...referenceRunConfig(ref, proxy.url), ...(filterDialect ? { filterDialect } : {}) };
      const file = join(dir, `doctor-${name}.json`);
      writeFileSync(file, JSON.stringify(config));
      const res = await runCli(['doctor', '--config', file]);
      return { code: res.code, line: res.stdout.split('\n').find((l) => l.startsWith('filterDialect ')) ?? '', res };
    };
    const undeclared = await row('undeclared');
    expect(undeclared.line).toMatch(/failed +the deployment refuses the filter dialect "default": IN filter=/);
    // Which tests write a refused operator is met as they send it: doctor names the dialect, lists no rules.
    expect(undeclared.res.stdout).toMatch(
      /filterDialect \(failed\): the tests that write a refused operator are skipped/,
    );
    expect(undeclared.code).toBe(1);
    const declared = await row('declared', 'json-operators');
    expect(declared.line).toMatch(/ready +the deployment understands the filter dialect "json-operators"/);
    expect(declared.code).toBe(0);
  }, 120_000);

  it('declaring none: no rule fails, the grammar is named once, the rules needing a filter are skipped with the reason', async () => {
    const { code, report } = await run('undeclared');
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received}`)).toEqual([]);
    expect(code).toBe(0);
    const grammar = report.rules.find((r) => r.id === 'event-management/queries/filter-sort-grammar');
    expect(grammar?.status).toBe('observed');
    expect(String(grammar?.observed)).toMatch(/refuses the filter dialect "default"/);
    const skipped = report.rules.filter(
      (r) => r.status === 'skipped' && /^declare the deployment's filter dialect: /.test(String(r.reason)),
    );
    for (const id of FILTER_RULES) expect(skipped.map((r) => r.id)).toContain(id);
  }, 330_000);

  it('declaring json-operators: the filter rules are judged and pass', async () => {
    const { code, report } = await run('declared', 'json-operators');
    const failed = report.rules.filter((r) => r.status === 'failed');
    expect(failed.map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received}`)).toEqual([]);
    expect(code).toBe(0);
    const grammar = report.rules.find((r) => r.id === 'event-management/queries/filter-sort-grammar');
    expect(String(grammar?.observed)).toMatch(/understands the filter dialect "json-operators"/);
    const status = Object.fromEntries(report.rules.map((r) => [r.id, r.status]));
    for (const id of FILTER_RULES) expect([id, status[id]]).toEqual([id, 'passed']);
  }, 330_000);
});
