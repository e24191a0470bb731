import { describe, expect, it } from 'vitest';
import { applied } from './applied.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

describe('applied', () => {
  it.each([
    ['the state it names, without an answer', {}, [1, 2], 'passed', true, false],
    ['another state ends the test', {}, [1], 'failed', undefined, true],
    ['a 204 answer and the state', { res: answer(204) }, [1, 2], 'passed', true, false],
    ['a 200 answer when 204 is asked', { res: answer(200) }, [1, 2], 'failed', undefined, true],
    ['a 200 answer among the statuses', { res: answer(200), statuses: [200] }, [1, 2], 'passed', true, false],
    ['a soft other state lets the test go on', { soft: true }, [2, 1], 'failed', false, false],
  ] as const)('%s', (_, o, got, want, returned, ended) => {
    const r = outcomeOf([RULE], (t) => applied(t, { rule: RULE, what: 'an ADD', want: [1, 2], got, ...o }));
    expect(r).toMatchObject({ status: want, returned, ended });
  });

  it('shows the answer and the state on both sides of its failure', () => {
    const r = outcomeOf([RULE], (t) =>
      applied(t, { rule: RULE, what: 'an ADD', want: [1], got: [], res: answer(400), severity: 'medium' }),
    );
    expect(r.failure).toMatchObject({
      title: 'not applied: an ADD',
      expected: 'HTTP 204, then [1]',
      received: 'HTTP 400, then []',
      severity: 'medium',
    });
  });
});
