import { randomUUID } from 'node:crypto';
import { where } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import { eq } from '../engine/filter-expression.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, entity, eventually, fixture, fixtures, iso, send, seen, senderOf } from './em-client.ts';
import { accepted, expect, reading, rejected } from './em-checks.ts';
import {
  createEvent,
  createType,
  field,
  postEvent,
  runDeleteJob,
  trackForeignEvents,
  typeDeleted,
} from './em-resources.ts';

const pathOf = (id: string) => `/eventTypes/${encodeURIComponent(id)}`;

/** The type as the caller reads it now (waiting out the visibility delay of a new or changed type). */
async function current(
  t: RuleContext,
  id: string,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<Record<string, any>> {
  const query = opts.includeShared ? { includeShared: 'true' } : undefined;
  const res = await eventually(
    () => send(t, { method: 'GET', path: pathOf(id), query }),
    (r) => r.status === 200 && Number(body(r).etag) >= (opts.etagAtLeast ?? 0),
  );
  if (!res.ok) t.skip(`event type ${id} cannot be read (${seen(res.value, 160)}); judged by event-types/get-200`);
  return body(res.value);
}

/** PATCH with the type's current etag. */
async function patch(
  t: RuleContext,
  id: string,
  ops: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const x = await current(t, id, opts);
  return send(t, {
    method: 'PATCH',
    path: pathOf(id),
    headers: { 'If-Match': String(x.etag) },
    json: ops,
    query: opts.includeShared ? { includeShared: 'true' } : undefined,
  });
}

/**
 * PATCH replacing a property of a named field. The path syntax is not shown ("a property of a named
 * field"): the field is addressed by its name, and where that is refused, by its index in the
 * type's fields (a JSON Pointer, RFC 6901), so that either spelling is taken.
 */
async function patchField(
  t: RuleContext,
  id: string,
  name: string,
  property: string,
  value: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const res = await patch(t, id, { op: 'replace', path: `/fields/${name}/${property}`, value }, opts);
  if (res.status !== 400) return res;
  const index = ((await current(t, id, opts)).fields ?? []).findIndex((f: { name?: unknown }) => f.name === name);
  return index < 0 ? res : patch(t, id, { op: 'replace', path: `/fields/${index}/${property}`, value }, opts);
}

/**
 * PATCH of an attribute (ttl, scope) or of the field list. The path syntax is not shown ("attribute or
 * field to change, for example the scope, a field list"): a JSON Pointer first (/scope, /fields), and
 * where that is refused with 400, the other spellings a deployment may take (for an added field the
 * RFC 6902 append /fields/-, then the bare name), so that a change valid under every spelling is taken.
 */
async function patchAttribute(
  t: RuleContext,
  id: string,
  op: 'add' | 'replace',
  attribute: string,
  value: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const spellings = [`/${attribute}`, ...(op === 'add' && attribute === 'fields' ? ['/fields/-'] : []), attribute];
  let res = await patch(t, id, { op, path: spellings[0], value }, opts);
  for (const path of spellings.slice(1)) {
    if (res.status !== 400) break;
    res = await patch(t, id, { op, path, value }, opts);
  }
  return res;
}

/** DELETE with the type's current etag. */
async function remove(t: RuleContext, id: string, opts: { includeShared?: boolean } = {}): Promise<HttpResponse> {
  const x = await current(t, id, opts);
  return send(t, { method: 'DELETE', path: pathOf(id), headers: { 'If-Match': String(x.etag) } });
}

emTest(
  [
    'event-management/event-types/patch-200',
    'event-management/event-types/patch-replace-scope',
    'event-management/event-types/patch-add-field',
    'event-management/event-types/patch-shape',
    'event-management/etags/event-type-etag-header',
  ],
  'PATCH replaces the scope and adds an optional field: 200 with the changed type and its ETag',
  async (t) => {
    const type = await createType(t, { fields: [field('a', 'STRING')] });
    const scoped = await patchAttribute(t, type.id, 'replace', 'scope', 'GLOBAL');
    expect(
      t,
      'event-management/event-types/patch-replace-scope',
      scoped.status === 200 && body(scoped).scope === 'GLOBAL',
      'replace /scope GLOBAL not applied',
      'HTTP 200, scope GLOBAL',
      seen(scoped),
    );
    expect(
      t,
      'event-management/event-types/patch-200',
      body(scoped).id === type.id && body(scoped).etag !== type.etag,
      'the 200 does not carry the changed type',
      `id ${type.id}, an etag other than ${type.etag}`,
      seen(scoped),
    );
    expect(
      t,
      'event-management/etags/event-type-etag-header',
      String(scoped.headers.etag ?? '').replace(/\D/g, '') === String(body(scoped).etag),
      'PATCH answers no ETag of the new etag',
      `ETag "${body(scoped).etag}"`,
      scoped.headers.etag ?? '(none)',
    );
    const added = await patchAttribute(
      t,
      type.id,
      'add',
      'fields',
      { name: 'b', type: 'INTEGER', filterable: true },
      { etagAtLeast: body(scoped).etag },
    );
    const b = ((body(added).fields ?? []) as any[]).find((f) => f.name === 'b');
    expect(
      t,
      'event-management/event-types/patch-add-field',
      added.status === 200 && b?.type === 'INTEGER' && b?.required === false,
      'add /fields not applied',
      'HTTP 200 with an optional INTEGER field b',
      seen(added),
    );
    expect(
      t,
      'event-management/event-types/patch-shape',
      added.status === 200,
      'an add of a field object refused',
      'HTTP 200',
      seen(added),
    );
    const read = await current(t, type.id, { etagAtLeast: body(added).etag });
    expect(
      t,
      'event-management/event-types/patch-200',
      read.scope === 'GLOBAL' && (read.fields ?? []).some((f: any) => f.name === 'b'),
      'the changes are not readable',
      'scope GLOBAL and field b',
      JSON.stringify(read),
    );
  },
  { budget: 6 },
);

emTest(
  ['event-management/event-types/patch-shape', 'event-management/event-types/patch-value-types'],
  'a patch with another op, a path naming nothing or a value of the wrong type answers 400',
  async (t) => {
    const type = await createType(t, { fields: [field('a', 'STRING', { required: true })] });
    for (const op of [
      { op: 'remove', path: '/ttl', value: 30 },
      { op: 'move', path: '/scope', value: 'GLOBAL' },
      { op: 'replace', path: '/nosuchattribute', value: 'x' },
      { op: 'replace', path: '/fields/nosuchfield/required', value: false },
    ]) {
      rejected(
        t,
        'event-management/event-types/patch-shape',
        await patch(t, type.id, op),
        `patch ${JSON.stringify(op)}`,
      );
    }
    for (const op of [
      { op: 'replace', path: '/scope', value: 5 },
      { op: 'add', path: '/fields', value: 'b' },
    ]) {
      rejected(
        t,
        'event-management/event-types/patch-value-types',
        await patch(t, type.id, op),
        `patch ${JSON.stringify(op)}`,
      );
    }
    // value is "declared as string": a string holding the ttl or the flag is refused only on our reading.
    for (const op of [
      { op: 'replace', path: '/ttl', value: '30' },
      { op: 'replace', path: '/fields/a/required', value: 'false' },
    ]) {
      const res = await patch(t, type.id, op);
      reading(
        t,
        'patch-value-own-type',
        'event-management/event-types/patch-value-types',
        res.status === 400,
        `not rejected: patch ${JSON.stringify(op)}`,
        'HTTP 400',
        () => seen(res),
      );
    }
    const ok = await patchAttribute(t, type.id, 'replace', 'ttl', 30);
    expect(
      t,
      'event-management/event-types/patch-value-types',
      ok.status === 200 && body(ok).ttl === 30,
      'a ttl given as an integer refused',
      'HTTP 200, ttl 30',
      seen(ok),
    );
  },
  { budget: 18 },
);

emTest(
  [
    'event-management/event-types/patch-replace-required',
    'event-management/event-types/patch-required-to-optional',
    'event-management/event-types/patch-optional-to-required-400',
    'event-management/event-types/patch-added-field-required-400',
    'event-management/event-types/patch-field-type-change-400',
  ],
  'PATCH makes a required field optional but not the reverse; added fields cannot be required; a field keeps its type',
  async (t) => {
    const type = await createType(t, { fields: [field('must', 'STRING', { required: true }), field('may', 'STRING')] });
    const relaxed = await patchField(t, type.id, 'must', 'required', false);
    const must = ((body(relaxed).fields ?? []) as any[]).find((f) => f.name === 'must');
    expect(
      t,
      'event-management/event-types/patch-required-to-optional',
      relaxed.status === 200,
      'required to optional refused',
      'HTTP 200',
      seen(relaxed),
    );
    expect(
      t,
      'event-management/event-types/patch-replace-required',
      must?.required === false,
      'the required flag not replaced',
      'must: required false',
      JSON.stringify(must),
    );
    rejected(
      t,
      'event-management/event-types/patch-optional-to-required-400',
      await patchField(t, type.id, 'may', 'required', true, { etagAtLeast: body(relaxed).etag }),
      'optional to required',
    );
    rejected(
      t,
      'event-management/event-types/patch-added-field-required-400',
      await patch(
        t,
        type.id,
        { op: 'add', path: '/fields', value: { name: 'late', type: 'STRING', required: true } },
        { etagAtLeast: body(relaxed).etag },
      ),
      'adding a required field',
    );
    rejected(
      t,
      'event-management/event-types/patch-field-type-change-400',
      await patchField(t, type.id, 'may', 'type', 'INTEGER', { etagAtLeast: body(relaxed).etag }),
      "changing a field's type",
    );
  },
  { budget: 10 },
);

emTest(
  [
    'event-management/event-types/patch-filterable-to-true',
    'event-management/event-types/patch-filterable-to-false-400',
  ],
  'PATCH makes a field filterable (then usable in filters) but never filterable false again',
  async (t) => {
    const type = await createType(t, { fields: [field('k', 'STRING'), field('f', 'STRING', { filterable: true })] });
    const before = await send(t, {
      method: 'GET',
      path: '/events',
      query: { filter: where({ typeId: type.id, k: 'x' }) },
    });
    expect(
      t,
      'event-management/event-types/patch-filterable-to-true',
      before.status === 400,
      'a filter on a field not yet filterable was taken',
      'HTTP 400 before the change',
      seen(before, 160),
    );
    const res = await patchField(t, type.id, 'k', 'filterable', true);
    expect(
      t,
      'event-management/event-types/patch-filterable-to-true',
      res.status === 200 && ((body(res).fields ?? []) as any[]).find((f) => f.name === 'k')?.filterable === true,
      'filterable false to true refused',
      'HTTP 200, k filterable',
      seen(res),
    );
    const after = await eventually(
      () => send(t, { method: 'GET', path: '/events', query: { filter: where({ typeId: type.id, k: 'x' }) } }),
      (r) => r.status === 200,
    );
    expect(
      t,
      'event-management/event-types/patch-filterable-to-true',
      after.ok,
      'the field made filterable cannot be filtered on',
      'HTTP 200',
      seen(after.value, 160),
    );
    rejected(
      t,
      'event-management/event-types/patch-filterable-to-false-400',
      await patchField(t, type.id, 'f', 'filterable', false, { etagAtLeast: body(res).etag }),
      'filterable true to false',
    );
  },
  { budget: 8 },
);

emTest(
  [
    'event-management/event-types/patch-owner-change-400',
    'event-management/event-types/patch-parent-change-400',
    'event-management/event-types/patch-with-children-ttl-only-400',
  ],
  'PATCH cannot change owner or parent; a type with child types only takes a ttl change',
  async (t) => {
    const parent = await createType(t, { fields: [field('p', 'STRING')] });
    rejected(
      t,
      'event-management/event-types/patch-owner-change-400',
      await patch(t, parent.id, { op: 'replace', path: '/owner', value: 'someothertenant' }),
      'replacing the owner',
    );
    rejected(
      t,
      'event-management/event-types/patch-parent-change-400',
      await patch(t, parent.id, { op: 'replace', path: '/parentId', value: fixtures(t).standardEventTypeId }),
      'replacing the parentId',
    );
    const child = await createType(t, { parentId: parent.id });
    await current(t, child.id);
    rejected(
      t,
      'event-management/event-types/patch-with-children-ttl-only-400',
      await patch(t, parent.id, { op: 'replace', path: '/scope', value: 'GLOBAL' }),
      'replacing the scope of a type with a child',
    );
    rejected(
      t,
      'event-management/event-types/patch-with-children-ttl-only-400',
      await patch(t, parent.id, { op: 'add', path: '/fields', value: { name: 'q', type: 'STRING' } }),
      'adding a field to a type with a child',
    );
    const ttl = await patchAttribute(t, parent.id, 'replace', 'ttl', 40);
    expect(
      t,
      'event-management/event-types/patch-with-children-ttl-only-400',
      ttl.status === 200 && body(ttl).ttl === 40,
      'a ttl change of a type with a child refused',
      'HTTP 200, ttl 40',
      seen(ttl),
    );
  },
  { budget: 12 },
);

emTest(
  [
    'event-management/event-types/patch-standard-types-400',
    'event-management/event-types/patch-not-owner-400',
    'event-management/event-types/patch-receiver-400',
    'event-management/event-types/patch-not-found-404',
  ],
  'PATCH of BaseEvent, the standard type, a type of another tenant or a type shared with the caller answers 400; of an unknown type 404',
  async (t) => {
    // The change re-states the current ttl: a deployment that wrongly accepts it changes nothing.
    const sameTtl = async (id: string, includeShared = false) => {
      const x = await current(t, id, { includeShared });
      return send(t, {
        method: 'PATCH',
        path: pathOf(id),
        headers: { 'If-Match': String(x.etag) },
        json: { op: 'replace', path: '/ttl', value: x.ttl },
        query: includeShared ? { includeShared: 'true' } : undefined,
      });
    };
    const f = fixtures(t);
    rejected(
      t,
      'event-management/event-types/patch-standard-types-400',
      await sameTtl(f.baseEventTypeId),
      'PATCH of BaseEvent',
    );
    rejected(
      t,
      'event-management/event-types/patch-standard-types-400',
      await sameTtl(f.standardEventTypeId),
      'PATCH of the standard event type',
    );
    if (f.globalEventTypeId)
      rejected(
        t,
        'event-management/event-types/patch-not-owner-400',
        await sameTtl(f.globalEventTypeId),
        'PATCH of a GLOBAL type owned by another tenant',
      );
    if (f.sharedEventTypeId)
      rejected(
        t,
        'event-management/event-types/patch-receiver-400',
        await sameTtl(f.sharedEventTypeId, true),
        'PATCH of a type shared with the caller',
      );
    rejected(
      t,
      'event-management/event-types/patch-not-found-404',
      await send(t, {
        method: 'PATCH',
        path: pathOf(`${t.prefix}nosuchtype${randomUUID().slice(0, 8)}`),
        headers: { 'If-Match': '0' },
        json: { op: 'replace', path: '/ttl', value: 30 },
      }),
      'PATCH of an unknown type',
      [404],
    );
    if (!f.globalEventTypeId) fixture(t, 'globalEventTypeId');
    if (!f.sharedEventTypeId) fixture(t, 'sharedEventTypeId');
  },
  {
    needs: ['fixtures.eventManagement.globalEventTypeId', 'fixtures.eventManagement.sharedEventTypeId'],
    budget: 10,
  },
);

emTest(
  ['event-management/event-types/patch-over-300000-events-400'],
  'PATCH of a type with more than 300,000 events answers 400',
  async (t) => {
    const big = fixture(t, 'bigEventTypeId', 'the 300,000-events PATCH rule (a type with more than 300,000 events)');
    const count = fixtures(t).bigEventTypeEventCount;
    if (count !== undefined && count <= 300_000)
      t.needsConfiguration(
        'fixtures.eventManagement.bigEventTypeEventCount',
        `fixtures.eventManagement.bigEventTypeEventCount is ${count}, not above 300,000`,
      );
    const x = await current(t, big);
    const res = await send(t, {
      method: 'PATCH',
      path: pathOf(big),
      headers: { 'If-Match': String(x.etag) },
      json: { op: 'replace', path: '/ttl', value: x.ttl },
    });
    rejected(
      t,
      'event-management/event-types/patch-over-300000-events-400',
      res,
      `PATCH of ${big} (${count ?? 'more than 300,000'} events)`,
    );
  },
  {
    needs: ['fixtures.eventManagement.bigEventTypeId', 'fixtures.eventManagement.bigEventTypeEventCount'],
    budget: 2,
  },
);

emTest(
  ['event-management/event-types/patch-over-300000-events-400'],
  'PATCH of a type with exactly 300,000 events is taken (the limit is "above 300,000")',
  async (t) => {
    // "Events per type above which it cannot be updated | 300,000": 300,000 itself is not above it.
    const limit = fixture(
      t,
      'limitEventTypeId',
      'the bound of the 300,000-events PATCH rule (a type with exactly 300,000 events)',
    );
    const count = fixtures(t).limitEventTypeEventCount;
    if (count !== undefined && count !== 300_000)
      t.needsConfiguration(
        'fixtures.eventManagement.limitEventTypeEventCount',
        `fixtures.eventManagement.limitEventTypeEventCount is ${count}, not 300,000`,
      );
    const x = await current(t, limit);
    const ttl = Number(x.ttl) > 1 ? Number(x.ttl) - 1 : 2;
    const res = await send(t, {
      method: 'PATCH',
      path: pathOf(limit),
      headers: { 'If-Match': String(x.etag) },
      json: { op: 'replace', path: '/ttl', value: ttl },
    });
    accepted(
      t,
      'event-management/event-types/patch-over-300000-events-400',
      res,
      `a ttl PATCH of ${limit} (300,000 events)`,
      [200],
    );
    // The fixture's ttl as it was.
    if (res.status === 200) await patch(t, limit, { op: 'replace', path: '/ttl', value: x.ttl });
  },
  {
    needs: ['fixtures.eventManagement.limitEventTypeId', 'fixtures.eventManagement.limitEventTypeEventCount'],
    budget: 4,
  },
);

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
    const foreign = await eventually(
      () =>
        postEvent(
          t,
          { typeId: used.id, timestamp: iso(-60_000), entityId: foreignEntity, v: 1 },
          { as: 'otherTenant' },
        ),
      (r) => r.status !== 404,
    );
    if (foreign.value.status !== 201)
      t.skip(`the other tenant could not create an event of the GLOBAL type (${seen(foreign.value, 160)})`);
    // PATCH 400: "scope change GLOBAL to LOCAL while events of another tenant exist": the owner's own
    // events are no such condition, and do not lift it either.
    await createEvent(t, { typeId: used.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    rejected(
      t,
      'event-management/event-types/patch-global-to-local-400',
      await patch(t, used.id, { op: 'replace', path: '/scope', value: 'LOCAL' }),
      'GLOBAL to LOCAL while another tenant (and the owner) has events of the type',
    );
    await createEvent(t, { typeId: ownOnly.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    const ok = await patchAttribute(t, ownOnly.id, 'replace', 'scope', 'LOCAL');
    expect(
      t,
      'event-management/event-types/patch-global-to-local-400',
      ok.status === 200 && body(ok).scope === 'LOCAL',
      "GLOBAL to LOCAL of a type with only the owner's events refused",
      'HTTP 200, scope LOCAL',
      seen(ok),
    );
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
    expect(
      t,
      'event-management/event-types/patch-global-to-local-400',
      after.ok && body(after.value).scope === 'LOCAL',
      "GLOBAL to LOCAL still refused after the other tenant's events were deleted",
      'HTTP 200, scope LOCAL',
      seen(after.value),
    );
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
    'event-management/event-types/reserved-field-name-400',
    'event-management/event-types/field-name-too-long-400',
    'event-management/event-types/field-type-missing-400',
    'event-management/event-types/field-property-missing-400',
    'event-management/event-types/filterable-link-400',
    'event-management/event-types/more-than-10-filterable-400',
    'event-management/event-types/enum-values-missing-400',
    'event-management/event-types/values-for-non-enum-400',
    'event-management/event-types/values-not-strings-400',
    'event-management/event-types/values-duplicated-400',
    'event-management/event-types/enum-member-max-36',
  ],
  'PATCH adding a field applies the field rules of creation',
  async (t) => {
    const type = await createType(t, {
      fields: Array.from({ length: 10 }, (_, i) => field(`k${i}`, 'INTEGER', { filterable: true })),
    });
    const add = (value: unknown) => patch(t, type.id, { op: 'add', path: '/fields', value });
    const cases: Array<[string, unknown, string]> = [
      [
        'event-management/event-types/reserved-field-name-400',
        { name: 'select', type: 'STRING' },
        'a field named "select"',
      ],
      [
        'event-management/event-types/field-name-too-long-400',
        { name: `f${'x'.repeat(64)}`, type: 'STRING' },
        'a field name of 65 characters',
      ],
      ['event-management/event-types/field-type-missing-400', { name: 'untyped' }, 'a field without type'],
      ['event-management/event-types/field-property-missing-400', { type: 'STRING' }, 'a field without name'],
      [
        'event-management/event-types/filterable-link-400',
        { name: 'url', type: 'LINK', filterable: true },
        'a filterable LINK field',
      ],
      [
        'event-management/event-types/more-than-10-filterable-400',
        { name: 'eleventh', type: 'STRING', filterable: true },
        'an 11th filterable field',
      ],
      [
        'event-management/event-types/enum-values-missing-400',
        { name: 'state', type: 'ENUM' },
        'an ENUM field without values',
      ],
      [
        'event-management/event-types/values-for-non-enum-400',
        { name: 'txt', type: 'STRING', values: ['a'] },
        'values on a STRING field',
      ],
      [
        'event-management/event-types/values-not-strings-400',
        { name: 'state', type: 'ENUM', values: ['a', 2] },
        'ENUM values with a number',
      ],
      [
        'event-management/event-types/values-duplicated-400',
        { name: 'state', type: 'ENUM', values: ['a', 'a'] },
        'duplicated ENUM values',
      ],
      [
        'event-management/event-types/enum-member-max-36',
        { name: 'state', type: 'ENUM', values: ['m'.repeat(37)] },
        'an ENUM member of 37 characters',
      ],
    ];
    for (const [rule, value, what] of cases) {
      const res = await add(value);
      // Which words are reserved is our reading (the document names neither database nor language).
      if (rule === 'event-management/event-types/reserved-field-name-400')
        reading(
          t,
          'reserved-word-list',
          rule,
          res.status === 400,
          `not rejected: PATCH adding ${what}`,
          'HTTP 400',
          () => seen(res),
        );
      else rejected(t, rule, res, `PATCH adding ${what}`);
    }
    accepted(
      t,
      'event-management/event-types/enum-member-max-36',
      await add({ name: 'state', type: 'ENUM', values: ['m'.repeat(36)] }),
      'PATCH adding an ENUM field with a member of 36 characters',
      [200],
    );
  },
  { budget: 26 },
);

emTest(
  [
    'event-management/event-types/filterable-link-400',
    'event-management/event-types/more-than-10-filterable-400',
    'event-management/event-types/more-than-100-fields-400',
    'event-management/event-types/patch-add-field',
  ],
  "PATCH keeps a type's limits: no LINK field made filterable, no 11th filterable field, no 101st field",
  async (t) => {
    // Field: "a LINK field cannot be filterable; at most 10 filterable fields per type"; Limits: "Fields per
    // event type | 100; filterable fields 10". They hold for the type, however its fields came to be.
    const link = await createType(t, { fields: [field('url', 'LINK')] });
    rejected(
      t,
      'event-management/event-types/filterable-link-400',
      await patchField(t, link.id, 'url', 'filterable', true),
      'PATCH making a LINK field filterable',
    );
    // Nine filterable fields of eleven: the tenth may become filterable ("at most 10 filterable fields per
    // type" counts the filterable ones), the eleventh not.
    const nine = await createType(t, {
      fields: [
        ...Array.from({ length: 9 }, (_, i) => field(`k${i}`, 'INTEGER', { filterable: true })),
        field('p', 'STRING'),
        field('q', 'STRING'),
      ],
    });
    const tenth = await patchField(t, nine.id, 'p', 'filterable', true);
    accepted(
      t,
      'event-management/event-types/more-than-10-filterable-400',
      tenth,
      'PATCH making the 10th of 11 fields filterable',
      [200],
    );
    if (tenth.status === 200)
      rejected(
        t,
        'event-management/event-types/more-than-10-filterable-400',
        await patchField(t, nine.id, 'q', 'filterable', true, { etagAtLeast: Number(body(tenth).etag) }),
        'PATCH making an 11th field filterable',
      );
    const full = await createType(t, { fields: Array.from({ length: 99 }, (_, i) => field(`f${i}`, 'STRING')) });
    const hundredth = await patchAttribute(t, full.id, 'add', 'fields', field('f99', 'STRING'));
    accepted(t, 'event-management/event-types/patch-add-field', hundredth, 'PATCH adding the 100th field', [200]);
    if (hundredth.status !== 200) return;
    rejected(
      t,
      'event-management/event-types/more-than-100-fields-400',
      await patch(
        t,
        full.id,
        { op: 'add', path: '/fields', value: field('f100', 'STRING') },
        { etagAtLeast: Number(body(hundredth).etag) },
      ),
      'PATCH adding a 101st field',
    );
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
    rejected(
      t,
      'event-management/event-types/delete-with-children-400',
      await remove(t, parent.id),
      'DELETE of a type with a child type',
    );
    const withEvents = await createType(t, { fields: [field('v', 'INTEGER')] });
    await createEvent(t, { typeId: withEvents.id, timestamp: iso(-60_000), entityId: entity(t), v: 1 });
    rejected(
      t,
      'event-management/event-types/delete-with-events-400',
      await remove(t, withEvents.id),
      'DELETE of a type with events',
    );
    const res = await remove(t, child.id);
    expect(
      t,
      'event-management/event-types/delete-204',
      res.status === 204,
      'DELETE of an own type without events refused',
      'HTTP 204',
      seen(res),
    );
    typeDeleted(child.id);
    const gone = await eventually(
      () => send(t, { method: 'GET', path: pathOf(child.id) }),
      (r) => r.status === 404,
    );
    expect(
      t,
      'event-management/event-types/delete-204',
      gone.ok,
      'the deleted type is still served',
      'HTTP 404',
      seen(gone.value, 160),
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 14 },
);

emTest(
  [
    'event-management/event-types/delete-standard-types-400',
    'event-management/event-types/delete-not-owner-400',
    'event-management/event-types/delete-receiver-400',
    'event-management/event-types/delete-not-found-404',
  ],
  'DELETE of BaseEvent, the standard type, a type of another tenant or one shared with the caller answers 400; of an unknown type 404',
  async (t) => {
    const f = fixtures(t);
    rejected(
      t,
      'event-management/event-types/delete-standard-types-400',
      await remove(t, f.baseEventTypeId),
      'DELETE of BaseEvent',
    );
    rejected(
      t,
      'event-management/event-types/delete-standard-types-400',
      await remove(t, f.standardEventTypeId),
      'DELETE of the standard event type',
    );
    rejected(
      t,
      'event-management/event-types/delete-not-found-404',
      await send(t, {
        method: 'DELETE',
        path: pathOf(`${t.prefix}nosuchtype${randomUUID().slice(0, 8)}`),
        headers: { 'If-Match': '0' },
      }),
      'DELETE of an unknown type',
      [404],
    );
    const global = fixture(t, 'globalEventTypeId');
    rejected(
      t,
      'event-management/event-types/delete-not-owner-400',
      await remove(t, global),
      'DELETE of a GLOBAL type owned by another tenant',
    );
    const shared = fixture(t, 'sharedEventTypeId');
    rejected(
      t,
      'event-management/event-types/delete-receiver-400',
      await remove(t, shared, { includeShared: true }),
      'DELETE of a type shared with the caller',
    );
  },
  { needs: ['fixtures.eventManagement.globalEventTypeId', 'fixtures.eventManagement.sharedEventTypeId'], budget: 10 },
);
