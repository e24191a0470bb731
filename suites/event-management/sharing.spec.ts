import { after, where } from '../engine/filter-expression.ts';
import { holds, answered, listed, notListed, refused, taken } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, eventually, fixture, fixtures, iso, send, seen, NO_OTHER, onceVisible } from './em-client.ts';
import { createEvent, createType, field, postEvent, standardBody, trackForeignEvents } from './em-resources.ts';
import { EVENT, EVENT_TYPE, RESOURCES } from './em-descriptions.ts';

const shared = { includeShared: 'true' };
const modesOf = (x: Record<string, any> | undefined) =>
  Array.isArray(x?.sharing?.modes) ? (x.sharing.modes as unknown[]) : undefined;

function checkSharing(t: RuleContext, what: string, items: Array<Record<string, any>>, withShared: boolean): void {
  for (const x of items) {
    if (withShared)
      holds(t, {
        rule: 'event-management/sharing/returned-with-include-shared',
        ok: Array.isArray(modesOf(x)),
        failure: `${what}: no sharing.modes with includeShared=true`,
        expected: 'sharing.modes array',
        received: String(JSON.stringify(x)).slice(0, 200),
      });
    else
      holds(t, {
        rule: 'event-management/sharing/present-only-with-include-shared',
        ok: x.sharing === undefined,
        failure: `${what}: sharing without includeShared`,
        expected: 'no sharing',
        received: JSON.stringify(x.sharing),
      });
  }
}

const items = (res: HttpResponse, key: 'events' | 'eventTypes') =>
  (body(res)._embedded?.[key] ?? []) as Array<Record<string, any>>;

emTest(
  [
    'event-management/sharing/returned-with-include-shared',
    'event-management/sharing/present-only-with-include-shared',
    'event-management/sharing/empty-not-shared',
  ],
  'every read and write of events and event types carries sharing exactly when includeShared=true; unshared records carry modes []',
  async (t) => {
    for (const r of RESOURCES) {
      const unshared = (res: HttpResponse, what: string) =>
        holds(t, {
          rule: 'event-management/sharing/empty-not-shared',
          ok: JSON.stringify(modesOf(body(res))) === '[]',
          failure: `an unshared ${r.noun} carries modes (${what})`,
          expected: 'modes []',
          received: JSON.stringify(body(res).sharing),
          soft: true,
        });
      const created = await r.post(t, { query: shared });
      checkSharing(t, `POST ${r.collection}`, [body(created)], true);
      unshared(created, `POST ${r.collection}`);
      checkSharing(t, `POST ${r.collection}`, [body(await r.post(t))], false);
      const id = String(body(created).id);
      let etag = Number(body(created).etag);
      for (const withShared of [true, false]) {
        const q = withShared ? shared : undefined;
        const got = await eventually(
          () => send(t, { method: 'GET', path: r.path(id), query: q }),
          (res) => res.status === 200 && Number(body(res).etag) >= etag,
        );
        checkSharing(
          t,
          `GET ${r.collection}/{id}${withShared ? '?includeShared=true' : ''}`,
          [body(got.value)],
          withShared,
        );
        if (withShared) unshared(got.value, 'GET');
        const list = await send(t, {
          method: 'GET',
          path: r.collection,
          query: { ...q, filter: r.only(body(created)) },
        });
        checkSharing(t, `GET ${r.collection}`, items(list, r.listKey), withShared);
        const changed = await r.change(t, body(got.value), q, withShared ? 40 : 41);
        answered(t, { rule: 'event-management/sharing/returned-with-include-shared', res: changed, what: 'a change' });
        checkSharing(t, `a change of ${r.collection}/{id}`, [body(changed)], withShared);
        etag = Number(body(changed).etag);
      }
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 20 },
);

/** How a record shared with the caller is read: the type by its id, the event by its entity. */
const SHARED_READS = [
  {
    r: EVENT_TYPE,
    what: 'a shared type',
    // Filtered by its id: without includeShared the list is empty.
    hiddenQuery: (x: Record<string, any>) => ({ filter: where({ id: x.id }) }),
    hiddenShows: (res: HttpResponse) => items(res, 'eventTypes').length > 0,
    anyStatus: false,
  },
  {
    r: EVENT,
    what: 'an event of a shared entity',
    hiddenQuery: (x: Record<string, any>) => ({
      filter: where({ entityId: x.entityId }, after('timestamp', iso(-6 * 86_400_000))),
      size: '100',
    }),
    hiddenShows: (res: HttpResponse, id: unknown) => items(res, 'events').some((x) => x.id === id),
    anyStatus: true,
  },
] as const;

emTest(
  [
    'event-management/sharing/include-shared-default-false',
    'event-management/sharing/modes',
    'event-management/sharing/further-modes',
  ],
  'records shared with the caller appear only with includeShared=true, marked RECEIVER; core types are DEFAULT',
  async (t) => {
    const rule = 'event-management/sharing/include-shared-default-false';
    const marked = (res: HttpResponse, mode: string, failure: string) =>
      holds(t, {
        rule: 'event-management/sharing/modes',
        ok: (modesOf(body(res)) ?? []).includes(mode),
        failure,
        expected: `modes containing ${mode}`,
        received: seen(res, 160),
      });
    const ids: string[] = [];
    for (const { r, what, hiddenQuery, hiddenShows, anyStatus } of SHARED_READS) {
      const id = fixture(t, r.shared);
      ids.push(id);
      const hidden = await send(t, { method: 'GET', path: r.path(id) });
      // Lists are settled ("adds ... shared records"); that a read by id hides a shared record too is our reading.
      refused(t, {
        rule,
        res: hidden,
        what: `${what} by id without includeShared`,
        statuses: [404],
        reading: 'shared-by-id-hidden',
      });
      const shown = await send(t, { method: 'GET', path: r.path(id), query: shared });
      answered(t, { rule, res: shown, what: `${what}, with includeShared=true,` });
      marked(shown, 'RECEIVER', `${what}, shared with the caller, is not marked RECEIVER`);
      const q = hiddenQuery(body(shown));
      const shows = (res: HttpResponse, item: unknown) => items(res, r.listKey).some((x) => x.id === item);
      const listHidden = await send(t, { method: 'GET', path: r.collection, query: q });
      notListed(t, {
        rule,
        res: listHidden,
        items: [id],
        holds: hiddenShows,
        anyStatus,
        what: `${what}, without includeShared,`,
      });
      const listShown = await send(t, { method: 'GET', path: r.collection, query: { ...q, ...shared } });
      listed(t, {
        rule,
        res: listShown,
        items: [id],
        holds: shows,
        anyStatus: true,
        what: `${what}, with includeShared=true,`,
      });
    }
    for (const core of [fixtures(t).baseEventTypeId, fixtures(t).standardEventTypeId])
      marked(
        await send(t, { method: 'GET', path: `/eventTypes/${core}`, query: shared }),
        'DEFAULT',
        `${core} is not marked DEFAULT`,
      );
    const all = await send(t, { method: 'GET', path: '/eventTypes', query: { ...shared, size: '100' } });
    const modes = items(all, 'eventTypes').flatMap((x) => modesOf(x) ?? [null]);
    holds(t, {
      rule: 'event-management/sharing/further-modes',
      ok: modes.every((m) => typeof m === 'string'),
      failure: 'sharing modes that are not strings',
      expected: 'strings (further modes tolerated)',
      received: JSON.stringify(modes.filter((m) => typeof m !== 'string')),
    });
    if (!t.session.tokens.has('otherTenant')) return t.notExercised('event-management/sharing/modes', NO_OTHER);
    // The fixture event is the other tenant's, on an entity it shares with the caller ("shared by my tenant").
    for (const [i, { r, what }] of SHARED_READS.entries())
      marked(
        await send(t, { method: 'GET', path: r.path(ids[i]), query: shared, as: 'otherTenant' }),
        'SHARER',
        `the owner of ${what} does not see it marked SHARER`,
      );
  },
  {
    needs: [
      'fixtures.eventManagement.sharedEventId',
      'fixtures.eventManagement.sharedEventTypeId',
      'fixtures.eventManagement.baseEventTypeId',
      'fixtures.eventManagement.standardEventTypeId',
    ],
    readOnly: true,
    budget: 14,
  },
);

emTest(
  ['event-management/event-types/owner-creating-tenant'],
  'a type shared with the caller names the tenant that created it as its owner',
  async (t) => {
    const typeId = fixture(t, 'sharedEventTypeId');
    const owner = fixture(t, 'sharedEventTypeOwner');
    const res = await send(t, { method: 'GET', path: `/eventTypes/${encodeURIComponent(typeId)}`, query: shared });
    // "owner (string, the creating tenant)": the shared type is the other tenant's, and it says so.
    taken(t, {
      rule: 'event-management/event-types/owner-creating-tenant',
      res,
      what: 'a read of a type shared with the caller, naming the tenant that created it as its owner,',
      shows: { owner },
    });
  },
  {
    needs: ['fixtures.eventManagement.sharedEventTypeId', 'fixtures.eventManagement.sharedEventTypeOwner'],
    readOnly: true,
    budget: 1,
  },
);

emTest(
  ['event-management/sharing/include-shared-default-false'],
  'includeShared=true adds records shared with the caller only: an unshared event of another tenant stays out of reads',
  async (t) => {
    if (!t.session.tokens.has('otherTenant')) {
      t.notExercised('event-management/sharing/include-shared-default-false', NO_OTHER);
      return;
    }
    // "adds sharing information and shared records": a record shared with nobody is not among them.
    const e = await createEvent(t, standardBody(t));
    await eventually(
      () => send(t, { method: 'GET', path: `/events/${e.id}` }),
      (r) => r.status === 200,
    );
    const byId = await send(t, { method: 'GET', path: `/events/${e.id}`, query: shared, as: 'otherTenant' });
    refused(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: byId,
      what: "another tenant's unshared event with includeShared=true",
      anyClientError: true,
    });
    const list = await send(t, {
      method: 'GET',
      path: '/events',
      query: { ...shared, filter: where({ entityId: e.entityId, correlationId: e.correlationId }) },
      as: 'otherTenant',
    });
    // What the document settles: the unshared event is never listed. That the query is answered 200
    // with nothing, not 404 (the entity does not exist for that tenant), is our reading.
    notListed(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: list,
      items: [e.id],
      holds: (r, id) => items(r, 'events').some((x) => x.id === id),
      anyStatus: true,
      what: "another tenant's unshared event, with includeShared=true,",
    });
    answered(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: list,
      what: 'a query naming an entity the caller cannot see',
      reading: 'unseen-entity-listed-empty',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 6 },
);

emTest(
  ['event-management/sharing/include-shared-default-false'],
  "includeShared=true adds the records shared with the caller, never another tenant's events on an entity not shared with it",
  async (t) => {
    if (!t.session.tokens.has('otherTenant'))
      t.needsPrincipal('principals.otherTenant', 'principals.otherTenant is not configured');
    // A GLOBAL type of the caller, used by the other tenant on its own entity (not shared with the caller).
    const type = await createType(t, { scope: 'GLOBAL', fields: [field('v', 'INTEGER')] });
    trackForeignEvents(t, type.id, 'otherTenant');
    const foreign = await onceVisible(() =>
      postEvent(
        t,
        { typeId: type.id, timestamp: iso(-60_000), entityId: fixture(t, 'otherTenantEntityId'), v: 1 },
        { as: 'otherTenant' },
      ),
    );
    if (foreign.status !== 201)
      t.skip(`the other tenant could not create an event of the GLOBAL type (${seen(foreign, 160)})`);
    const id = String(body(foreign).id);
    const q = { filter: where({ typeId: type.id }), size: '100' };
    await eventually(
      () => send(t, { method: 'GET', path: '/events', query: q, as: 'otherTenant' }),
      (r) => items(r, 'events').some((x) => x.id === id),
    );
    const res = await send(t, { method: 'GET', path: '/events', query: { ...q, ...shared } });
    notListed(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res,
      items: [id],
      holds: (r, x) => items(r, 'events').some((e) => e.id === x),
      what: 'an event of another tenant on an entity not shared with the caller, with includeShared=true,',
    });
  },
  { needs: ['fixtures.eventManagement.otherTenantEntityId', 'principals.otherTenant'], budget: 6 },
);
