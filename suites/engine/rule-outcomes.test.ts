import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { buildReport, judgeRule } from '../../reporters/conformance-report.ts';
import { RuleContext, type RuleOutcome, type RuleTestMeta } from './rule-test.ts';
import type { TestRecord } from './suite-runner.ts';

const A = 'technical-token-manager/access-token/fields';
const B = 'technical-token-manager/access-token/jti-unique';
const rule = loadRules(['technical-token-manager']).find((r) => r.id === A)!;
const facts = { services: ['technical-token-manager' as const], interrupted: false, reportFile: 'r.json' };
const ok = { title: 't', expected: 'e', received: 'r' };

function context(rules = [A, B]): { t: RuleContext; meta: RuleTestMeta } {
  const meta: RuleTestMeta = { rules, outcomes: {}, service: 'technical-token-manager', budget: 1, readOnly: true };
  const t = new RuleContext({} as never, 'technical-token-manager', meta, 's', { task: { name: 'x' } } as never);
  return { t, meta };
}

function record(outcomes: Record<string, RuleOutcome>, name = 'x'): TestRecord {
  return {
    file: 'f.spec.ts',
    name,
    service: 'technical-token-manager',
    state: 'passed',
    durationMs: 1,
    rules: Object.keys(outcomes),
    outcomes,
    budget: 1,
    readOnly: true,
    errors: [],
  };
}

describe('a rule is passed only on checks that held and ran to their end', () => {
  it('counts the checks that held', () => {
    const { t, meta } = context();
    t.verify(A, true, ok);
    t.verify(A, true, ok);
    expect(meta.outcomes[A]).toMatchObject({ status: 'passed', checks: 2 });
  });

  it('a skip after a check that held does not leave the rule passed', () => {
    const { t, meta } = context();
    t.verify(A, true, ok);
    expect(() => t.skip('the target throttled nothing')).toThrow();
    expect(meta.outcomes[A].status).toBe('skipped');
    expect(judgeRule(rule, [record(meta.outcomes)], facts).status).toBe('skipped');
  });

  it('a part not exercised keeps the rule from passing, in this test and across tests', () => {
    const { t, meta } = context();
    t.verify(A, true, ok);
    t.notExercised(A, 'no otherTenant principal');
    t.verify(A, true, ok);
    expect(meta.outcomes[A]).toMatchObject({ status: 'skipped', partial: true, checks: 2 });
    const other = record({ [A]: { status: 'passed', checks: 3 } }, 'y');
    const judged = judgeRule(rule, [record(meta.outcomes), other], facts);
    expect(judged.status).toBe('skipped');
    expect(judged.reason).toMatch(/no otherTenant principal/);
  });

  it('a failure still wins over a part not exercised', () => {
    const { t, meta } = context();
    t.notExercised(A, 'no otherTenant principal');
    t.verify(A, false, ok);
    expect(meta.outcomes[A].status).toBe('failed');
  });

  it('a test that reports a rule passed with no check of it fails the report as a suite defect', () => {
    const forged = record({ [A]: { status: 'passed' } });
    expect(judgeRule(rule, [forged], facts).status).not.toBe('passed');
    const report = buildReport([rule], [forged], {
      ...facts,
      toolVersion: '0',
      target: 'http://127.0.0.1:1',
      embedded: true,
      startedAt: new Date(0).toISOString(),
      finishedAt: new Date(1).toISOString(),
      seed: 1,
      options: {},
      errors: [],
    });
    expect(report.errors.join('\n')).toMatch(/suite defect: .*access-token\/fields reported passed without a check/);
    expect(report.verdict).toBe('failed');
  });
});
