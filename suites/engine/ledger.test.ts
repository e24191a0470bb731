import { describe, expect, it } from 'vitest';
import { ResourceLedger } from './ledger.ts';

const hang = () => new Promise<void>(() => undefined);

describe('the resource ledger', () => {
  it('ends a cleanup pass within its budget and keeps what it could not delete as outstanding', async () => {
    const ledger = new ResourceLedger(undefined, 300);
    let deleted = 0;
    ledger.track('t1', { service: 's', kind: 'a', id: '1', cleanup: async () => void deleted++ });
    ledger.track('t1', { service: 's', kind: 'b', id: '2', cleanup: hang });
    ledger.track('t1', { service: 's', kind: 'c', id: '3', cleanup: async () => void deleted++ });
    const started = performance.now();
    await ledger.cleanup('t1');
    expect(performance.now() - started).toBeLessThan(1000);
    // Newest first: 3 went, 2 hung until the budget ran out, 1 was not reached in this pass.
    expect(deleted).toBe(1);
    expect(ledger.outstanding().map((o) => o.id)).toEqual(['1', '2']);
    expect(ledger.stats.passesOverBudget).toBe(1);
    // The next pass has a budget of its own.
    await ledger.cleanup();
    expect(ledger.outstanding().map((o) => o.id)).toEqual(['2']);
    expect(deleted).toBe(2);
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
