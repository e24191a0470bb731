import { describe, expect, it } from 'vitest';
import { hasMembers, type HasMembersOptions } from './has-members.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'event-management/events/create-201';

type Case = [string, unknown, Partial<HasMembersOptions>, string, boolean | undefined, boolean];

describe('hasMembers', () => {
  it.each<Case>([
    ['every member named', { a: 1, b: 'x' }, {}, 'passed', true, false],
    ['a member missing ends the test', { a: 1 }, {}, 'failed', undefined, true],
    ['no record at all', 'text', {}, 'failed', undefined, true],
    ['a soft missing member lets the test go on', { b: 'x' }, { soft: true }, 'failed', false, false],
    ['an empty text, counted as present', { a: 1, b: '' }, {}, 'passed', true, false],
    ['an empty text, counted as missing', { a: 1, b: '' }, { emptyText: true }, 'failed', undefined, true],
    ['a member of the known value', { a: 1, b: 'x' }, { values: { a: 1 } }, 'passed', true, false],
    ['a member of another value', { a: 2, b: 'x' }, { values: { a: 1 } }, 'failed', undefined, true],
    ['a member of its shape', { a: 1, b: 'x' }, { members: { a: 'integer', b: 'string' } }, 'passed', true, false],
    [
      'a member of another shape',
      { a: 'x', b: 'x' },
      { members: { a: 'integer', b: 'string' } },
      'failed',
      undefined,
      true,
    ],
  ])('%s', (_, value, o, want, returned, ended) => {
    const r = outcomeOf([RULE], (t) =>
      hasMembers(t, { rule: RULE, what: 'a record', value, members: ['a', 'b'], ...o }),
    );
    expect(r).toMatchObject({ status: want, returned, ended });
  });

  it('names the members, the known values, and the answer beside what is wrong', () => {
    const r = outcomeOf([RULE], (t) =>
      hasMembers(t, {
        rule: RULE,
        what: 'a record',
        value: { a: 2 },
        members: ['a', 'b'],
        values: { a: 1 },
        answer: () => 'HTTP 200',
      }),
    );
    expect(r.failure).toMatchObject({ title: 'a record lacks required members', expected: 'a, b; a 1' });
    expect(r.failure?.received).toMatch(/b.*a 2 \(not 1\): HTTP 200$/);
  });
});
