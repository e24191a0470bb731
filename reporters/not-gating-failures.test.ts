import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import type { RuleOutcome } from '../suites/engine/rule-test.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { buildReport, NOT_GATING_HEADING } from './conformance-report.ts';
import { consoleSummary } from './console-summary.ts';
import { summaryMarkdown } from './summary-markdown.ts';

// A MAY rule's bound not met is a failed rule that does not decide the verdict: listed under a
// heading that says so, never under "Failed rules" beneath PASSED.
describe('a failed MAY rule beside a passing verdict', () => {
  const MAY = 'event-management/general/visibility-delay';
  const MUST = 'event-management/events/severity-range';
  const rules = loadRules(['event-management']).filter((r) => r.id === MAY || r.id === MUST);
  const failure = (title: string): RuleOutcome => ({
    status: 'failed',
    failure: { title, severity: 'medium', expected: 'visible', received: 'not visible' },
  });
  const report = (outcomes: Record<string, RuleOutcome>) => {
    const record: TestRecord = {
      file: 'f.spec.ts',
      name: 't',
      service: 'event-management',
      state: 'failed',
      durationMs: 1,
      rules: Object.keys(outcomes),
      outcomes,
      budget: 1,
      readOnly: false,
      errors: [],
    };
    return buildReport(rules, [record], {
      toolVersion: '0.1.0',
      target: 'http://127.0.0.1:1',
      embedded: true,
      startedAt: new Date(0).toISOString(),
      finishedAt: new Date(1).toISOString(),
      seed: 1,
      options: {},
      interrupted: false,
      errors: [],
      services: ['event-management'],
      reportFile: 'conformance-report/conformance-report.json',
    });
  };

  it('is listed apart in the console and in summary.md', () => {
    const r = report({ [MAY]: failure('late'), [MUST]: { status: 'passed', checks: 1 } });
    expect(r.verdict).toBe('passed');
    const text = consoleSummary(r, []);
    expect(text).not.toMatch(/^Failed rules:/m);
    expect(text).toContain(`${NOT_GATING_HEADING}:\n  ✗ ${MAY} [MAY]`);
    const md = summaryMarkdown(r);
    expect(md).not.toMatch(/### Failed rules/);
    expect(md).toContain(`### ${NOT_GATING_HEADING}`);
  });

  it('beside a failed MUST rule, each under its own heading', () => {
    const r = report({ [MAY]: failure('late'), [MUST]: failure('refused') });
    expect(r.verdict).toBe('failed');
    const text = consoleSummary(r, []);
    expect(text).toMatch(new RegExp(`^Failed rules:\\n  ✗ ${MUST} \\[MUST\\]`, 'm'));
    expect(text.indexOf(NOT_GATING_HEADING)).toBeGreaterThan(text.indexOf('Failed rules:'));
  });
});
