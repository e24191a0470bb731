import { randomUUID } from 'node:crypto';
import { emTest, entity, eventually, fixture, fixtures, iso, send, NO_OTHER } from './em-client.ts';
import { refused, taken } from '../engine/checks/index.ts';
import { createType, postEvent, standardBody } from './em-resources.ts';

emTest(
  ['event-management/events/type-not-found-404', 'event-management/events/entity-not-found-404'],
  'POST /events naming an unknown event type or an unknown entity answers 404',
  async (t) => {
    refused(t, {
      rule: 'event-management/events/type-not-found-404',
      res: await postEvent(t, { typeId: `${t.prefix}nosuchtype`, timestamp: iso(-60_000), entityId: entity(t) }),
      what: 'an unknown typeId',
      statuses: [404],
    });
    refused(t, {
      rule: 'event-management/events/entity-not-found-404',
      res: await postEvent(t, standardBody(t, { entityId: randomUUID() })),
      what: 'an entityId that names no entity',
      statuses: [404],
    });
    const foreign = fixtures(t).otherTenantEntityId;
    if (foreign)
      refused(t, {
        rule: 'event-management/events/entity-not-found-404',
        res: await postEvent(t, standardBody(t, { entityId: foreign })),
        what: 'an entity of another tenant (not shared)',
        statuses: [404],
      });
    // A LOCAL type is no type of another tenant's: its typeId names "no event type visible to the caller".
    if (foreign && t.session.tokens.has('otherTenant')) {
      const local = await createType(t);
      await eventually(
        () => send(t, { method: 'GET', path: `/eventTypes/${encodeURIComponent(local.id)}` }),
        (r) => r.status === 200,
      );
      refused(t, {
        rule: 'event-management/events/type-not-found-404',
        res: await postEvent(
          t,
          { typeId: local.id, timestamp: iso(-60_000), entityId: foreign },
          { as: 'otherTenant' },
        ),
        what: 'a LOCAL type of another tenant (not shared), posted by that other tenant',
        statuses: [404],
      });
    } else t.notExercised('event-management/events/type-not-found-404', NO_OTHER);
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 4 },
);

emTest(
  ['event-management/events/shared-entity-400'],
  'POST /events on an entity owned by another tenant and shared with the caller answers 400',
  async (t) => {
    const shared = fixture(t, 'sharedEntityId');
    refused(t, {
      rule: 'event-management/events/shared-entity-400',
      res: await postEvent(t, standardBody(t, { entityId: shared })),
      what: 'an entityId shared by another tenant',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds', 'fixtures.eventManagement.sharedEntityId'], budget: 1 },
);

emTest(
  ['event-management/events/shared-local-type-400'],
  'POST /events with a LOCAL type of another tenant shared with the caller answers 400',
  async (t) => {
    const shared = fixture(t, 'sharedEventTypeId');
    refused(t, {
      rule: 'event-management/events/shared-local-type-400',
      res: await postEvent(t, { typeId: shared, timestamp: iso(-60_000), entityId: entity(t) }),
      what: 'a shared LOCAL type of another tenant',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds', 'fixtures.eventManagement.sharedEventTypeId'], budget: 1 },
);

emTest(
  [
    'event-management/events/include-shared-on-create',
    'event-management/sharing/returned-with-include-shared',
    'event-management/sharing/empty-not-shared',
  ],
  'POST /events?includeShared=true answers 201 with sharing, empty for an event of an unshared entity',
  async (t) => {
    const res = await postEvent(t, standardBody(t), { query: { includeShared: 'true' } });
    const what = 'POST /events?includeShared=true';
    const modes = (sharing: any) => Array.isArray(sharing?.modes);
    taken(t, { rule: 'event-management/events/include-shared-on-create', res, what, statuses: [201] });
    // The 201 carries sharing.modes: what includeShared asks of a create, and adds to every answer.
    for (const rule of [
      'event-management/events/include-shared-on-create',
      'event-management/sharing/returned-with-include-shared',
    ])
      taken(t, { rule, res, what, statuses: [201], shows: { sharing: modes }, showsText: 'a sharing.modes array' });
    taken(t, {
      rule: 'event-management/sharing/empty-not-shared',
      res,
      what: `${what} of an unshared event`,
      statuses: [201],
      shows: { sharing: (s: any) => modes(s) && s.modes.length === 0 },
      showsText: 'sharing.modes []',
      soft: true,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 1 },
);
