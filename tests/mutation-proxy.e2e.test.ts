import { describe, expect, it } from 'vitest';
import { MUTATIONS, mutate, type ProxiedAnswer } from './mutation-proxy.ts';
import { mutationRun } from './mutation-run.ts';

const answer = (): ProxiedAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json', etag: '"3"' },
  body: Buffer.from(
    JSON.stringify({
      id: 'a',
      state: 'ACCEPTED',
      n: 3,
      _links: { self: { href: 'http://h/x/1' }, next: { href: 'http://h/x/2' } },
    }),
  ),
});

describe('the mutation proxy', () => {
  it('spoils an answer in each of its ways', () => {
    let i = 0;
    const rnd = () => [0.3, 0.7, 0.1, 0.9][i++ % 4];
    for (const m of MUTATIONS) {
      const before = answer();
      const after = mutate(m, before, rnd);
      expect(
        after.status !== before.status ||
          after.body.toString() !== before.body.toString() ||
          JSON.stringify(after.headers) !== JSON.stringify(before.headers),
        m,
      ).toBe(true);
    }
    const linked = JSON.parse(mutate('link-self-referential', answer(), rnd).body.toString()) as {
      _links: Record<string, { href: string }>;
    };
    expect(linked._links.next.href).toBe(linked._links.self.href);
  });
});

// A slice of the seeds (`npm run bench:bounded` runs 30 and more): each run ends within its
// budget with a schema-valid report, every spoiled answer surfaces as the target's failed
// rule, and the suite's own code meets no error (TypeError, unhandled rejection).
describe('runs against answers spoiled by the mutation proxy', () => {
  for (const [service, seed] of [
    ['technical-token-manager', 11],
    ['notification', 12],
    ['event-management', 13],
  ] as const) {
    it(`${service}, seed ${seed}`, async () => {
      const r = await mutationRun({ service, seed, share: 0.15, budgetMs: 150_000, args: ['--runs', '5'] });
      expect(r.overBudget, r.output).toBe(false);
      // 1 when a rule failed; 5 when the spoiled answers made the target count as unresponsive first.
      expect([1, 5], r.output).toContain(r.code);
      expect(r.schemaErrors).toEqual([]);
      expect(r.suiteErrors).toEqual([]);
      expect(Object.entries(r.mutations).filter(([k]) => k !== 'untouched').length).toBeGreaterThan(0);
      expect(r.failedRules).toBeGreaterThan(0);
    }, 160_000);
  }
});

describe('a target whose deletions hang', () => {
  it('costs the run at most the cleanup budget: the run ends, listing what it could not delete and how to sweep it', async () => {
    const r = await mutationRun({
      service: 'notification',
      seed: 1,
      hold: (method) => method === 'DELETE',
      budgetMs: 150_000,
      args: ['--cleanup-timeout', '3s', '--timeout', '1000', '--runs', '5'],
    });
    expect(r.overBudget, r.output).toBe(false);
    expect(r.code, r.output).toBe(1);
    expect(r.schemaErrors).toEqual([]);
    expect(r.suiteErrors).toEqual([]);
    expect(r.mutations.held).toBeGreaterThan(0);
    const cleanup = r.report?.cleanup;
    expect(cleanup?.outstanding.length).toBeGreaterThan(0);
    expect(cleanup?.sweep).toMatch(
      /^they carry the prefix cfz[0-9a-z]+; .* npx conformance run --config \S+ --service notification$/,
    );
    expect(r.output).toContain('could not be deleted');
  }, 160_000);
});

describe('target health', () => {
  it('a short blip (seven requests reset in a row) does not make the target count as unresponsive', async () => {
    const r = await mutationRun({
      service: 'technical-token-manager',
      seed: 1,
      reset: (n) => n >= 40 && n < 47,
      budgetMs: 120_000,
      args: ['--concurrency', '1'],
    });
    expect(r.overBudget, r.output).toBe(false);
    expect(r.mutations.reset).toBe(7);
    expect(r.schemaErrors).toEqual([]);
    expect(r.report?.stopped).toBeUndefined();
    expect(r.report?.rules.filter((x) => x.reason?.includes('unresponsive'))).toEqual([]);
    expect(r.report?.counts.byStatus.passed).toBeGreaterThan(30);
  }, 130_000);

  it('a target that stops answering: the tests left are not run, their rules say since when, exit 5 (1 if a rule failed first) with the report', async () => {
    const r = await mutationRun({
      service: 'technical-token-manager',
      seed: 1,
      reset: (n) => n >= 40,
      budgetMs: 120_000,
      args: ['--concurrency', '1'],
    });
    expect(r.overBudget, r.output).toBe(false);
    expect(r.code).toBe(r.report?.counts.byStatus.failed ? 1 : 5);
    expect(r.schemaErrors).toEqual([]);
    expect(r.report?.stopped?.reason).toBe('target-unresponsive');
    expect(r.report?.stopped?.detail).toMatch(/^target unresponsive since \d{4}-\d\d-\d\dT/);
    const notRun = r.report?.rules.filter((x) => x.reason?.startsWith('target unresponsive since')) ?? [];
    expect(notRun.length).toBeGreaterThan(10);
    expect(notRun.every((x) => x.status === 'not-exercised' && x.reasonCode === 'target-unresponsive')).toBe(true);
    expect(r.output).toContain('stopped early: target unresponsive since');
  }, 130_000);
});
