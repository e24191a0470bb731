import { describe, expect, it } from 'vitest';
import { formatted } from './formatted.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';
const isDigits = (v: unknown) => typeof v === 'string' && /^[0-9]+$/.test(v);

describe('formatted', () => {
  it.each([
    ['every value of the format', ['1', '22'], {}, 'passed', true, false],
    ['no value at all', [], {}, 'passed', true, false],
    ['one value not of it ends the test', ['1', 'x'], {}, 'failed', undefined, true],
    ['a soft one lets the test go on', [3], { soft: true }, 'failed', false, false],
  ] as const)('%s', (_, values, o, want, returned, ended) => {
    const r = outcomeOf([RULE], (t) =>
      formatted(t, { rule: RULE, what: 'dates', values, format: 'digits', is: isDigits, ...o }),
    );
    expect(r).toMatchObject({ status: want, returned, ended });
  });

  it('titles its failure and shows the first values that are not of the format', () => {
    const r = outcomeOf([RULE], (t) =>
      formatted(t, { rule: RULE, what: 'dates', values: ['1', 'a', 'b', 'c', 'd'], format: 'digits', is: isDigits }),
    );
    expect(r.failure).toMatchObject({ title: 'dates not digits', expected: 'digits', received: '["a","b","c"]' });
  });
});
