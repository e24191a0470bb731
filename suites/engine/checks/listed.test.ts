import { describe, expect, it } from 'vitest';
import { listed, notListed } from './listed.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';
const answer = () => 'HTTP 200';

describe('listed and notListed', () => {
  it.each([
    [listed, 'a', 'passed'],
    [listed, 'z', 'failed'],
    [notListed, 'z', 'passed'],
    [notListed, 'a', 'failed'],
  ] as const)('%o %s', (kind, id, status) => {
    const { t, meta } = checkContext([RULE]);
    kind(t, { rule: RULE, ids: ['a', 'b'], id, what: 'x', answer, soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
