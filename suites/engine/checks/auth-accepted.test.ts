import { describe, expect, it } from 'vitest';
import { authAccepted } from './auth-accepted.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

describe('authAccepted', () => {
  it.each([
    ['a 200', 200, 'passed', false],
    ['a 400 (refused, but not for its authorization)', 400, 'passed', false],
    ['a 404', 404, 'passed', false],
    ['a 401 ends the test', 401, 'failed', true],
    ['a 403 ends the test', 403, 'failed', true],
  ] as const)('%s', (_, status, want, ended) => {
    expect(outcomeOf([RULE], (t) => authAccepted(t, { rule: RULE, res: answer(status), what: 'a GET' }))).toMatchObject(
      {
        status: want,
        ended,
      },
    );
  });

  it('titles its failure, high unless told', () => {
    const r = outcomeOf([RULE], (t) => authAccepted(t, { rule: RULE, res: answer(403), what: 'a GET' }));
    expect(r.failure).toMatchObject({
      title: 'refused for its authorization: a GET',
      expected: 'not 401 or 403 for a GET',
      severity: 'high',
    });
    const c = outcomeOf([RULE], (t) =>
      authAccepted(t, { rule: RULE, res: answer(401), what: 'x', severity: 'critical' }),
    );
    expect(c.failure?.severity).toBe('critical');
  });
});
