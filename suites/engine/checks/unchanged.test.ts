import { describe, expect, it } from 'vitest';
import { unchanged } from './unchanged.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

describe('unchanged', () => {
  it.each([
    ['an intact record', true, {}, 'passed', true, false],
    ['a changed record ends the test', false, {}, 'failed', undefined, true],
    ['a soft changed record lets the test go on', false, { soft: true }, 'failed', false, false],
  ] as const)('%s', (_, intact, o, want, returned, ended) => {
    const r = outcomeOf([RULE], (t) =>
      unchanged(t, { rule: RULE, res: answer(200, { a: 1 }), intact, what: 'a PUT', expected: 'a 1', ...o }),
    );
    expect(r).toMatchObject({ status: want, returned, ended });
  });

  it('titles its failure with the request and shows the record read back', () => {
    const r = outcomeOf([RULE], (t) =>
      unchanged(t, { rule: RULE, res: answer(200, { a: 2 }), intact: false, what: 'a PUT', expected: 'a 1' }),
    );
    expect(r.failure).toMatchObject({ title: 'changed by a PUT', expected: 'a 1', severity: 'high' });
    expect(r.failure?.received).toContain('"a":2');
  });
});
