import { describe, expect, it } from 'vitest';
import { taken } from './taken.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/event-types/patch-200';
const READING_RULE = 'event-management/event-types/inheritance-depth-4';

describe('taken', () => {
  it.each([
    ['a 200 showing the value', answer(200, { ttl: 40 }), { ttl: 40 }, 'passed'],
    ['a 200 without shows', answer(200, {}), undefined, 'passed'],
    ['a 200 showing another value', answer(200, { ttl: 30 }), { ttl: 40 }, 'failed'],
    ['a refusal', answer(400, { ttl: 40 }), { ttl: 40 }, 'failed'],
    ['a value shown as text', answer(200, { ttl: '40' }), { ttl: 40 }, 'failed'],
  ] as const)('%s', (_, res, shows, status) => {
    const { t, meta } = checkContext([RULE]);
    const run = () => taken(t, { rule: RULE, res, what: 'a ttl change', shows });
    if (status === 'failed') expect(run).toThrow();
    else expect(run()).toBe(true);
    expect(meta.outcomes[RULE].status).toBe(status);
  });

  it('owns its wording: the request and the values it should show', () => {
    const { t, meta } = checkContext([RULE]);
    expect(() => taken(t, { rule: RULE, res: answer(400), what: 'a ttl change', shows: { ttl: 40 } })).toThrow();
    expect(meta.outcomes[RULE].failure).toMatchObject({
      title: 'not taken: a ttl change',
      expected: 'HTTP 200 with ttl 40 for a ttl change',
    });
  });

  it('takes other statuses, a test of a member, and a reading (a warning)', () => {
    const { t, meta } = checkContext([RULE, READING_RULE]);
    const shows = { fields: (v: unknown) => Array.isArray(v) && v.length === 1 };
    expect(taken(t, { rule: RULE, res: answer(201, { fields: [1] }), what: 'a create', statuses: [201], shows })).toBe(
      true,
    );
    expect(meta.outcomes[RULE].status).toBe('passed');
    const r = taken(t, { rule: READING_RULE, res: answer(400), what: 'a type', reading: 'depth-below-base-event' });
    expect(r).toBe(false);
    expect(meta.outcomes[READING_RULE].status).toBe('warning');
  });
});
