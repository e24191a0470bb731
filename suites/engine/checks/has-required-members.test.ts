import { describe, expect, it } from 'vitest';
import { hasRequiredMembers, requiredMembers } from './has-required-members.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/response-required-fields';
const SCHEMA = '#/components/schemas/EventResponse' as const;
const full = { id: 'a', typeId: 'b', correlationId: 'c', timestamp: 'd', entityId: 'e', etag: 1, _links: {} };

describe('hasRequiredMembers', () => {
  it('reads the required members from the contract', () => {
    expect(requiredMembers('event-management', SCHEMA)).toEqual(Object.keys(full));
  });

  it.each([
    ['every member', full, {}, 'passed'],
    ['a member absent', { ...full, etag: undefined }, {}, 'failed'],
    ['an empty text counted as missing', { ...full, id: '' }, { emptyText: true }, 'failed'],
    ['an empty text kept otherwise', { ...full, id: '' }, {}, 'passed'],
    ['a member of the wrong shape', { ...full, id: 1 }, { shape: 'string' as const }, 'failed'],
  ])('%s', (_, value, o, status) => {
    const { t, meta } = checkContext([RULE]);
    hasRequiredMembers(t, {
      rule: RULE,
      service: 'event-management',
      schema: SCHEMA,
      value,
      what: 'x',
      soft: true,
      ...o,
    });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
