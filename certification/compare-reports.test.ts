import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from '../reporters/conformance-report.ts';
import { compareMarkdown } from './compare-markdown.ts';
import { compareReports } from './compare-reports.ts';

function report(rules: Array<[string, string, Partial<RuleResult>?]>): ConformanceReport {
  return {
    tool: { name: 'platform-conformance', version: '0.1.0' },
    target: 'http://x',
    seed: 1,
    finishedAt: '2026-11-21T00:00:00.000Z',
    verdict: 'passed',
    rules: rules.map(([id, status, extra]) => ({
      id,
      service: 'notification',
      level: 'MUST',
      status,
      tests: [],
      ...extra,
    })),
  } as unknown as ConformanceReport;
}

describe('compare', () => {
  const before = report([
    ['a', 'passed'],
    ['b', 'failed', { failure: { title: 't', expected: 'HTTP 400', received: 'HTTP 201' } as never }],
    ['c', 'observed', { level: 'UNSPECIFIED', observed: ['HTTP 200'] }],
    ['d', 'passed'],
    ['e', 'passed'],
    ['f', 'skipped', { reason: 'r' }],
    ['gone', 'passed'],
  ]);
  const after = report([
    ['a', 'failed', { failure: { title: 'size', expected: 'HTTP 400', received: 'HTTP 200' } as never }],
    ['b', 'passed'],
    ['c', 'observed', { level: 'UNSPECIFIED', observed: ['HTTP 404'] }],
    ['d', 'warning', { warning: { detail: 'answered 200 where 201 reads better' } } as never],
    ['e', 'passed'],
    ['f', 'not-exercised', { reason: 'ended early' }],
    ['new', 'passed'],
  ]);
  const c = compareReports(before, after);

  it('sorts every rule into newly failed, passed, warned, other changes and unchanged', () => {
    expect(c.newlyFailed.map((r) => r.id)).toEqual(['a']);
    expect(c.newlyPassed.map((r) => r.id)).toEqual(['b']);
    expect(c.newlyWarned.map((r) => r.id)).toEqual(['d']);
    expect(c.otherChanges.map((r) => `${r.id} ${r.before}→${r.after}`)).toEqual(['f skipped→not-exercised']);
    expect(c.unchanged).toBe(2);
    expect(c.onlyBefore).toEqual(['gone']);
    expect(c.onlyAfter).toEqual(['new']);
  });

  it('says what the deployment did in each for observed and warning rules', () => {
    expect(c.observedBoth).toEqual([
      expect.objectContaining({ id: 'c', beforeDetail: 'HTTP 200', afterDetail: 'HTTP 404' }),
    ]);
    expect(c.newlyWarned[0].afterDetail).toBe('answered 200 where 201 reads better');
    const md = compareMarkdown(before, after, c);
    expect(md).toMatch(/^## ❌ Conformance compared: 1 newly failed, 1 newly passed, 1 newly warned, 2 unchanged/);
    expect(md).toContain('| `a` | MUST | passed | failed | — | size: expected HTTP 400; received HTTP 200 |');
    expect(md).toContain('| `c` | UNSPECIFIED | observed | observed | HTTP 200 | HTTP 404 |');
  });
});
