import { after, where } from '../engine/filter-expression.ts';
import { holds, answered, listed, notListed } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, eventually, fixture, fixtures, iso, send, seen, NO_OTHER } from './em-client.ts';
import {
  asRequest,
  createEvent,
  createType,
  field,
  postEvent,
  postType,
  putEvent,
  standardBody,
  trackForeignEvents,
  typeBody,
} from './em-resources.ts';

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
    const created = await postType(t, typeBody(t), { query: shared });
    checkSharing(t, 'POST /eventTypes', [body(created)], true);
    holds(t, {
      rule: 'event-management/sharing/empty-not-shared',
      ok: JSON.stringify(modesOf(body(created))) === '[]',
      failure: 'a new unshared type carries modes',
      expected: 'modes []',
      received: JSON.stringify(body(created).sharing),
      soft: true,
    });
    const id = String(body(created).id);
    const typePath = `/eventTypes/${encodeURIComponent(id)}`;
    let typeEtag = Number(body(created).etag);
    for (const withShared of [true, false]) {
      const q = withShared ? shared : undefined;
      const got = await eventually(
        () => send(t, { method: 'GET', path: typePath, query: q }),
        (r) => r.status === 200 && Number(body(r).etag) >= typeEtag,
      );
      checkSharing(t, `GET /eventTypes/{id}${withShared ? '?includeShared=true' : ''}`, [body(got.value)], withShared);
      if (withShared)
        holds(t, {
          rule: 'event-management/sharing/empty-not-shared',
          ok: JSON.stringify(modesOf(body(got.value))) === '[]',
          failure: 'an unshared type carries modes',
          expected: 'modes []',
          received: JSON.stringify(body(got.value).sharing),
          soft: true,
        });
      const list = await send(t, { method: 'GET', path: '/eventTypes', query: { ...q, filter: where({ id }) } });
      checkSharing(t, 'GET /eventTypes', items(list, 'eventTypes'), withShared);
      const patched = await send(t, {
        method: 'PATCH',
        path: typePath,
        query: q,
        headers: { 'If-Match': String(body(got.value).etag) },
        json: { op: 'replace', path: '/ttl', value: withShared ? 40 : 41 },
      });
      answered(t, { rule: 'event-management/sharing/returned-with-include-shared', res: patched, what: 'PATCH' });
      checkSharing(t, 'PATCH /eventTypes/{id}', [body(patched)], withShared);
      typeEtag = Number(body(patched).etag);
    }
    const plainType = await postType(t, typeBody(t));
    checkSharing(t, 'POST /eventTypes', [body(plainType)], false);
    const e = await createEvent(t, standardBody(t));
    checkSharing(t, 'POST /events', [e], false);
    let eventEtag = Number(e.etag);
    for (const withShared of [true, false]) {
      const q = withShared ? shared : undefined;
      const got = await eventually(
        () => send(t, { method: 'GET', path: `/events/${e.id}`, query: q }),
        (r) => r.status === 200 && Number(body(r).etag) >= eventEtag,
      );
      checkSharing(t, 'GET /events/{id}', [body(got.value)], withShared);
      if (withShared)
        holds(t, {
          rule: 'event-management/sharing/empty-not-shared',
          ok: JSON.stringify(modesOf(body(got.value))) === '[]',
          failure: 'an unshared event carries modes',
          expected: 'modes []',
          received: JSON.stringify(body(got.value).sharing),
          soft: true,
        });
      const list = await send(t, {
        method: 'GET',
        path: '/events',
        query: { ...q, filter: where({ entityId: e.entityId, correlationId: e.correlationId }) },
      });
      checkSharing(t, 'GET /events', items(list, 'events'), withShared);
      const put = await putEvent(
        t,
        e.id,
        String(body(got.value).etag),
        { ...asRequest(body(got.value)), severity: withShared ? 11 : 12 },
        { query: q },
      );
      answered(t, { rule: 'event-management/sharing/returned-with-include-shared', res: put, what: 'PUT' });
      checkSharing(t, 'PUT /events/{id}', [body(put)], withShared);
      eventEtag = Number(body(put).etag);
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 20 },
);

emTest(
  [
    'event-management/sharing/include-shared-default-false',
    'event-management/sharing/modes',
    'event-management/sharing/further-modes',
  ],
  'records shared with the caller appear only with includeShared=true, marked RECEIVER; core types are DEFAULT',
  async (t) => {
    const typeId = fixture(t, 'sharedEventTypeId');
    const eventId = fixture(t, 'sharedEventId');
    const typePath = `/eventTypes/${encodeURIComponent(typeId)}`;
    const hidden = await send(t, { method: 'GET', path: typePath });
    // Lists are settled ("adds ... shared records"); that a read by id hides a shared record too is our reading.
    holds(t, {
      reading: 'shared-by-id-hidden',
      rule: 'event-management/sharing/include-shared-default-false',
      ok: hidden.status === 404,
      failure: 'a shared type served by id without includeShared',
      expected: 'HTTP 404',
      received: () => seen(hidden, 160),
    });
    const shown = await send(t, { method: 'GET', path: typePath, query: shared });
    holds(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      ok: shown.status === 200,
      failure: 'a shared type not served with includeShared=true',
      expected: 'HTTP 200',
      received: seen(shown, 160),
    });
    holds(t, {
      rule: 'event-management/sharing/modes',
      ok: (modesOf(body(shown)) ?? []).includes('RECEIVER'),
      failure: 'a type shared with the caller is not marked RECEIVER',
      expected: 'modes containing RECEIVER',
      received: JSON.stringify(body(shown).sharing),
    });
    const listHidden = await send(t, { method: 'GET', path: '/eventTypes', query: { filter: where({ id: typeId }) } });
    holds(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      ok: listHidden.status === 200 && items(listHidden, 'eventTypes').length === 0,
      failure: 'a shared type listed without includeShared',
      expected: 'no types',
      received: seen(listHidden, 160),
    });
    const listShown = await send(t, {
      method: 'GET',
      path: '/eventTypes',
      query: { ...shared, filter: where({ id: typeId }) },
    });
    listed(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: listShown,
      items: [typeId],
      holds: (r, id) => items(r, 'eventTypes').some((x) => x.id === id),
      anyStatus: true,
      what: 'a shared type, with includeShared=true,',
    });
    const evHidden = await send(t, { method: 'GET', path: `/events/${eventId}` });
    holds(t, {
      reading: 'shared-by-id-hidden',
      rule: 'event-management/sharing/include-shared-default-false',
      ok: evHidden.status === 404,
      failure: 'an event of a shared entity served by id without includeShared',
      expected: 'HTTP 404',
      received: () => seen(evHidden, 160),
    });
    const evShown = await send(t, { method: 'GET', path: `/events/${eventId}`, query: shared });
    holds(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      ok: evShown.status === 200,
      failure: 'an event of a shared entity not served with includeShared=true',
      expected: 'HTTP 200',
      received: seen(evShown, 160),
    });
    holds(t, {
      rule: 'event-management/sharing/modes',
      ok: (modesOf(body(evShown)) ?? []).includes('RECEIVER'),
      failure: 'an event shared with the caller is not marked RECEIVER',
      expected: 'modes containing RECEIVER',
      received: JSON.stringify(body(evShown).sharing),
    });
    const q = {
      filter: where({ entityId: body(evShown).entityId }, after('timestamp', iso(-6 * 86_400_000))),
      size: '100',
    };
    const evListHidden = await send(t, { method: 'GET', path: '/events', query: q });
    notListed(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: evListHidden,
      items: [eventId],
      holds: (r, id) => items(r, 'events').some((x) => x.id === id),
      anyStatus: true,
      what: 'a shared event, without includeShared,',
    });
    const evListShown = await send(t, { method: 'GET', path: '/events', query: { ...q, ...shared } });
    listed(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      res: evListShown,
      items: [eventId],
      holds: (r, id) => items(r, 'events').some((x) => x.id === id),
      anyStatus: true,
      what: 'a shared event, with includeShared=true,',
    });
    for (const core of [fixtures(t).baseEventTypeId, fixtures(t).standardEventTypeId]) {
      const res = await send(t, { method: 'GET', path: `/eventTypes/${core}`, query: shared });
      holds(t, {
        rule: 'event-management/sharing/modes',
        ok: (modesOf(body(res)) ?? []).includes('DEFAULT'),
        failure: `${core} is not marked DEFAULT`,
        expected: 'modes containing DEFAULT',
        received: JSON.stringify(body(res).sharing),
      });
    }
    const all = await send(t, { method: 'GET', path: '/eventTypes', query: { ...shared, size: '100' } });
    const modes = items(all, 'eventTypes').flatMap((x) => modesOf(x) ?? [null]);
    holds(t, {
      rule: 'event-management/sharing/further-modes',
      ok: modes.every((m) => typeof m === 'string'),
      failure: 'sharing modes that are not strings',
      expected: 'strings (further modes tolerated)',
      received: JSON.stringify(modes.filter((m) => typeof m !== 'string')),
    });
    if (t.session.tokens.has('otherTenant')) {
      const owner = await send(t, { method: 'GET', path: typePath, query: shared, as: 'otherTenant' });
      holds(t, {
        rule: 'event-management/sharing/modes',
        ok: (modesOf(body(owner)) ?? []).includes('SHARER'),
        failure: 'the owner of a shared type does not see it marked SHARER',
        expected: 'modes containing SHARER',
        received: seen(owner, 160),
      });
      // The fixture event is the other tenant's, on an entity it shares with the caller ("shared by my tenant").
      const eventOwner = await send(t, { method: 'GET', path: `/events/${eventId}`, query: shared, as: 'otherTenant' });
      holds(t, {
        rule: 'event-management/sharing/modes',
        ok: (modesOf(body(eventOwner)) ?? []).includes('SHARER'),
        failure: 'the owner of a shared event does not see it marked SHARER',
        expected: 'modes containing SHARER',
        received: seen(eventOwner, 160),
      });
    } else t.notExercised('event-management/sharing/modes', NO_OTHER);
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
    holds(t, {
      rule: 'event-management/event-types/owner-creating-tenant',
      ok: res.status === 200 && body(res).owner === owner,
      failure: 'a type shared with the caller does not name the tenant that created it as its owner',
      expected: `HTTP 200 with owner ${owner}`,
      received: seen(res, 160),
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
    holds(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      ok: byId.status >= 400 && byId.status < 500,
      failure: "another tenant's unshared event served with includeShared=true",
      expected: 'a 4xx refusal',
      received: seen(byId, 160),
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
    holds(t, {
      reading: 'unseen-entity-listed-empty',
      rule: 'event-management/sharing/include-shared-default-false',
      ok: list.status === 200,
      failure: 'a query naming an entity the caller cannot see not answered 200',
      expected: `HTTP 200 without ${e.id}`,
      received: () => seen(list, 160),
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
    const foreign = await eventually(
      () =>
        postEvent(
          t,
          { typeId: type.id, timestamp: iso(-60_000), entityId: fixture(t, 'otherTenantEntityId'), v: 1 },
          { as: 'otherTenant' },
        ),
      (r) => r.status !== 404,
    );
    if (foreign.value.status !== 201)
      t.skip(`the other tenant could not create an event of the GLOBAL type (${seen(foreign.value, 160)})`);
    const id = String(body(foreign.value).id);
    const q = { filter: where({ typeId: type.id }), size: '100' };
    await eventually(
      () => send(t, { method: 'GET', path: '/events', query: q, as: 'otherTenant' }),
      (r) => items(r, 'events').some((x) => x.id === id),
    );
    const res = await send(t, { method: 'GET', path: '/events', query: { ...q, ...shared } });
    holds(t, {
      rule: 'event-management/sharing/include-shared-default-false',
      ok: res.status === 200 && !items(res, 'events').some((x) => x.id === id),
      failure: 'an event of another tenant on an entity not shared with the caller listed with includeShared=true',
      expected: `HTTP 200 without ${id} (only shared records are added)`,
      received: seen(res, 160),
    });
  },
  { needs: ['fixtures.eventManagement.otherTenantEntityId', 'principals.otherTenant'], budget: 6 },
);
