import { describe, expect, it } from 'vitest';
import { storedAsSent } from './stored-as-sent.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';

describe('storedAsSent', () => {
  it('passes members given back as sent and titles one that is not', () => {
    const { t, meta } = checkContext([RULE]);
    expect(storedAsSent(t, { rule: RULE, what: 'ttl', sent: { ttl: 30 }, stored: { ttl: 30, name: 'x' } })).toBe(true);
    expect(meta.outcomes[RULE].status).toBe('passed');
    const c = checkContext([RULE]);
    expect(() => storedAsSent(c.t, { rule: RULE, what: 'ttl', sent: { ttl: 30 }, stored: { ttl: '30' } })).toThrow();
    expect(c.meta.outcomes[RULE].failure).toMatchObject({ title: 'not stored as sent: ttl', expected: 'ttl 30' });
  });

  it('takes a test of a member the service makes', () => {
    const { t, meta } = checkContext([RULE]);
    storedAsSent(t, {
      rule: RULE,
      what: 'id',
      sent: { id: (v: unknown) => typeof v === 'string' },
      stored: { id: 'x' },
    });
    expect(meta.outcomes[RULE].status).toBe('passed');
  });
});
