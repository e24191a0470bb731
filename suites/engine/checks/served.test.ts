import { describe, expect, it } from 'vitest';
import { served } from './served.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

describe('served', () => {
  it.each([
    ['a 200 by default', 200, {}, 'passed', true, false],
    ['a 404 when 200 is asked ends the test', 404, {}, 'failed', undefined, true],
    ['a 204 among the statuses', 204, { statuses: [200, 204] }, 'passed', true, false],
    ['a 200 when 204 is asked', 200, { statuses: [204] }, 'failed', undefined, true],
    ['a soft 500 lets the test go on', 500, { soft: true }, 'failed', false, false],
  ] as const)('%s', (_, status, o, want, returned, ended) => {
    const got = outcomeOf([RULE], (t) => served(t, { rule: RULE, res: answer(status), what: 'a read', ...o }));
    expect(got).toMatchObject({ status: want, returned, ended });
  });

  it('titles its failure, high unless told', () => {
    const got = outcomeOf([RULE], (t) => served(t, { rule: RULE, res: answer(503), what: 'a read', statuses: [200] }));
    expect(got.failure).toMatchObject({
      title: 'not served: a read',
      expected: 'HTTP 200 for a read',
      severity: 'high',
    });
    expect(got.failure?.received).toContain('503');
    const c = outcomeOf([RULE], (t) => served(t, { rule: RULE, res: answer(503), what: 'x', severity: 'critical' }));
    expect(c.failure?.severity).toBe('critical');
  });
});
