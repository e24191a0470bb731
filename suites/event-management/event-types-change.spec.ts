import { where } from '../engine/filter-expression.ts';
import { body, emTest, eventually, fixture, fixtures, send, seen } from './em-client.ts';
import { accepted, refused, holds, answered, taken } from '../engine/checks/index.ts';
import { createType, field } from './em-resources.ts';
import { pathOf, current, fieldNamed, patch, patchField, patchAttribute } from './event-types-change-support.ts';
import { EVENTS_FOR_UPDATE_MAX } from './em-bounds.ts';

/** The document writes it `300,000`. */
const LIMIT = String(EVENTS_FOR_UPDATE_MAX).replace(/\B(?=(\d{3})+$)/g, ',');

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
    taken(t, {
      rule: 'event-management/event-types/patch-replace-scope',
      res: scoped,
      what: 'replace /scope GLOBAL',
      shows: { scope: 'GLOBAL' },
    });
    holds(t, {
      rule: 'event-management/event-types/patch-200',
      ok: body(scoped).id === type.id && body(scoped).etag !== type.etag,
      failure: 'the 200 does not carry the changed type',
      expected: `id ${type.id}, an etag other than ${type.etag}`,
      received: seen(scoped),
    });
    holds(t, {
      rule: 'event-management/etags/event-type-etag-header',
      ok: String(scoped.headers.etag ?? '').replace(/\D/g, '') === String(body(scoped).etag),
      failure: 'PATCH answers no ETag of the new etag',
      expected: `ETag "${body(scoped).etag}"`,
      received: scoped.headers.etag ?? '(none)',
    });
    const added = await patchAttribute(
      t,
      type.id,
      'add',
      'fields',
      { name: 'b', type: 'INTEGER', filterable: true },
      { etagAtLeast: body(scoped).etag },
    );
    taken(t, {
      rule: 'event-management/event-types/patch-add-field',
      res: added,
      what: 'add /fields',
      shows: {
        fields: (fields: unknown) =>
          fieldNamed(fields, 'b')?.type === 'INTEGER' && fieldNamed(fields, 'b')?.required === false,
      },
      showsText: 'an optional INTEGER field b',
    });
    answered(t, { rule: 'event-management/event-types/patch-shape', res: added, what: 'an add of a field object' });
    const read = await current(t, type.id, { etagAtLeast: body(added).etag });
    holds(t, {
      rule: 'event-management/event-types/patch-200',
      ok: read.scope === 'GLOBAL' && (read.fields ?? []).some((f: any) => f.name === 'b'),
      failure: 'the changes are not readable',
      expected: 'scope GLOBAL and field b',
      received: JSON.stringify(read),
    });
  },
  { budget: 6 },
);

emTest(
  ['event-management/event-types/patch-shape', 'event-management/event-types/patch-value-types'],
  'a patch with another op, a path naming nothing or a value of the wrong type answers 400',
  async (t) => {
    const type = await createType(t, { fields: [field('a', 'STRING', { required: true })] });
    // value is "declared as string": a string holding the ttl or the flag is refused only on our reading.
    const ownType = 'patch-value-own-type';
    for (const [rule, op, reading] of [
      ['event-management/event-types/patch-shape', { op: 'remove', path: '/ttl', value: 30 }],
      ['event-management/event-types/patch-shape', { op: 'move', path: '/scope', value: 'GLOBAL' }],
      ['event-management/event-types/patch-shape', { op: 'replace', path: '/nosuchattribute', value: 'x' }],
      [
        'event-management/event-types/patch-shape',
        { op: 'replace', path: '/fields/nosuchfield/required', value: false },
      ],
      ['event-management/event-types/patch-value-types', { op: 'replace', path: '/scope', value: 5 }],
      ['event-management/event-types/patch-value-types', { op: 'add', path: '/fields', value: 'b' }],
      ['event-management/event-types/patch-value-types', { op: 'replace', path: '/ttl', value: '30' }, ownType],
      [
        'event-management/event-types/patch-value-types',
        { op: 'replace', path: '/fields/a/required', value: 'false' },
        ownType,
      ],
    ] as const)
      refused(t, { rule, res: await patch(t, type.id, op), what: `patch ${JSON.stringify(op)}`, reading });
    taken(t, {
      rule: 'event-management/event-types/patch-value-types',
      res: await patchAttribute(t, type.id, 'replace', 'ttl', 30),
      what: 'a ttl given as an integer',
      shows: { ttl: 30 },
    });
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
    answered(t, {
      rule: 'event-management/event-types/patch-required-to-optional',
      res: relaxed,
      what: 'required to optional',
    });
    const must = fieldNamed(body(relaxed).fields, 'must');
    holds(t, {
      rule: 'event-management/event-types/patch-replace-required',
      ok: must?.required === false,
      failure: 'the required flag not replaced',
      expected: 'must: required false',
      received: JSON.stringify(must),
    });
    refused(t, {
      rule: 'event-management/event-types/patch-optional-to-required-400',
      res: await patchField(t, type.id, 'may', 'required', true, { etagAtLeast: body(relaxed).etag }),
      what: 'optional to required',
    });
    refused(t, {
      rule: 'event-management/event-types/patch-added-field-required-400',
      res: await patch(
        t,
        type.id,
        { op: 'add', path: '/fields', value: { name: 'late', type: 'STRING', required: true } },
        { etagAtLeast: body(relaxed).etag },
      ),
      what: 'adding a required field',
    });
    refused(t, {
      rule: 'event-management/event-types/patch-field-type-change-400',
      res: await patchField(t, type.id, 'may', 'type', 'INTEGER', { etagAtLeast: body(relaxed).etag }),
      what: "changing a field's type",
    });
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
    refused(t, {
      rule: 'event-management/event-types/patch-filterable-to-true',
      res: before,
      what: 'a filter on a field not yet filterable, before the change',
    });
    const res = await patchField(t, type.id, 'k', 'filterable', true);
    taken(t, {
      rule: 'event-management/event-types/patch-filterable-to-true',
      res,
      what: 'filterable false to true',
      shows: { fields: (fields: unknown) => fieldNamed(fields, 'k')?.filterable === true },
      showsText: 'k filterable',
    });
    const after = await eventually(
      () => send(t, { method: 'GET', path: '/events', query: { filter: where({ typeId: type.id, k: 'x' }) } }),
      (r) => r.status === 200,
    );
    taken(t, {
      rule: 'event-management/event-types/patch-filterable-to-true',
      res: after.value,
      what: 'a filter on the field made filterable',
    });
    refused(t, {
      rule: 'event-management/event-types/patch-filterable-to-false-400',
      res: await patchField(t, type.id, 'f', 'filterable', false, { etagAtLeast: body(res).etag }),
      what: 'filterable true to false',
    });
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
    refused(t, {
      rule: 'event-management/event-types/patch-owner-change-400',
      res: await patch(t, parent.id, { op: 'replace', path: '/owner', value: 'someothertenant' }),
      what: 'replacing the owner',
    });
    refused(t, {
      rule: 'event-management/event-types/patch-parent-change-400',
      res: await patch(t, parent.id, { op: 'replace', path: '/parentId', value: fixtures(t).standardEventTypeId }),
      what: 'replacing the parentId',
    });
    const child = await createType(t, { parentId: parent.id });
    await current(t, child.id);
    refused(t, {
      rule: 'event-management/event-types/patch-with-children-ttl-only-400',
      res: await patch(t, parent.id, { op: 'replace', path: '/scope', value: 'GLOBAL' }),
      what: 'replacing the scope of a type with a child',
    });
    refused(t, {
      rule: 'event-management/event-types/patch-with-children-ttl-only-400',
      res: await patch(t, parent.id, { op: 'add', path: '/fields', value: { name: 'q', type: 'STRING' } }),
      what: 'adding a field to a type with a child',
    });
    taken(t, {
      rule: 'event-management/event-types/patch-with-children-ttl-only-400',
      res: await patchAttribute(t, parent.id, 'replace', 'ttl', 40),
      what: 'a ttl change of a type with a child',
      shows: { ttl: 40 },
    });
  },
  { budget: 12 },
);

emTest(
  ['event-management/event-types/patch-over-300000-events-400'],
  `PATCH of a type with more than ${LIMIT} events answers 400`,
  async (t) => {
    const big = fixture(t, 'bigEventTypeId', `the ${LIMIT}-events PATCH rule (a type with more than ${LIMIT} events)`);
    const count = fixtures(t).bigEventTypeEventCount;
    if (count !== undefined && count <= EVENTS_FOR_UPDATE_MAX)
      t.needsConfiguration(
        'fixtures.eventManagement.bigEventTypeEventCount',
        `fixtures.eventManagement.bigEventTypeEventCount is ${count}, not above ${LIMIT}`,
      );
    const x = await current(t, big);
    const res = await send(t, {
      method: 'PATCH',
      path: pathOf(big),
      headers: { 'If-Match': String(x.etag) },
      json: { op: 'replace', path: '/ttl', value: x.ttl },
    });
    refused(t, {
      rule: 'event-management/event-types/patch-over-300000-events-400',
      res,
      what: `PATCH of ${big} (${count ?? `more than ${LIMIT}`} events)`,
    });
  },
  {
    needs: ['fixtures.eventManagement.bigEventTypeId', 'fixtures.eventManagement.bigEventTypeEventCount'],
    budget: 2,
  },
);

emTest(
  ['event-management/event-types/patch-over-300000-events-400'],
  `PATCH of a type with exactly ${LIMIT} events is taken (the limit is "above ${LIMIT}")`,
  async (t) => {
    // "Events per type above which it cannot be updated | 300,000": 300,000 itself is not above it.
    const limit = fixture(
      t,
      'limitEventTypeId',
      `the bound of the ${LIMIT}-events PATCH rule (a type with exactly ${LIMIT} events)`,
    );
    const count = fixtures(t).limitEventTypeEventCount;
    if (count !== undefined && count !== EVENTS_FOR_UPDATE_MAX)
      t.needsConfiguration(
        'fixtures.eventManagement.limitEventTypeEventCount',
        `fixtures.eventManagement.limitEventTypeEventCount is ${count}, not ${LIMIT}`,
      );
    const x = await current(t, limit);
    const ttl = Number(x.ttl) > 1 ? Number(x.ttl) - 1 : 2;
    const res = await send(t, {
      method: 'PATCH',
      path: pathOf(limit),
      headers: { 'If-Match': String(x.etag) },
      json: { op: 'replace', path: '/ttl', value: ttl },
    });
    accepted(t, {
      rule: 'event-management/event-types/patch-over-300000-events-400',
      res,
      what: `a ttl PATCH of ${limit} (${LIMIT} events)`,
      statuses: [200],
    });
    // The fixture's ttl as it was.
    if (res.status === 200) await patch(t, limit, { op: 'replace', path: '/ttl', value: x.ttl });
  },
  {
    needs: ['fixtures.eventManagement.limitEventTypeId', 'fixtures.eventManagement.limitEventTypeEventCount'],
    budget: 4,
  },
);
