import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from './conformance-report.ts';
import { mergeReports, shardSetProblem, type GivenReport } from './merge-reports.ts';
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

describe('what merge takes: every shard of one run, each once', () => {
  const options = { services: ['notification'], rules: [], runs: 25, profile: 'full', rate: 0, concurrency: 8 };
  /** Shard `name` of the run of seed 1 against http://x, as read from `source` (its file: `file`). */
  const given = (
    name: string | undefined,
    extra: Partial<ConformanceReport> = {},
    source = `dir-${name}`,
    file = source,
  ): GivenReport => ({ source, file, report: shard(name as string, [['a', 'passed']], { options, ...extra }) });

  it.each<[string, GivenReport[]]>([
    ['every shard of one run', [given('1/3'), given('2/3'), given('3/3')]],
    ['in any order', [given('3/3'), given('1/3'), given('2/3')]],
    ['the one shard of 1/1', [given('1/1')]],
    ['one whole run alone', [given(undefined)]],
    [
      'shards paced differently on different machines',
      [given('1/2'), given('2/2', { options: { ...options, rate: 20, concurrency: 2 } })],
    ],
    [
      'shards each against its own embedded reference',
      [given('1/2', { embeddedReference: true }), given('2/2', { embeddedReference: true, target: 'http://y' })],
    ],
  ])('merges %s', (_name, reports) => {
    expect(shardSetProblem(reports)).toBeUndefined();
  });

  it.each<[string, GivenReport[], string]>([
    ['the same report twice', [given('1/2'), given('1/2')], 'dir-1/2 is given twice'],
    [
      'one file under two names',
      [given('1/2', {}, 'a/'), given('1/2', {}, 'a/report.json', 'a/')],
      'a/ and a/report.json are one report',
    ],
    [
      'a copy of one shard',
      [given('1/2', {}, 'a'), given('1/2', {}, 'b'), given('2/2')],
      'shard 1/2 is given twice: a and b',
    ],
    [
      'two whole runs',
      [given(undefined, {}, 'a'), given(undefined, {}, 'b')],
      "a is not one shard's report (a run without --shard)",
    ],
    ['a whole run among shards', [given('1/2'), given(undefined, {}, 'whole')], "whole is not one shard's report"],
    [
      'a merged report among shards',
      [given('merged 1/2, 2/2', {}, 'm'), given('1/2')],
      "m is not one shard's report (its shard: merged 1/2, 2/2)",
    ],
    [
      'other targets',
      [given('1/2'), given('2/2', { target: 'http://y' })],
      'not shards of one run: target http://x ≠ http://y',
    ],
    [
      'the embedded reference and a deployment',
      [given('1/2'), given('2/2', { embeddedReference: true })],
      'target http://x ≠ the embedded reference',
    ],
    [
      'other seeds',
      [given('1/2'), given('2/2', { seed: 2 })],
      'seed 1 ≠ 2 (every shard of a run takes the same --seed)',
    ],
    [
      'other tool versions',
      [given('1/2'), given('2/2', { tool: { name: 'platform-conformance', version: '0.2.0' } })],
      'tool platform-conformance 0.1.0 ≠ platform-conformance 0.2.0',
    ],
    [
      'other contracts',
      [given('1/2'), given('2/2', { contracts: { versions: { notification: '1' }, hash: 'h2' } as never })],
      'contracts h ≠ h2',
    ],
    [
      'other profiles',
      [given('1/2'), given('2/2', { options: { ...options, profile: 'read-only' } })],
      'profile full ≠ read-only',
    ],
    [
      'other services',
      [given('1/2'), given('2/2', { options: { ...options, services: ['event-management'] } })],
      'option services ["notification"] ≠ ["event-management"]',
    ],
    ['other shard layouts', [given('1/2'), given('2/3')], 'shards 1/2 and 2/3 of different layouts'],
    ['a shard missing', [given('1/3'), given('3/3')], 'shard 2/3 of the run is missing'],
    ['one shard of three alone', [given('1/3')], 'shards 2/3, 3/3 of the run are missing'],
    [
      'one shard of a million',
      [given('5/1000000')],
      'shards 1/1000000, 2/1000000, 3/1000000, 4/1000000, 6/1000000, 7/1000000, 8/1000000, 9/1000000, 10/1000000, 11/1000000 and 999989 more of the run are missing',
    ],
  ])('refuses %s, naming why', (_name, reports, why) => {
    expect(shardSetProblem(reports)).toContain(why);
  });

  it('shows a name from the command line or a report escaped, on one line', () => {
    const problem = shardSetProblem([
      given('1/2', {}, 'a\x1b[2J\nb'),
      given('2/2', { target: 'http://y\n##[error]x' }),
    ]);
    expect([...(problem ?? '')].filter((ch) => ch < ' ')).toEqual([]);
    expect(problem).not.toContain('##[');
  });
});
