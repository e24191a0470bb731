import { describe, expect, it } from 'vitest';
import { rejudgeDisagreements } from './rejudge.ts';

const rule = (id: string, status: string) => ({ id, service: 'notification' as const, status: status as never });

describe('re-judged outcomes against the report', () => {
  const rules = [
    rule('notification/a', 'passed'),
    rule('notification/b', 'failed'),
    rule('notification/c', 'skipped'),
    rule('notification/d', 'passed'),
    rule('notification/e', 'skipped'),
  ];

  it('agrees where both judged alike, or neither judged', () => {
    expect(
      rejudgeDisagreements(
        rules,
        {
          'notification/a': { status: 'passed' },
          'notification/b': { status: 'failed' },
          'notification/c': { status: 'not-exercised' },
        },
        ['notification'],
      ),
    ).toEqual({ contradictions: [], unsupported: [] });
  });

  it('names a contradiction where the traffic judges otherwise, and what the traffic cannot judge', () => {
    expect(
      rejudgeDisagreements(
        rules,
        {
          'notification/a': { status: 'failed' },
          'notification/b': { status: 'passed' },
          'notification/d': { status: 'not-exercised' },
          'notification/e': { status: 'failed' },
          'notification/unknown': { status: 'passed' },
        },
        ['notification'],
      ),
    ).toEqual({
      contradictions: [
        { rule: 'notification/a', reported: 'passed', rejudged: 'failed' },
        { rule: 'notification/b', reported: 'failed', rejudged: 'passed' },
        { rule: 'notification/e', reported: 'skipped', rejudged: 'failed' },
      ],
      unsupported: [{ rule: 'notification/d', reported: 'passed', rejudged: 'not-exercised' }],
    });
    expect(rejudgeDisagreements(rules, { 'notification/a': { status: 'failed' } }, ['event-management'])).toEqual({
      contradictions: [],
      unsupported: [],
    });
  });
});
