import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from '../reporters/conformance-report.ts';
import { compareMarkdown } from './compare-markdown.ts';
import { compareReports } from './compare-reports.ts';

function report(rules: Array<[string, string, Partial<RuleResult>?]>, verdict = 'passed'): ConformanceReport {
  return {
    tool: { name: 'platform-conformance', version: '0.1.0' },
    target: 'http://x',
    seed: 1,
    finishedAt: '2026-11-21T00:00:00.000Z',
    verdict,
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
    expect(md).toMatch(
      /^## ❌ Conformance compared: 1 newly failed, 1 no longer judged, 1 newly passed, 1 newly warned, 2 unchanged/,
    );
    expect(md).toContain('| `a` | MUST | passed | failed | — | size: expected HTTP 400; received HTTP 200 |');
    expect(md).toContain('| `c` | UNSPECIFIED | observed | observed | HTTP 200 | HTTP 404 |');
  });
});

describe('the compare gate', () => {
  const failed = { failure: { title: 't', expected: 'HTTP 400', received: 'HTTP 201' } as never };

  it('fails on a MUST rule judged before and absent now (a narrowed second report), not on a MAY rule newly failed', () => {
    const narrowed = compareReports(
      report([
        ['a', 'passed'],
        ['gone', 'passed'],
      ]),
      report([['a', 'passed']]),
    );
    expect(narrowed.noLongerJudged).toEqual([
      expect.objectContaining({ id: 'gone', before: 'passed', after: 'absent' }),
    ]);
    expect(narrowed.gate).toEqual({ passed: false, why: ['1 MUST or SHOULD rule no longer judged'] });
    const may = compareReports(
      report([['m', 'passed', { level: 'MAY' }]]),
      report([['m', 'failed', { level: 'MAY', ...failed }]]),
    );
    expect(may.newlyFailed.map((r) => r.id)).toEqual(['m']);
    expect(may.gate.passed).toBe(true);
  });

  it('counts a rule failed now and absent before as newly failed, and fails the gate', () => {
    const c = compareReports(
      report([['a', 'passed']]),
      report(
        [
          ['a', 'passed'],
          ['new', 'failed', failed],
        ],
        'failed',
      ),
    );
    expect(c.newlyFailed).toEqual([expect.objectContaining({ id: 'new', before: 'absent', after: 'failed' })]);
    expect(c.onlyAfter).toEqual(['new']);
    expect(c.gate).toEqual({ passed: false, why: ['1 newly failed'] });
    const md = compareMarkdown(report([]), report([]), c);
    expect(md).toMatch(/^## ❌ Conformance compared: 1 newly failed,/);
    expect(md).toContain('| `new` | MUST | absent | failed | — | t: expected HTTP 400; received HTTP 201 |');
  });

  it.each([
    ['passed', 'skipped'],
    ['passed', 'not-exercised'],
    ['warning', 'skipped'],
    ['failed', 'not-exercised'],
  ])('fails on a MUST rule %s before and %s now: no longer judged, in the headline', (was, now) => {
    const before = report([
      ['a', was],
      ['b', 'passed'],
    ]);
    const after = report([
      ['a', now, { reason: 'not ready' }],
      ['b', 'passed'],
    ]);
    const c = compareReports(before, after);
    expect(c.noLongerJudged.map((r) => `${r.id} ${r.before}→${r.after}`)).toEqual([`a ${was}→${now}`]);
    expect(c.otherChanges).toEqual([]);
    expect(c.gate).toEqual({ passed: false, why: ['1 MUST or SHOULD rule no longer judged'] });
    const md = compareMarkdown(before, after, c);
    expect(md).toMatch(/^## ❌ Conformance compared: 0 newly failed, 1 no longer judged, /);
    expect(md).toContain('- the gate fails (exit 1): 1 MUST or SHOULD rule no longer judged');
    expect(md).toContain(`| \`a\` | MUST | ${was} | ${now} |`);
  });

  it('shows MAY and UNSPECIFIED rules no longer judged without failing the gate, never under ✅', () => {
    const before = report([
      ['may', 'passed', { level: 'MAY' }],
      ['seen', 'observed', { level: 'UNSPECIFIED', observed: ['HTTP 200'] }],
    ]);
    const after = report([
      ['may', 'skipped', { level: 'MAY' }],
      ['seen', 'not-exercised', { level: 'UNSPECIFIED' }],
    ]);
    const c = compareReports(before, after);
    expect(c.noLongerJudged).toHaveLength(2);
    expect(c.gate.passed).toBe(true);
    expect(compareMarkdown(before, after, c)).toMatch(
      /^## ⚠️ Conformance compared: 0 newly failed, 2 no longer judged, /,
    );
  });

  it('passes with ✅ only when nothing regressed, nothing was lost and the second report passed', () => {
    const same = report([
      ['a', 'passed'],
      ['b', 'skipped'],
    ]);
    const c = compareReports(same, same);
    expect(c.gate).toEqual({ passed: true, why: [] });
    expect(compareMarkdown(same, same, c)).toMatch(/^## ✅ Conformance compared: 0 newly failed, 0 newly passed/);
    const stillFailing = report([['a', 'failed', failed]], 'failed');
    expect(compareMarkdown(stillFailing, stillFailing, compareReports(stillFailing, stillFailing))).toMatch(/^## ⚠️ /);
  });
});
