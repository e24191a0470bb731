import { describe, expect, it } from 'vitest';
import { createdWithId } from './created-with-id.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

describe('createdWithId', () => {
  it.each([
    ['a 201 with a bare integer', answer(201, 42), 'passed', false],
    ['a 200 with a bare integer', answer(200, 42), 'failed', true],
    ['a 201 with an integer in a text', answer(201, '42'), 'failed', true],
    ['a 201 with an object', answer(201, { id: 42 }), 'failed', true],
    ['a 201 with a fraction', answer(201, 4.2), 'failed', true],
    ['a 201 without a body', answer(201), 'failed', true],
  ] as const)('%s', (_, res, want, ended) => {
    expect(outcomeOf([RULE], (t) => createdWithId(t, { rule: RULE, res, what: 'a record' }))).toMatchObject({
      status: want,
      ended,
    });
  });

  it('titles its failure, high unless told', () => {
    const r = outcomeOf([RULE], (t) => createdWithId(t, { rule: RULE, res: answer(400), what: 'a record' }));
    expect(r.failure).toMatchObject({
      title: 'not created with 201 and an integer ID: a record',
      expected: 'HTTP 201 with a bare JSON integer',
      severity: 'high',
    });
    const c = outcomeOf([RULE], (t) => createdWithId(t, { rule: RULE, res: answer(400), what: 'x', severity: 'low' }));
    expect(c.failure?.severity).toBe('low');
  });
});
