import { randomUUID } from 'node:crypto';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { eq } from '../engine/filter-expression.ts';
import {
  ordinal,
  body,
  emTest,
  entity,
  eventually,
  fixture,
  fixtures,
  iso,
  send,
  seen,
  senderOf,
  onceVisible,
} from './em-client.ts';
import { accepted, refused, holds, answered, taken } from '../engine/checks/index.ts';
import {
  createEvent,
  createType,
  field,
  postEvent,
  runDeleteJob,
  trackForeignEvents,
  typeDeleted,
} from './em-resources.ts';
import { pathOf, current, patch, patchField, patchAttribute, remove } from './event-types-change-support.ts';
import { FIELDS_MAX, FILTERABLE_MAX } from './em-bounds.ts';

emTest(
  ['event-management/event-types/patch-global-to-local-400'],
  "GLOBAL to LOCAL answers 400 while another tenant has events of the type, 200 when only the owner's events exist and once the other tenant's are deleted",
  async (t) => {
    const foreignEntity = fixture(t, 'otherTenantEntityId');
    if (!t.session.tokens.has('otherTenant'))
      t.needsPrincipal('principals.otherTenant', 'principals.otherTenant is not configured');
    const used = await createType(t, { scope: 'GLOBAL', fields: [field('v', 'INTEGER')] });
    const ownOnly = await createType(t, { scope: 'GLOBAL', fields: [field('v', 'INTEGER')] });
    const release = trackForeignEvents(t, used.id, 'otherTenant');
    const foreign = await onceVisible(() =>
      postEvent(t, { typeId: used.id, timestamp: iso(-60_000), entityId: foreignEntity, v: 1 }, { as: 'otherTenant' }),
    );
    if (foreign.status !== 201)
      t.skip(`the other tenant could not create an event of the GLOBAL type (${seen(foreign, 160)})`);
    // PATCH 400: "scope change GLOBAL to LOCAL while events of another tenant exist": the owner's own
    // events are no such condition, and do not lift it either.
    await createEvent(t, { typeId: used.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    refused(t, {
      rule: 'event-management/event-types/patch-global-to-local-400',
      res: await patch(t, used.id, { op: 'replace', path: '/scope', value: 'LOCAL' }),
      what: 'GLOBAL to LOCAL while another tenant (and the owner) has events of the type',
    });
    await createEvent(t, { typeId: ownOnly.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    taken(t, {
      rule: 'event-management/event-types/patch-global-to-local-400',
      res: await patchAttribute(t, ownOnly.id, 'replace', 'scope', 'LOCAL'),
      what: "GLOBAL to LOCAL of a type with only the owner's events",
      shows: { scope: 'LOCAL' },
    });
    // Once the other tenant has deleted its events, no events of another tenant exist.
    try {
      await runDeleteJob(senderOf(t), eq('typeId', used.id), 'otherTenant');
    } catch (e) {
      t.notExercised(
        'event-management/event-types/patch-global-to-local-400',
        `the other tenant's events could not be deleted: ${(e as Error).message}`,
      );
      return;
    }
    release();
    const after = await eventually(
      () => patch(t, used.id, { op: 'replace', path: '/scope', value: 'LOCAL' }),
      (r) => r.status === 200,
    );
    holds(t, {
      rule: 'event-management/event-types/patch-global-to-local-400',
      ok: after.ok && body(after.value).scope === 'LOCAL',
      failure: "GLOBAL to LOCAL still refused after the other tenant's events were deleted",
      expected: 'HTTP 200, scope LOCAL',
      received: seen(after.value),
    });
  },
  {
    needs: [
      'fixtures.eventManagement.entityIds',
      'fixtures.eventManagement.otherTenantEntityId',
      'principals.otherTenant',
    ],
    budget: 40,
  },
);

emTest(
  [
    'event-management/event-types/filterable-link-400',
    'event-management/event-types/more-than-10-filterable-400',
    'event-management/event-types/more-than-100-fields-400',
    'event-management/event-types/patch-add-field',
  ],
  `PATCH keeps a type's limits: no LINK field made filterable, no ${ordinal(FILTERABLE_MAX + 1)} filterable field, no ${ordinal(FIELDS_MAX + 1)} field`,
  async (t) => {
    // Field: "a LINK field cannot be filterable; at most 10 filterable fields per type"; Limits: "Fields per
    // event type | 100; filterable fields 10". They hold for the type, however its fields came to be.
    const link = await createType(t, { fields: [field('url', 'LINK')] });
    refused(t, {
      rule: 'event-management/event-types/filterable-link-400',
      res: await patchField(t, link.id, 'url', 'filterable', true),
      what: 'PATCH making a LINK field filterable',
    });
    // One filterable field short of the bound, and two more fields: the first may become filterable
    // ("at most 10 filterable fields per type" counts the filterable ones), the second not.
    const almost = await createType(t, {
      fields: [
        ...Array.from({ length: FILTERABLE_MAX - 1 }, (_, i) => field(`k${i}`, 'INTEGER', { filterable: true })),
        field('p', 'STRING'),
        field('q', 'STRING'),
      ],
    });
    const lastFilterable = await patchField(t, almost.id, 'p', 'filterable', true);
    accepted(t, {
      rule: 'event-management/event-types/more-than-10-filterable-400',
      res: lastFilterable,
      what: `PATCH making the ${ordinal(FILTERABLE_MAX)} of ${FILTERABLE_MAX + 1} fields filterable`,
      statuses: [200],
    });
    if (lastFilterable.status === 200)
      refused(t, {
        rule: 'event-management/event-types/more-than-10-filterable-400',
        res: await patchField(t, almost.id, 'q', 'filterable', true, {
          etagAtLeast: Number(body(lastFilterable).etag),
        }),
        what: `PATCH making an ${ordinal(FILTERABLE_MAX + 1)} field filterable`,
      });
    const full = await createType(t, {
      fields: Array.from({ length: FIELDS_MAX - 1 }, (_, i) => field(`f${i}`, 'STRING')),
    });
    const last = await patchAttribute(t, full.id, 'add', 'fields', field(`f${FIELDS_MAX - 1}`, 'STRING'));
    accepted(t, {
      rule: 'event-management/event-types/patch-add-field',
      res: last,
      what: `PATCH adding the ${ordinal(FIELDS_MAX)} field`,
      statuses: [200],
    });
    if (last.status !== 200) return;
    refused(t, {
      rule: 'event-management/event-types/more-than-100-fields-400',
      res: await patch(
        t,
        full.id,
        { op: 'add', path: '/fields', value: field(`f${FIELDS_MAX}`, 'STRING') },
        { etagAtLeast: Number(body(last).etag) },
      ),
      what: `PATCH adding a ${ordinal(FIELDS_MAX + 1)} field`,
    });
  },
  { budget: 12 },
);

emTest(
  [
    'event-management/event-types/delete-204',
    'event-management/event-types/delete-with-children-400',
    'event-management/event-types/delete-with-events-400',
  ],
  'DELETE with the current etag removes an own type without events or children (204, then 404); a type with a child or with events answers 400',
  async (t) => {
    const parent = await createType(t);
    const child = await createType(t, { parentId: parent.id });
    await current(t, child.id);
    refused(t, {
      rule: 'event-management/event-types/delete-with-children-400',
      res: await remove(t, parent.id),
      what: 'DELETE of a type with a child type',
    });
    const withEvents = await createType(t, { fields: [field('v', 'INTEGER')] });
    await createEvent(t, { typeId: withEvents.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    refused(t, {
      rule: 'event-management/event-types/delete-with-events-400',
      res: await remove(t, withEvents.id),
      what: 'DELETE of a type with events',
    });
    const res = await remove(t, child.id);
    answered(t, {
      rule: 'event-management/event-types/delete-204',
      res,
      what: 'DELETE of an own type without events',
      statuses: [204],
    });
    typeDeleted(child.id);
    const gone = await eventually(
      () => send(t, { method: 'GET', path: pathOf(child.id) }),
      (r) => r.status === 404,
    );
    holds(t, {
      rule: 'event-management/event-types/delete-204',
      ok: gone.ok,
      failure: 'the deleted type is still served',
      expected: 'HTTP 404',
      received: seen(gone.value, 160),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 14 },
);

/** A change of a type the caller may not change: the standard types, another tenant's, one shared with it, an unknown one. */
interface ProtectedRow {
  /** How the test's name calls the type shared with the caller. */
  shared: string;
  method: 'PATCH' | 'DELETE';
  rules: { standard: string; notOwner: string; receiver: string; notFound: string };
  /** The change of an existing type, sent with its current etag. */
  change(t: RuleContext, id: string, includeShared: boolean): Promise<HttpResponse>;
  /** The body of the change of an unknown type. */
  json?: unknown;
}

const PROTECTED_ROWS: ProtectedRow[] = [
  {
    shared: 'a type',
    method: 'PATCH',
    rules: {
      standard: 'event-management/event-types/patch-standard-types-400',
      notOwner: 'event-management/event-types/patch-not-owner-400',
      receiver: 'event-management/event-types/patch-receiver-400',
      notFound: 'event-management/event-types/patch-not-found-404',
    },
    // The change re-states the current ttl: a deployment that wrongly accepts it changes nothing.
    change: async (t, id, includeShared) => {
      const x = await current(t, id, { includeShared });
      return send(t, {
        method: 'PATCH',
        path: pathOf(id),
        headers: { 'If-Match': String(x.etag) },
        json: { op: 'replace', path: '/ttl', value: x.ttl },
        query: includeShared ? { includeShared: 'true' } : undefined,
      });
    },
    json: { op: 'replace', path: '/ttl', value: 30 },
  },
  {
    shared: 'one',
    method: 'DELETE',
    rules: {
      standard: 'event-management/event-types/delete-standard-types-400',
      notOwner: 'event-management/event-types/delete-not-owner-400',
      receiver: 'event-management/event-types/delete-receiver-400',
      notFound: 'event-management/event-types/delete-not-found-404',
    },
    change: (t, id, includeShared) => remove(t, id, { includeShared }),
  },
];

emTest.each(
  PROTECTED_ROWS,
  (row) => ({
    rules: Object.values(row.rules),
    name: `${row.method} of BaseEvent, the standard type, a type of another tenant or ${row.shared} shared with the caller answers 400; of an unknown type 404`,
    options: {
      needs: [
        'fixtures.eventManagement.baseEventTypeId',
        'fixtures.eventManagement.globalEventTypeId',
        'fixtures.eventManagement.sharedEventTypeId',
      ],
      budget: 10,
    },
  }),
  async (t, row) => {
    const f = fixtures(t);
    const cases = [
      [row.rules.standard, f.baseEventTypeId, 'BaseEvent'],
      [row.rules.standard, f.standardEventTypeId, 'the standard event type'],
      [row.rules.notOwner, f.globalEventTypeId, 'a GLOBAL type owned by another tenant'],
      [row.rules.receiver, f.sharedEventTypeId, 'a type shared with the caller'],
    ] as const;
    for (const [rule, id, what] of cases)
      if (id)
        refused(t, {
          rule,
          res: await row.change(t, id, rule === row.rules.receiver),
          what: `${row.method} of ${what}`,
        });
    refused(t, {
      rule: row.rules.notFound,
      res: await send(t, {
        method: row.method,
        path: pathOf(`${t.prefix}nosuchtype${randomUUID().slice(0, 8)}`),
        headers: { 'If-Match': '0' },
        json: row.json,
      }),
      what: `${row.method} of an unknown type`,
      statuses: [404],
    });
    if (!f.globalEventTypeId) fixture(t, 'globalEventTypeId');
    if (!f.sharedEventTypeId) fixture(t, 'sharedEventTypeId');
  },
);
