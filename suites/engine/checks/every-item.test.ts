import { describe, expect, it } from 'vitest';
import { everyItem, type EveryItemOptions } from './every-item.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';
const odd = (n: number) => n % 2 === 1;

type Case = [string, readonly number[], Partial<EveryItemOptions<number>>, string, boolean | undefined, boolean];

describe('everyItem', () => {
  it.each<Case>([
    ['every item as it must be', [1, 3], {}, 'passed', true, false],
    ['an empty list', [], {}, 'passed', true, false],
    ['an empty list when one is required', [], { nonEmpty: true }, 'failed', undefined, true],
    ['one item that is not ends the test', [1, 2], {}, 'failed', undefined, true],
    ['a soft one lets the test go on', [2], { soft: true }, 'failed', false, false],
    ['items of a 200 answer', [1], { res: answer(200, [1]) }, 'passed', true, false],
    ['items of a 404 answer', [1], { res: answer(404, [1]) }, 'failed', undefined, true],
    ['items of a 204 among the statuses', [1], { res: answer(204, [1]), statuses: [204] }, 'passed', true, false],
    ['an array body asked, an array given', [1], { res: answer(200, [1]), arrayBody: true }, 'passed', true, false],
    [
      'an array body asked, an object given',
      [1],
      { res: answer(200, { a: 1 }), arrayBody: true },
      'failed',
      undefined,
      true,
    ],
  ])('%s', (_, items, o, want, returned, ended) => {
    const r = outcomeOf([RULE], (t) =>
      everyItem(t, { rule: RULE, what: 'odd', items, is: odd, expected: 'odd numbers', ...o }),
    );
    expect(r).toMatchObject({ status: want, returned, ended });
  });

  it('counts the items that are not, and names a status outside the list', () => {
    const r = outcomeOf([RULE], (t) =>
      everyItem(t, { rule: RULE, what: 'odd', items: [1, 2, 4], is: odd, expected: 'odd', res: answer(500) }),
    );
    expect(r.failure).toMatchObject({
      title: 'not every item is odd',
      expected: 'odd',
      received: 'HTTP 500; 2 of 3 not: [2,4]',
    });
  });
});
