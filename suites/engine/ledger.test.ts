import { describe, expect, it } from 'vitest';
import { ResourceLedger } from './ledger.ts';

const hang = () => new Promise<void>(() => undefined);

describe('the resource ledger', () => {
  it('spends at most its budget on deletions that hang or fail, then tries no more and lists what is left', async () => {
    const ledger = new ResourceLedger(undefined, 300);
    let deleted = 0;
    const slowButFine = () => new Promise<void>((r) => setTimeout(r, 150)).then(() => void deleted++);
    ledger.track('t1', { service: 's', kind: 'a', id: '1', cleanup: async () => void deleted++ });
    ledger.track('t1', { service: 's', kind: 'b', id: '2', cleanup: hang });
    ledger.track('t1', { service: 's', kind: 'c', id: '3', cleanup: slowButFine });
    const started = performance.now();
    await ledger.cleanup('t1');
    // Newest first: 3 went (deletions that succeed cost nothing), 2 hung until the budget was spent.
    expect(performance.now() - started).toBeLessThan(1200);
    // 1 was not tried: the budget was spent.
    expect(deleted).toBe(1);
    expect(ledger.stats.gaveUp).toBe(true);
    expect(ledger.outstanding().map((o) => o.id)).toEqual(['1', '2']);
    expect(ledger.stats.cleanupFailures.map((f) => f.id)).toEqual(['2']);
    // Nothing more is tried, in a test's pass or the final one.
    ledger.track('t2', { service: 's', kind: 'd', id: '4', cleanup: async () => void deleted++ });
    await ledger.cleanup('t2');
    await ledger.cleanup();
    expect(deleted).toBe(1);
    expect(ledger.outstanding().map((o) => o.id)).toEqual(['1', '2', '4']);
  });

  it('deletes neighbours of one kind at once, and a kind only once the newer kinds are gone', async () => {
    const ledger = new ResourceLedger();
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const deletion = (id: string) => () =>
      new Promise<void>((resolve) => {
        log.push(`start ${id}`);
        gates.set(id, () => {
          log.push(`end ${id}`);
          resolve();
        });
      });
    ledger.track('t', { service: 's', kind: 'type', id: 'T', cleanup: deletion('T') });
    for (const id of ['e1', 'e2', 'e3']) ledger.track('t', { service: 's', kind: 'event', id, cleanup: deletion(id) });
    const done = ledger.cleanup('t');
    await new Promise((r) => setTimeout(r, 10));
    // The three events are under way together; the type (older, another kind) waits for them.
    expect(log).toEqual(['start e3', 'start e2', 'start e1']);
    gates.get('e1')!();
    gates.get('e3')!();
    await new Promise((r) => setTimeout(r, 10));
    expect(log).not.toContain('start T');
    gates.get('e2')!();
    await new Promise((r) => setTimeout(r, 10));
    expect(log.at(-1)).toBe('start T');
    gates.get('T')!();
    await done;
    expect(ledger.outstanding()).toEqual([]);
    expect(ledger.stats.deleted).toBe(4);
  });

  it('drops the failure of a pass that a later pass made good (a creation still under way when it first ran)', async () => {
    const ledger = new ResourceLedger();
    let tries = 0;
    ledger.track('t1', {
      service: 's',
      kind: 'a',
      id: '1',
      cleanup: async () => {
        if (++tries === 1) throw new Error('HTTP 404');
      },
    });
    await ledger.cleanup();
    expect(ledger.stats.cleanupFailures.map((f) => f.id)).toEqual(['1']);
    await ledger.cleanup();
    expect(ledger.stats.cleanupFailures).toEqual([]);
    expect(ledger.outstanding()).toEqual([]);
    expect(ledger.size).toBe(1);
  });

  it('keeps failures of the final pass with their error', async () => {
    const ledger = new ResourceLedger();
    ledger.track('t1', {
      service: 's',
      kind: 'a',
      id: '1',
      cleanup: () => Promise.reject(new Error('HTTP 500')),
    });
    await ledger.cleanup();
    expect(ledger.stats.cleanupFailures).toEqual([{ service: 's', kind: 'a', id: '1', error: 'HTTP 500' }]);
    expect(ledger.outstanding()).toHaveLength(1);
  });
});

describe('what a request names of the run', () => {
  const ledger = new ResourceLedger();
  const track = (kind: string, id: string, service = 'notification') =>
    ledger.track('t', { service, kind, id, cleanup: async () => {} });
  track('recipient', '1002');
  const release = track('recipient group', 'cfzabc group');
  release();
  track('event type', 'conformhost.cfzmxdz6q4m6104etja2nr', 'event-management')();
  const EM = 'https://x.example/api/eventmanagement/v3';
  const TYPE = 'event type conformhost.cfzmxdz6q4m6104etja2nr';

  it.each([
    ['a path segment', { url: 'https://x.example/api/notification/v3/recipient/1002' }, 'recipient 1002'],
    [
      'an encoded path segment',
      { url: 'https://x.example/api/notification/v3/group/cfzabc%20group' },
      'recipient group cfzabc group',
    ],
    [
      'a query value',
      { url: 'https://x.example/api/notification/v3/recipient?groupid=cfzabc+group' },
      'recipient group cfzabc group',
    ],
    [
      'a filter of the query',
      { url: `${EM}/events?filter=${encodeURIComponent('{"typeId":"conformhost.cfzmxdz6q4m6104etja2nr"}')}` },
      TYPE,
    ],
    [
      'a filter of another dialect',
      { url: `${EM}/events?filter=${encodeURIComponent("typeId eq 'conformhost.cfzmxdz6q4m6104etja2nr'")}` },
      TYPE,
    ],
    [
      'the body',
      {
        url: `${EM}/jobs`,
        body: '{"events":[{"typeId":"conformhost.cfzmxdz6q4m6104etja2nr","timestamp":"2026-12-08T01:00:00Z"}]}',
      },
      TYPE,
    ],
    [
      'a body naming an ID of other characters',
      { url: 'https://x.example/api/notification/v3/recipient', body: '{"group":"cfzabc group"}' },
      'recipient group cfzabc group',
    ],
    [
      'a form value',
      { url: 'https://x.example/api/notification/v3/recipient', form: [{ value: '1002' }] },
      'recipient 1002',
    ],
  ])('finds a resource by %s, deleted or not', (_, request, found) => {
    const r = ledger.createdIn(request);
    expect(r && `${r.kind} ${r.id}`).toBe(found);
  });

  it.each([
    ['an ID inside a longer segment', { url: 'https://x.example/api/notification/v3/recipient/10020' }],
    ['a URL naming nothing of the run', { url: 'https://x.example/api/notification/v3/recipient/7' }],
    [
      'an ID inside a longer value of the body',
      { url: `${EM}/jobs`, body: '{"typeId":"conformhost.cfzmxdz6q4m6104etja2nrx"}' },
    ],
    [
      'an ID inside a longer query value',
      { url: `${EM}/events?q=${encodeURIComponent('xconformhost.cfzmxdz6q4m6104etja2nr')}` },
    ],
    [
      'an ID of other characters inside a longer value',
      { url: 'https://x.example/api/notification/v3/recipient', body: '{"group":"cfzabc groups"}' },
    ],
    ['a number of the body that is the ID of another service', { url: `${EM}/events`, body: '{"severity":1002}' }],
    ['no URL', { url: 'not a url' }],
  ])('finds nothing in %s', (_, request) => {
    expect(ledger.createdIn(request)).toBeUndefined();
  });

  it('finds a resource a bulk cleanup deletes, noted as created, in a URL or body that names it', () => {
    const ledger = new ResourceLedger();
    ledger.noteCreated({ service: 'event-management', kind: 'event', id: 'e-41' });
    const event = { service: 'event-management', kind: 'event', id: 'e-41' };
    expect(ledger.createdIn({ url: 'http://h/api/eventmanagement/v3/events/e-41?x=1' })).toEqual(event);
    expect(ledger.createdIn({ url: 'http://h/api/eventmanagement/v3/jobs', body: '{"ids":["e-41"]}' })).toEqual(event);
    expect(ledger.createdIn({ url: 'http://h/api/eventmanagement/v3/events/e-42' })).toBeUndefined();
  });
});
