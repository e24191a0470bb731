import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from './conformance-report.ts';
import { mergeReports } from './merge-reports.ts';
import { summaryMarkdown } from './summary-markdown.ts';

function shard(name: string, rules: Array<[string, RuleResult['status']]>, extra: Partial<ConformanceReport> = {}) {
  return {
    tool: { name: 'platform-conformance', version: '0.1.0' },
    contracts: { versions: { notification: '1' }, hash: 'h' },
    target: 'http://x',
    seed: 1,
    startedAt: '2026-11-21T00:00:00.000Z',
    finishedAt: '2026-11-21T00:01:00.000Z',
    durationMs: 60_000,
    interrupted: false,
    verdict: 'passed',
    errors: [],
    shard: name,
    rules: rules.map(([id, status]) => ({
      id,
      service: 'notification',
      level: 'MUST',
      status,
      tests: [`${name} test`],
    })),
    ...extra,
  } as unknown as ConformanceReport;
}

describe('merging the reports of a run’s shards', () => {
  it('keeps the strongest evidence per rule and the tests of every shard', () => {
    const merged = mergeReports([
      shard('1/2', [
        ['a', 'passed'],
        ['b', 'skipped'],
      ]),
      shard('2/2', [
        ['a', 'warning'],
        ['b', 'passed'],
      ]),
    ]);
    expect(merged.rules.map((r) => [r.id, r.status])).toEqual([
      ['a', 'warning'],
      ['b', 'passed'],
    ]);
    expect(merged.rules[0].tests).toEqual(['1/2 test', '2/2 test']);
    expect(merged.verdict).toBe('passed');
    expect(merged.stopped).toBeUndefined();
  });

  it('carries a shard’s early stop into the whole, naming the shard', () => {
    const stop = { reason: 'target-unresponsive' as const, detail: 'no answer since 10:00' };
    const merged = mergeReports([
      shard('1/2', [['a', 'passed']]),
      shard('2/2', [['a', 'not-exercised']], { interrupted: true, stopped: stop }),
    ]);
    expect(merged.stopped).toEqual({ reason: 'target-unresponsive', detail: '2/2: no answer since 10:00' });
    expect(merged.interrupted).toBe(true);
    expect(merged.verdict).toBe('failed');
    expect(summaryMarkdown(merged)).toContain('Conformance failed (target-unresponsive)');
  });
});
