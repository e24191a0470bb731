import { describe, expect, it } from 'vitest';
import { storedAsSent } from './stored-as-sent.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';

describe('storedAsSent', () => {
  it('passes a value given back as sent and titles one that is not', () => {
    const { t, meta } = checkContext([RULE]);
    expect(storedAsSent(t, { rule: RULE, what: 'ttl', sent: 30, stored: 30 })).toBe(true);
    expect(meta.outcomes[RULE].status).toBe('passed');
    const c = checkContext([RULE]);
    expect(() => storedAsSent(c.t, { rule: RULE, what: 'ttl', sent: 30, stored: '30' })).toThrow();
    expect(c.meta.outcomes[RULE].failure).toMatchObject({ title: 'ttl not stored as sent', expected: '30' });
  });
});
