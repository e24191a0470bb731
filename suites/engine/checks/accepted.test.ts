import { describe, expect, it } from 'vitest';
import { accepted, type AcceptedOptions } from './accepted.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';
const READING_RULE = 'event-management/event-types/inheritance-depth-4';

const context = () => checkContext([RULE, READING_RULE]);

type Case = [string, Omit<AcceptedOptions, 'rule' | 'what'> & { rule?: string }, string, boolean];

describe('accepted', () => {
  it.each<Case>([
    ['a 201 by default', { res: answer(201) }, 'passed', true],
    ['a 200 when 201 is asked', { res: answer(200) }, 'failed', false],
    ['a 400 when 201 is asked', { res: answer(400) }, 'failed', false],
    ['a 202 among the statuses', { res: answer(202), statuses: [200, 202] }, 'passed', true],
    ['a 201 when 204 is asked', { res: answer(201), statuses: [204] }, 'failed', false],
    [
      'a 201 judged as a reading',
      { rule: READING_RULE, res: answer(201), reading: 'depth-below-base-event' },
      'passed',
      true,
    ],
    [
      'a 400 judged as a reading',
      { rule: READING_RULE, res: answer(400), reading: 'depth-below-base-event' },
      'warning',
      false,
    ],
    [
      'a 500 judged as a reading',
      { rule: READING_RULE, res: answer(500), reading: 'depth-below-base-event' },
      'failed',
      false,
    ],
  ])('%s: %s', (_, o, status, returns) => {
    const { t, meta } = context();
    const rule = o.rule ?? RULE;
    let result: boolean | undefined;
    try {
      result = accepted(t, { ...o, rule, what: 'x' });
    } catch {
      // A failed document check ends the test.
      result = false;
    }
    expect(meta.outcomes[rule].status).toBe(status);
    expect(result).toBe(returns);
  });

  it('titles every failure alike, high unless told, and names the statuses it expected', () => {
    const { t, meta } = context();
    expect(() =>
      accepted(t, { rule: RULE, res: answer(400, { e: 1 }), what: 'an event', statuses: [200, 201] }),
    ).toThrow();
    expect(meta.outcomes[RULE].failure).toMatchObject({
      title: 'valid input refused: an event',
      expected: 'HTTP 200 or 201 for an event',
      severity: 'high',
    });
    expect(meta.outcomes[RULE].failure?.received).toContain('HTTP 400');
    const c = context();
    expect(() => accepted(c.t, { rule: RULE, res: answer(409), what: 'an id', severity: 'critical' })).toThrow();
    expect(c.meta.outcomes[RULE].failure?.severity).toBe('critical');
  });
});
