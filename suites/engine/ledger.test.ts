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
  const track = (kind: string, id: string) =>
    ledger.track('t', { service: 'notification', kind, id, cleanup: async () => {} });
  track('recipient', '1002');
  const release = track('recipient group', 'cfzabc group');
  release();

  it.each([
    ['a path segment', 'https://x.example/api/notification/v3/recipient/1002', 'recipient 1002'],
    [
      'an encoded path segment',
      'https://x.example/api/notification/v3/group/cfzabc%20group',
      'recipient group cfzabc group',
    ],
    [
      'a query value',
      'https://x.example/api/notification/v3/recipient?groupid=cfzabc+group',
      'recipient group cfzabc group',
    ],
  ])('finds a resource by %s, deleted or not', (_, url, found) => {
    const r = ledger.createdIn(url);
    expect(r && `${r.kind} ${r.id}`).toBe(found);
  });

  it.each([
    ['an ID inside a longer segment', 'https://x.example/api/notification/v3/recipient/10020'],
    ['a URL naming nothing of the run', 'https://x.example/api/notification/v3/recipient/7'],
    ['no URL', 'not a url'],
  ])('finds nothing in %s', (_, url) => {
    expect(ledger.createdIn(url)).toBeUndefined();
  });

  it('finds a resource a bulk cleanup deletes, noted as created, in a URL that names it', () => {
    const ledger = new ResourceLedger();
    ledger.noteCreated({ service: 'event-management', kind: 'event', id: 'e-41' });
    expect(ledger.createdIn('http://h/api/eventmanagement/v3/events/e-41?x=1')).toEqual({
      service: 'event-management',
      kind: 'event',
      id: 'e-41',
    });
    expect(ledger.createdIn('http://h/api/eventmanagement/v3/events/e-42')).toBeUndefined();
  });
});
