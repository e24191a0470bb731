import { describe, expect, it } from 'vitest';
import { isLeftover } from './leftovers.ts';

describe('leftovers of crashed runs', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const prefix = (t: number) => `cfz${t.toString(36)}ab12`;
  it('recognises the prefix of a run that started more than an hour ago', () => {
    expect(isLeftover(`${prefix(now - 2 * 3600_000)}recipient`, now)).toBe(true);
    expect(isLeftover(`conformhost.${prefix(now - 2 * 3600_000)}type`, now)).toBe(true);
  });
  it('leaves alone recent runs, the current run and names without the prefix', () => {
    expect(isLeftover(`${prefix(now - 60_000)}x`, now)).toBe(false);
    const mine = prefix(now - 3 * 3600_000);
    expect(isLeftover(`${mine}x`, now, mine)).toBe(false);
    expect(isLeftover('pump-station-7', now)).toBe(false);
    expect(isLeftover(42, now)).toBe(false);
  });
});
