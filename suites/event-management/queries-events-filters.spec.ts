import { randomUUID } from 'node:crypto';
import { after, eq, isIn, where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import {
  EVENTS_QUERY_SIZE,
  body,
  emTest,
  entity,
  eventually,
  fixture,
  fixtures,
  iso,
  send,
  seen,
  shown,
  tag,
  inexpressible,
  onceVisible,
} from './em-client.ts';
import { refused, holds, answered } from '../engine/checks/index.ts';
import { fileDataset } from './em-dataset.ts';
import { ENUM_VALUES } from './em-arbitraries.ts';
import { createEventsInBulk, createType, field, marker, postEvent, standardBody } from './em-resources.ts';
import { eventsOf, idsOf, getEvents, FORBIDDEN } from './queries-events-support.ts';
import { ASSET_TYPE_ID_IN_MAX, EVENTS_PAGE, standardMaxLength } from './em-bounds.ts';

const dataset = fileDataset('queries-events-filters');

emTest(
  ['event-management/queries/events-filter-fields'],
  'filters on the standard fields code, severity, source and acknowledged return only matching standard events',
  async (t) => {
    const code = `Q${tag()}`.slice(0, standardMaxLength('code'));
    const mine = [
      standardBody(t, { code, severity: 3, acknowledged: true }),
      standardBody(t, { code, severity: 4, acknowledged: false }),
      standardBody(t, { code, severity: 3, acknowledged: false }),
    ];
    for (const e of mine) await postEvent(t, e);
    const cases: Array<[FilterExpr, (e: Record<string, any>) => boolean]> = [
      [where({ code }), (e) => e.code === code],
      [where({ code, severity: 3 }), (e) => e.code === code && e.severity === 3],
      [where({ code, acknowledged: true }), (e) => e.code === code && e.acknowledged === true],
      [
        where({ source: marker(t), code }, isIn('severity', [4, 5])),
        (e) => e.source === marker(t) && e.code === code && [4, 5].includes(e.severity),
      ],
    ];
    for (const [f, ok] of cases) {
      const expected = mine.filter((e) => ok(e)).length;
      const res = await eventually(
        () => getEvents(t, { filter: f, size: EVENTS_QUERY_SIZE }),
        (r) => r.status === 200 && eventsOf(r).filter(ok).length >= expected,
      );
      holds(t, {
        rule: 'event-management/queries/events-filter-fields',
        ok: res.value.status === 200 && eventsOf(res.value).every(ok),
        failure: 'returned events do not satisfy a filter on standard fields',
        expected: `only events satisfying ${shown(f)}`,
        received: seen(res.value, 200),
      });
      holds(t, {
        rule: 'event-management/queries/events-filter-fields',
        ok: eventsOf(res.value).filter(ok).length === expected,
        failure: 'matching standard events missing',
        expected: `${expected} events`,
        received: `${eventsOf(res.value).length} events`,
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 12 },
);

emTest(
  ['event-management/queries/events-filter-fields'],
  'filters on filterable DOUBLE, TIMESTAMP, UUID and ENUM custom fields (equality, in, and with a timestamp range) return exactly the events with those values',
  async (t) => {
    // "plus filterable custom fields"; "Custom field value types: string, integer, double, boolean, link, timestamp."
    // Field type: "one of STRING, INTEGER, DOUBLE, BOOLEAN, LINK, TIMESTAMP, UUID, ENUM"; filterable: "a LINK field
    // cannot be filterable" (every other type can).
    const type = await createType(t, {
      fields: [
        field('x', 'DOUBLE', { filterable: true }),
        field('w', 'TIMESTAMP', { filterable: true }),
        field('u', 'UUID', { filterable: true }),
        field('e', 'ENUM', { filterable: true, values: ENUM_VALUES }),
      ],
    });
    const values = [1.5, 2.25, 1.5];
    // w is a fixed instant unlike any event's own timestamp.
    const when = ['2024-05-06T07:08:09.123Z', '2024-05-07T07:08:09.123Z', '2024-05-07T07:08:09.123Z'];
    const uuids = [randomUUID(), randomUUID(), randomUUID()];
    const members = [ENUM_VALUES[0], ENUM_VALUES[2], ENUM_VALUES[2]];
    const created = await createEventsInBulk(
      t,
      values.map((x, i) => ({
        typeId: type.id,
        correlationId: randomUUID(),
        timestamp: iso(-60_000 - i * 1000),
        entityId: entity(t, i),
        x,
        w: when[i],
        u: uuids[i],
        e: members[i],
      })),
    );
    const ids = created.map((e) => String(e.id));
    await eventually(
      () => getEvents(t, { filter: where({ typeId: type.id }), size: EVENTS_QUERY_SIZE }),
      (r) => idsOf(r).length === ids.length,
    );
    const cases: Array<[FilterExpr, number[]]> = [
      [where({ x: 1.5 }), [0, 2]],
      [isIn('x', [2.25]), [1]],
      [where({ w: when[1] }, after('timestamp', iso(-3_600_000))), [1, 2]],
      [where({ u: uuids[2] }), [2]],
      [where({ e: members[1] }), [1, 2]],
      [isIn('e', [members[0]]), [0]],
    ];
    for (const [f, want] of cases) {
      const res = await getEvents(t, { filter: where({ typeId: type.id }, f), size: EVENTS_QUERY_SIZE });
      const wantIds = want.map((i) => ids[i]).sort();
      holds(t, {
        rule: 'event-management/queries/events-filter-fields',
        ok: res.status === 200 && JSON.stringify(idsOf(res).sort()) === JSON.stringify(wantIds),
        failure:
          'a filter on a DOUBLE, TIMESTAMP, UUID or ENUM custom field does not return exactly the events with its values',
        expected: `the events ${want.map((i) => `x ${values[i]}, w ${when[i]}, u ${uuids[i]}, e ${members[i]}`).join('; ')}`,
        received: () =>
          `${shown(f)}: ${JSON.stringify(eventsOf(res).map((e) => [e.x, e.w, e.u, e.e]))} ${seen(res, 100)}`,
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 14 },
);

for (const rule of [...new Set(FORBIDDEN.map((f) => f.rule))]) {
  const cases = FORBIDDEN.filter((f) => f.rule === rule);
  emTest(
    [rule],
    `GET /events answers 400 to ${cases.map((c) => c.what).join('; ')}`,
    async (t) => {
      const d = rule === 'event-management/queries/events-non-filterable-400' ? await dataset(t) : undefined;
      for (const c of cases) {
        const f = c.filter(t, d?.typeId ?? fixtures(t).standardEventTypeId);
        const cannot = typeof f === 'string' ? undefined : await inexpressible(t, f);
        if (cannot) {
          t.notExercised(rule, `${c.what}: ${cannot}`);
          continue;
        }
        refused(t, { rule, res: await getEvents(t, { filter: f }), what: c.what });
      }
    },
    {
      // The non-filterable rule's events are those of the file's dataset, which names entities.
      needs:
        rule === 'event-management/queries/events-non-filterable-400' ? ['fixtures.eventManagement.entityIds'] : [],
      readOnly: rule !== 'event-management/queries/events-non-filterable-400',
      budget: cases.length,
    },
  );
}

emTest(
  [
    'event-management/queries/asset-type-id-equality-or-in',
    'event-management/queries/asset-type-id-in-max-5',
    'event-management/queries/parent-asset-id-equality-only',
  ],
  'assetTypeId (equality, in up to 5) and parentAssetId (equality) select the events of the matching entities',
  async (t) => {
    const assetTypes = fixture(t, 'assetTypeIds');
    const site = fixture(t, 'parentAssetId');
    const entities = fixture(t, 'entityIds');
    const code = `A${tag()}`.slice(0, standardMaxLength('code'));
    const created = [];
    for (const entityId of entities) created.push(await postEvent(t, standardBody(t, { entityId, code })));
    const ours = created.filter((r) => r.status === 201).map((r) => body(r));
    if (ours.length !== entities.length)
      t.skip('could not create an event on every entity; judged by events/create-201');
    const ids = (res: HttpResponse) => idsOf(res).filter((id) => ours.some((e) => e.id === id));
    const q = (extra?: FilterExpr) =>
      getEvents(t, { filter: where({ source: marker(t), code }, ...(extra ? [extra] : [])), size: EVENTS_QUERY_SIZE });
    await eventually(
      () => q(),
      (r) => eventsOf(r).length === ours.length,
    );
    const perType = new Map<string, string[]>();
    for (const a of assetTypes) {
      const res = await q(eq('assetTypeId', a));
      answered(t, {
        rule: 'event-management/queries/asset-type-id-equality-or-in',
        res,
        what: 'assetTypeId equality',
      });
      perType.set(a, ids(res));
    }
    const all = [...perType.values()].flat();
    const twice = all.filter((id, i) => all.indexOf(id) !== i);
    holds(t, {
      rule: 'event-management/queries/asset-type-id-equality-or-in',
      ok: twice.length === 0,
      failure: 'an event returned for two asset types (the filter is not applied)',
      expected: 'each event under one asset type',
      received: JSON.stringify([...perType.entries()]),
    });
    const missing = ours.filter((e) => !all.includes(e.id));
    holds(t, {
      rule: 'event-management/queries/asset-type-id-equality-or-in',
      ok: missing.length === 0,
      failure: 'events of the configured entities under none of the configured asset types',
      expected: "every event under its entity's asset type",
      received: () => JSON.stringify(missing.map((e) => e.entityId)),
    });
    // As many values as IN takes: the configured asset types, then names no asset type has.
    const most = [
      ...assetTypes.slice(0, ASSET_TYPE_ID_IN_MAX),
      ...Array.from({ length: ASSET_TYPE_ID_IN_MAX - 1 }, (_, i) => `${t.prefix}nosuchasset${i + 1}`),
    ].slice(0, ASSET_TYPE_ID_IN_MAX);
    const inRes = await q(isIn('assetTypeId', most));
    answered(t, {
      rule: 'event-management/queries/asset-type-id-in-max-5',
      res: inRes,
      what: `assetTypeId in with ${ASSET_TYPE_ID_IN_MAX} values`,
    });
    const expectedIn = most.flatMap((a) => perType.get(a) ?? []).sort();
    holds(t, {
      rule: 'event-management/queries/asset-type-id-equality-or-in',
      ok: JSON.stringify(ids(inRes).sort()) === JSON.stringify(expectedIn),
      failure: 'assetTypeId in does not return the union of its equalities',
      expected: JSON.stringify(expectedIn),
      received: JSON.stringify(ids(inRes).sort()),
    });
    const parent = await q(eq('parentAssetId', site));
    answered(t, {
      rule: 'event-management/queries/parent-asset-id-equality-only',
      res: parent,
      what: 'parentAssetId equality',
    });
    const underSite = ours
      .filter((e) => e.entityId !== site)
      .map((e) => e.id)
      .sort();
    holds(t, {
      rule: 'event-management/queries/parent-asset-id-equality-only',
      ok: JSON.stringify(ids(parent).sort()) === JSON.stringify(underSite),
      failure: "parentAssetId does not select the events of the site's children",
      expected: JSON.stringify(underSite),
      received: JSON.stringify(ids(parent).sort()),
    });
  },
  {
    needs: [
      'fixtures.eventManagement.assetTypeIds',
      'fixtures.eventManagement.entityIds',
      'fixtures.eventManagement.parentAssetId',
    ],
    budget: 14,
  },
);

emTest(
  ['event-management/queries/standard-events-without-type-id', 'event-management/queries/events-default-sort'],
  'GET /events without typeId returns standard events (and of field-less descendants), never events of other custom types',
  async (t) => {
    const standard = fixtures(t).standardEventTypeId;
    const custom = await createType(t, { fields: [field('x', 'INTEGER', { filterable: true })] });
    const child = await createType(t, { parentId: standard, fields: [] });
    // A descendant of the standard type with a field of its own is one of the "other custom types".
    const widened = await createType(t, { parentId: standard, fields: [field('y', 'INTEGER')] });
    const entityId = entity(t, 2);
    const code = `S${tag()}`.slice(0, standardMaxLength('code'));
    const mine = body(await postEvent(t, standardBody(t, { entityId, code })));
    const customEvent = body(
      await onceVisible(() => postEvent(t, { typeId: custom.id, timestamp: iso(-60_000), entityId, x: 1 })),
    );
    const childEvent = body(
      // Older than the standard event though written after it: the list orders by timestamp, not by writing.
      await onceVisible(() =>
        postEvent(t, { typeId: child.id, timestamp: iso(-180_000), entityId, code, source: marker(t) }),
      ),
    );
    const widenedEvent = body(
      await onceVisible(() => postEvent(t, { typeId: widened.id, timestamp: iso(-60_000), entityId, code, y: 1 })),
    );
    // A standard event older than the child's, written last: neither the order of writing nor one
    // timeline after another gives timestamps descending.
    const older = body(await postEvent(t, standardBody(t, { entityId, code, timestamp: iso(-300_000) })));
    const res = await eventually(
      () => getEvents(t, { filter: where({ entityId }, after('timestamp', iso(-600_000))), size: EVENTS_PAGE.max }),
      (r) => [mine.id, childEvent.id, older.id].every((id) => idsOf(r).includes(id)),
    );
    const got = eventsOf(res.value);
    // Standard events and those of the field-less child type form one list, newest first.
    const times = got.map((e) => Date.parse(String(e.timestamp)));
    holds(t, {
      rule: 'event-management/queries/events-default-sort',
      ok: times.every((ms, i) => i === 0 || times[i - 1] >= ms),
      failure: 'standard events and events of a field-less child type not listed newest first together',
      expected: 'one list by timestamp descending',
      received: JSON.stringify(got.map((e) => [e.typeId, e.timestamp])),
    });
    holds(t, {
      rule: 'event-management/queries/standard-events-without-type-id',
      ok: !idsOf(res.value).includes(customEvent.id),
      failure: 'an event of a custom type with fields returned without typeId',
      expected: 'no event of a custom type with own fields',
      received: JSON.stringify(got.filter((e) => e.id === customEvent.id)),
    });
    // "(and descendants, without their own fields)" reads two ways: descendants that add no field
    // (ours: the widened event is not returned), or descendants returned without their own fields.
    // Under both, no event comes back carrying a descendant's own field.
    const widenedGot = got.filter((e) => e.id === widenedEvent.id);
    holds(t, {
      rule: 'event-management/queries/standard-events-without-type-id',
      ok: widenedGot.every((e) => !('y' in e)),
      failure: "an event of a descendant of the standard type returned without typeId with the descendant's own field",
      expected: 'no own field of a descendant in the list',
      received: JSON.stringify(widenedGot),
    });
    holds(t, {
      reading: 'descendants-adding-no-fields',
      rule: 'event-management/queries/standard-events-without-type-id',
      ok: widenedEvent.id === undefined || widenedGot.length === 0,
      failure: 'an event of a descendant of the standard type with its own field returned without typeId',
      expected: 'no event of a descendant with own fields',
      received: JSON.stringify(widenedGot),
    });
    holds(t, {
      rule: 'event-management/queries/standard-events-without-type-id',
      ok: res.ok,
      failure: 'standard events (or of a field-less child of the standard type) missing',
      expected: `${mine.id} and ${childEvent.id}`,
      received: JSON.stringify(idsOf(res.value).slice(0, 10)),
    });
    // With no filter at all: the standard events of the last 7 days, the one created here among them.
    const unfiltered = await getEvents(t, {});
    holds(t, {
      rule: 'event-management/queries/standard-events-without-type-id',
      ok:
        unfiltered.status === 200 &&
        Number(body(unfiltered).page?.totalElements) >= 1 &&
        eventsOf(unfiltered).length >= 1,
      failure: 'GET /events without a filter answers no standard event',
      expected: `HTTP 200 holding at least the standard event ${mine.id} of a minute ago`,
      received: seen(unfiltered, 160),
    });
    const foreignTypes = [...new Set(got.map((e) => String(e.typeId)))].filter(
      (id) => id !== standard && id !== child.id,
    );
    for (const id of foreignTypes.slice(0, 3)) {
      // Under both readings the type descends from the standard type; that it adds no field is ours.
      const type = await send(t, { method: 'GET', path: `/eventTypes/${encodeURIComponent(id)}` });
      let parent: unknown = body(type).parentId;
      for (let depth = 0; depth < 4 && typeof parent === 'string' && parent !== standard && parent !== ''; depth++)
        parent = body(await send(t, { method: 'GET', path: `/eventTypes/${encodeURIComponent(parent)}` })).parentId;
      holds(t, {
        rule: 'event-management/queries/standard-events-without-type-id',
        ok: type.status === 200 && (id === widened.id || parent === standard),
        failure: `events of type ${id}, no descendant of the standard type, returned without typeId`,
        expected: 'only standard events and events of its descendants',
        received: seen(type, 160),
        soft: true,
      });
      holds(t, {
        reading: 'descendants-adding-no-fields',
        rule: 'event-management/queries/standard-events-without-type-id',
        ok: type.status !== 200 || (body(type).fields ?? []).length === 0,
        failure: `events of type ${id}, which has fields of its own, returned without typeId`,
        expected: 'only standard events and field-less descendants',
        received: seen(type, 160),
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 28 },
);
