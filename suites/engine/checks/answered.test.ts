import { describe, expect, it } from 'vitest';
import { answered } from './answered.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';

describe('answered', () => {
  it('passes one of the statuses (200 unless told)', () => {
    const { t, meta } = checkContext([RULE]);
    expect(answered(t, { rule: RULE, res: answer(200), what: 'GET /events' })).toBe(true);
    expect(answered(t, { rule: RULE, res: answer(202), what: 'a job', statuses: [202] })).toBe(true);
    expect(meta.outcomes[RULE].status).toBe('passed');
  });

  it('titles the failure by the request and the statuses', () => {
    const { t, meta } = checkContext([RULE]);
    expect(() => answered(t, { rule: RULE, res: answer(400), what: 'GET /events' })).toThrow();
    expect(meta.outcomes[RULE].failure).toMatchObject({
      title: 'GET /events not answered 200',
      expected: 'HTTP 200 for GET /events',
      severity: 'high',
    });
    const soft = checkContext([RULE]);
    expect(answered(soft.t, { rule: RULE, res: answer(500), what: 'x', soft: true })).toBe(false);
    expect(soft.meta.outcomes[RULE].status).toBe('failed');
  });
});
