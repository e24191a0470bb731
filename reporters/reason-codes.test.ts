import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import type { RuleOutcome } from '../suites/engine/rule-test.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { REASON_CODES } from '../suites/engine/unjudged.ts';
import { buildReport, type ConformanceReport, type RunFacts } from './conformance-report.ts';
import { reportSchemaErrors } from './report-schema.ts';

// Code reads why a rule has no verdict from its reason code, never from the prose of its reason:
// the schema's enum and the engine's list are one set.
describe('reason codes', () => {
  it('are the report schema’s enum, in order', () => {
    const schema = JSON.parse(readFileSync(new URL('./conformance-report.schema.json', import.meta.url), 'utf8'));
    const found: string[][] = [];
    const walk = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.reasonCode && typeof o.reasonCode === 'object') found.push((o.reasonCode as { enum: string[] }).enum);
      for (const x of Object.values(o)) walk(x);
    };
    walk(schema);
    expect(found.length).toBeGreaterThan(0);
    for (const e of found) expect(e).toEqual([...REASON_CODES]);
  });

  it('are never parsed from a reason’s words in the engine, the reporters or the certification', () => {
    const files = ['suites/engine/suite-runner.ts', 'audit/round-trip.ts', 'certification/certification-profile.ts'];
    for (const f of files) {
      const text = readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');
      expect(text, f).not.toMatch(/\.(detail|reason)\??\.(startsWith|includes|match)\(|\.test\(\w+\.(reason|detail)/);
    }
  });
});

// Every rule without a verdict says why in a code, however its test left it: a skip of its own, a
// part not exercised, no check reached, no test at all, a service not selected, a run stopped.
describe('every unjudged rule of a report carries a reasonCode', () => {
  const rules = loadRules(['technical-token-manager', 'notification']).filter((r) => r.status !== 'retired');
  const testable = rules.filter((r) => r.testable !== false && r.id.startsWith('technical-token-manager/'));
  const [skippedBare, partial, noCheck, coded] = testable;
  const outcomes: Record<string, RuleOutcome> = {
    [skippedBare.id]: { status: 'skipped', detail: 'a skip that names no code' },
    [partial.id]: { status: 'skipped', detail: 'not all of the rule was exercised: x', partial: true, checks: 1 },
    [noCheck.id]: { status: 'not-exercised' },
    [coded.id]: { status: 'skipped', detail: 'principals.noScopes is not configured', reasonCode: 'principal' },
  };
  const record: TestRecord = {
    file: 'f.spec.ts',
    name: 't',
    service: 'technical-token-manager',
    state: 'skipped',
    durationMs: 1,
    rules: Object.keys(outcomes),
    outcomes,
    budget: 1,
    readOnly: true,
    errors: [],
  };
  const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
    toolVersion: '0.1.0',
    target: 'http://127.0.0.1:1',
    embedded: true,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    seed: 1,
    options: {},
    interrupted: false,
    errors: [],
    // notification is not selected: its rules are skipped as not-selected.
    services: ['technical-token-manager'],
    reportFile: 'conformance-report/conformance-report.json',
    ...over,
  });
  const unjudged = (report: ConformanceReport) =>
    report.rules.filter((r) => r.status === 'skipped' || r.status === 'not-exercised');

  it.each([
    ['a run that ended', facts()],
    ['a run stopped by --max-time', facts({ interrupted: true, stopped: { reason: 'timed-out', detail: 'x' } })],
    ['an interrupted run', facts({ interrupted: true })],
  ])('%s', (_, f) => {
    const report = buildReport(rules, [record], f);
    expect(unjudged(report).length).toBeGreaterThan(testable.length - 4);
    for (const r of unjudged(report)) expect(REASON_CODES, r.id).toContain(r.reasonCode);
    expect(reportSchemaErrors(report)).toEqual([]);
  });

  it('gives the code of a test that named none: test for a skip, no-check for a check never reached', () => {
    const byId = new Map(buildReport(rules, [record], facts()).rules.map((r) => [r.id, r]));
    expect(byId.get(skippedBare.id)?.reasonCode).toBe('test');
    expect(byId.get(partial.id)?.reasonCode).toBe('test');
    expect(byId.get(noCheck.id)?.reasonCode).toBe('no-check');
    expect(byId.get(coded.id)?.reasonCode).toBe('principal');
  });

  it('is required by the report schema', () => {
    const report = buildReport(rules, [record], facts());
    for (const status of ['skipped', 'not-exercised']) {
      const copy = structuredClone(report);
      const rule = copy.rules.find((r) => r.status === status)!;
      delete rule.reasonCode;
      expect(reportSchemaErrors(copy).join('\n'), status).toMatch(/reasonCode/);
    }
  });
});
