import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { buildReport, judgeRule } from '../../reporters/conformance-report.ts';
import { RuleContext, type RuleOutcome, type RuleTestMeta } from './rule-test.ts';
import { DEFAULT_MAX_BODY_BYTES, TransportError, type Exchange } from './http-client.ts';
import { announceStop, stopSignalOf } from './run-stop.ts';
import { ConfigurationUnavailable } from './unjudged.ts';
import type { TestRecord } from './suite-runner.ts';
import { listWithBadItems } from '../../generators/index.ts';

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

describe('a check that rests on our reading gives a warning, never a failure (unless --strict)', () => {
  const S = 'notification/categories/subject-alphanumeric';
  const subject = loadRules(['notification']).find((r) => r.id === S)!;
  const nfacts = { services: ['notification' as const], interrupted: false, reportFile: 'r.json' };
  const nctx = () => {
    const meta: RuleTestMeta = { rules: [S], outcomes: {}, service: 'notification', budget: 1, readOnly: true };
    const t = new RuleContext({} as never, 'notification', meta, 's', { task: { name: 'x' } } as never);
    return { t, meta };
  };
  const nrecord = (outcomes: Record<string, RuleOutcome>): TestRecord => ({
    ...record(outcomes),
    service: 'notification',
  });
  const full = {
    toolVersion: '0',
    target: 'http://127.0.0.1:1',
    embedded: true,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    seed: 1,
    options: {},
    errors: [],
  };

  it('records a warning with the reading, and the test goes on', () => {
    const { t, meta } = nctx();
    t.verify(S, true, ok);
    expect(t.reading('subject-space', S, false, ok)).toBe(false);
    t.verify(S, true, ok);
    expect(() => t.finish()).not.toThrow();
    expect(meta.outcomes[S]).toMatchObject({ status: 'warning', warning: { reading: 'subject-space' } });
    expect(meta.outcomes[S].warning?.text).toMatch(/Alphanumeric only/);
    const judged = judgeRule(subject, [nrecord(meta.outcomes)], nfacts);
    expect(judged.status).toBe('warning');
    expect(judged.warning).toMatchObject({ reading: 'subject-space', expected: 'e', received: 'r', test: 'x' });
    const report = buildReport([subject], [nrecord(meta.outcomes)], { ...nfacts, ...full });
    expect(report.verdict).toBe('passed');
    expect(report.counts.byStatus.warning).toBe(1);
  });

  it('--strict turns the warning into a failure', () => {
    const { t, meta } = nctx();
    t.reading('subject-space', S, false, ok);
    const report = buildReport([subject], [nrecord(meta.outcomes)], { ...nfacts, ...full, strict: true });
    expect(report.rules[0].status).toBe('failed');
    expect(report.rules[0].failure?.title).toMatch(/subject-space.*--strict/);
    expect(report.verdict).toBe('failed');
  });

  it('a failed document check wins over a failed reading, in either order', () => {
    for (const order of [0, 1]) {
      const { t, meta } = nctx();
      if (order) t.verify(S, false, ok);
      t.reading('subject-space', S, false, ok);
      if (!order) t.verify(S, false, ok);
      expect(meta.outcomes[S].status).toBe('failed');
      expect(judgeRule(subject, [nrecord(meta.outcomes)], nfacts).status).toBe('failed');
    }
  });

  it('a 5xx answer is never a reading: the check fails its rule, soft or hard', () => {
    const res = { status: 500, headers: {}, contentType: 'application/json', text: '{}', body: {} } as never;
    const soft = nctx();
    soft.t.reading('subject-space', S, false, { ...ok, response: res });
    expect(soft.meta.outcomes[S].status).toBe('failed');
    expect(soft.meta.outcomes[S].failure?.title).toMatch(/HTTP 500 where reading subject-space/);
    const hard = nctx();
    expect(() => hard.t.check(S, false, { ...ok, received: 'HTTP 503 {}', reading: 'subject-space' })).toThrow(
      /HTTP 503/,
    );
    expect(hard.meta.outcomes[S].status).toBe('failed');
    const fourxx = nctx();
    fourxx.t.reading('subject-space', S, false, { ...ok, received: 'HTTP 409 {}' });
    expect(fourxx.meta.outcomes[S].status).toBe('warning');
  });

  it('a reading the catalog does not list for the rule is a suite defect', () => {
    const { t } = nctx();
    expect(() => t.reading('no-such-reading', S, false, ok)).toThrow(/suite defect/);
  });

  it('a hard check with a reading records the warning and ends the test without a failure', () => {
    const { t, meta } = nctx();
    let thrown: unknown;
    try {
      t.check(S, false, { ...ok, reading: 'subject-space' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as { ruleId?: string }).ruleId).toBeUndefined();
    expect(meta.outcomes[S].status).toBe('warning');
  });
});

describe('a rule reports every distinct failure it met, each with the request that failed it', () => {
  const exchange = (status: number, body: string, url: string): Exchange => ({
    request: { method: 'GET', url, headers: {} },
    response: { status, headers: {}, body },
    curl: `curl -sS '${url}'`,
  });

  it('keeps two distinct failures of one rule in one test, the first first', () => {
    const { t, meta } = context();
    t.verify(A, false, { title: 'one', expected: 'e1', received: 'r1' });
    t.verify(A, false, { title: 'two', expected: 'e2', received: 'r2' });
    t.verify(A, false, { title: 'one', expected: 'e1', received: 'r1 again' });
    expect(meta.outcomes[A].failure?.title).toBe('one');
    expect(meta.outcomes[A].failures?.map((f) => f.title)).toEqual(['one', 'two']);
    const judged = judgeRule(rule, [record(meta.outcomes)], facts);
    expect(judged.failure?.title).toBe('one');
    expect(judged.failures?.map((f) => f.title)).toEqual(['one', 'two']);
  });

  it('keeps the failures of every test of the rule', () => {
    const a = context();
    a.t.verify(A, false, { title: 'in x', expected: 'e', received: 'r' });
    const b = context();
    b.t.verify(A, false, { title: 'in y', expected: 'e', received: 'r' });
    const judged = judgeRule(rule, [record(a.meta.outcomes, 'x'), record(b.meta.outcomes, 'y')], facts);
    expect(judged.failures?.map((f) => [f.title, f.test])).toEqual([
      ['in x', 'x'],
      ['in y', 'y'],
    ]);
  });

  it("a reading's warning in one test never hides a document failure in another", () => {
    const S = 'notification/categories/subject-alphanumeric';
    const subject = loadRules(['notification']).find((r) => r.id === S)!;
    const mk = () => {
      const meta: RuleTestMeta = { rules: [S], outcomes: {}, service: 'notification', budget: 1, readOnly: true };
      return { t: new RuleContext({} as never, 'notification', meta, 's', { task: { name: 'x' } } as never), meta };
    };
    const w = mk();
    w.t.reading('subject-space', S, false, ok);
    const f = mk();
    f.t.verify(S, false, { title: 'document', expected: 'e', received: 'r' });
    const nrec = (o: Record<string, RuleOutcome>, name: string) => ({
      ...record(o, name),
      service: 'notification' as const,
    });
    const judged = judgeRule(subject, [nrec(w.meta.outcomes, 'w'), nrec(f.meta.outcomes, 'f')], {
      ...facts,
      services: ['notification'],
    });
    expect(judged.status).toBe('failed');
    expect(judged.failure?.title).toBe('document');
    expect(judged.warning?.reading).toBe('subject-space');
  });

  it('shows the exchange whose answer failed the check, not the test’s last request', () => {
    const { t, meta } = context();
    t.exchanges.push(exchange(400, '{"message":"bad filter"}', 'http://h/filtered'));
    t.exchanges.push(exchange(200, '{"id":1}', 'http://h/by-id'));
    t.verify(A, false, { title: 'refused', expected: 'HTTP 200', received: 'HTTP 400 {"message":"bad filter"}' });
    expect(meta.outcomes[A].failure?.curl).toBe("curl -sS 'http://h/filtered'");
  });

  it('a check whose Received is JSON.stringify of nothing fails its rule (no TypeError that would leave it passed)', () => {
    const { t, meta } = context();
    t.exchanges.push(exchange(201, '{"id":1}', 'http://h/created'));
    t.verify(A, false, { title: 'no sharing', expected: 'sharing.modes array', received: JSON.stringify(undefined) });
    expect(meta.outcomes[A]).toMatchObject({ status: 'failed', failure: { received: 'undefined' } });
  });

  it('a property keeps its shrunk failure and one failure of each other rule it met', async () => {
    const { meta } = context();
    const session = { context: { seed: 1, runs: 20 } };
    const tp = new RuleContext(session as never, 'technical-token-manager', meta, 's', {
      task: { name: 'x' },
    } as never);
    await expect(
      tp.property(
        fc.integer({ min: 0, max: 1000 }),
        async (n) => {
          tp.verify(B, n < 0, { title: 'soft on B', expected: 'e', received: `r${n}` });
          tp.check(A, n < 10, { title: `A at ${n}`, expected: 'n < 10', received: String(n) });
        },
        { rule: A },
      ),
    ).rejects.toThrow();
    expect(meta.outcomes[A].failures ?? [meta.outcomes[A].failure]).toHaveLength(1);
    expect(meta.outcomes[A].failure?.title).toBe('A at 10');
    expect(meta.outcomes[B].failures ?? [meta.outcomes[B].failure]).toHaveLength(1);
  });
});

describe('a property reports each check of a rule that failed, with its own counterexample', () => {
  const property = () => {
    const { meta } = context();
    const session = { context: { seed: 1, runs: 20 } };
    const t = new RuleContext(session as never, 'technical-token-manager', meta, 's', { task: { name: 'x' } } as never);
    return { t, meta };
  };

  it('runs again without a check that failed, so a second check of the rule shows too', async () => {
    const { t, meta } = property();
    await expect(
      t.property(
        fc.integer({ min: 0, max: 1000 }),
        async (n) => {
          t.check(A, n < 10, { title: 'first check', expected: 'n < 10', received: String(n) });
          t.verify(A, n % 2 === 0, { title: 'second check', expected: 'n even', received: String(n) });
        },
        { rule: A },
      ),
    ).rejects.toThrow(/check/);
    const shrunk = (meta.outcomes[A].failures ?? []).filter((f) => f.counterexample !== undefined);
    expect(shrunk.map((f) => f.title).sort()).toEqual(['first check', 'second check']);
    expect(shrunk.find((f) => f.title === 'first check')?.counterexample).toBe(10);
  });

  it('tries the lists of listWithBadItems first: a check of the first item only fails on every seed', async () => {
    for (const seed of [1, 2, 3]) {
      const { meta } = context();
      const t = new RuleContext({ context: { seed, runs: 1 } } as never, 'technical-token-manager', meta, 's', {
        task: { name: 'x' },
      } as never);
      const lists = listWithBadItems({ rule: A, valid: ['a', 'b'], bad: { bad: 'x' } });
      await expect(
        t.property(
          lists,
          async (list) => {
            const refused = list.items[0] === 'x';
            t.check(A, refused, { title: 'bad item taken', expected: 'refused', received: list.items.join(',') });
          },
          { rule: A },
        ),
      ).rejects.toThrow(/bad item taken/);
      expect(meta.outcomes[A].failure?.counterexample).toMatchObject({ items: ['a', 'x'] });
    }
  });
});

describe('a property whose request the stopping run did not send', () => {
  it('ends unjudged with the stop, never as a counterexample that fails its rule', async () => {
    const runId = 'stop-inside-a-property';
    const stopped = stopSignalOf(runId);
    announceStop(runId);
    if (!stopped.aborted) await new Promise((r) => stopped.addEventListener('abort', r, { once: true }));
    const { meta } = context();
    const t = new RuleContext(
      { context: { seed: 1, runs: 20, runId } } as never,
      'technical-token-manager',
      meta,
      's',
      {
        task: { name: 'x' },
      } as never,
    );
    let calls = 0;
    const notSent = new TransportError('ABORTED', 'POST /x: not sent: the run is stopping');
    await expect(
      t.property(
        fc.integer(),
        async () => {
          calls++;
          throw notSent;
        },
        { rule: A },
      ),
    ).rejects.toBe(notSent);
    expect(calls).toBe(1);
    expect(meta.outcomes[A]?.status).not.toBe('failed');
    expect(t.runStopped(notSent)).toBe(true);
    // The same error in a run that goes on is not a stop: it is judged as the target's answer.
    const other = new RuleContext(
      { context: { seed: 1, runs: 1, runId: 'a-run-going-on' } } as never,
      'technical-token-manager',
      meta,
      's',
      {
        task: { name: 'x' },
      } as never,
    );
    expect(other.runStopped(notSent)).toBe(false);
  });
});

describe('an answer larger than the run takes (--max-body)', () => {
  const tooLarge = new TransportError('BODY_TOO_LARGE', 'GET /x: body too_large: response body larger than 1024 bytes');
  const contextOf = (maxBodyBytes?: number) =>
    new RuleContext(
      { context: { seed: 1, runs: 1, maxBodyBytes } } as never,
      'technical-token-manager',
      context().meta,
      's',
      { task: { name: 'x' } } as never,
    );

  it("below the default, is the user's own bound: a skip naming --max-body, never the target's failure", async () => {
    const unjudged = await contextOf(1024).targetGone(tooLarge);
    expect(unjudged).toBeInstanceOf(ConfigurationUnavailable);
    expect(unjudged?.status).toBe('skipped');
    expect(unjudged?.message).toMatch(
      /^--max-body: an answer was larger than the run takes \(GET \/x: .*\); the default --max-body judges it$/,
    );
  });

  it("at the default (8 MiB), or an answer without end, is judged as the target's answer", async () => {
    expect(await contextOf(DEFAULT_MAX_BODY_BYTES).targetGone(tooLarge)).toBeUndefined();
    expect(await contextOf(undefined).targetGone(tooLarge)).toBeUndefined();
  });
});
