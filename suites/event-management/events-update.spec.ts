import { randomUUID } from 'node:crypto';
import { where } from '../engine/filter-expression.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, entity, eventually, fixture, iso, send, seen, embedded } from './em-client.ts';
import { refused, answered, holds, etagHeader, taken, takenOrRefused } from '../engine/checks/index.ts';
import { standardFieldCases, type FieldCase } from './em-arbitraries.ts';
import { asRequest, createEvent, createType, field, putEvent, standardBody } from './em-resources.ts';
import { SEVERITY, standardMaxLength } from './em-bounds.ts';

/** Reads an event until it shows at least `etag` (a change may take 100 ms to be visible). */
async function readAtLeast(t: RuleContext, id: string, etag: number) {
  return (
    await eventually(
      () => send(t, { method: 'GET', path: `/events/${id}` }),
      (r) => r.status === 200 && Number(body(r).etag) >= etag,
    )
  ).value;
}

emTest(
  [
    'event-management/events/update-200',
    'event-management/events/etag-counter',
    'event-management/etags/event-etag-header',
    'event-management/events/full-event-in-write-responses',
    'event-management/events/update-content-only',
    'event-management/events/standard-fields-updatable',
  ],
  'PUT /events/{id} with the current etag changes the standard fields in place: 200, the new values, a higher etag, the same id and history',
  async (t) => {
    const e = await createEvent(
      t,
      standardBody(t, { severity: 10, description: 'before', code: 'A', acknowledged: false }),
    );
    const change = { severity: 90, description: 'after', code: 'B', source: t.prefix, acknowledged: true };
    const res = await putEvent(t, e.id, String(e.etag), { ...asRequest(e), ...change });
    answered(t, { rule: 'event-management/events/update-200', res, what: 'update with the current etag' });
    const u = body(res);
    const wrong = Object.entries(change).filter(([k, v]) => u[k] !== v);
    holds(t, {
      rule: 'event-management/events/standard-fields-updatable',
      ok: wrong.length === 0,
      failure: 'standard fields not all updated',
      expected: JSON.stringify(change),
      received: () => `differs in ${wrong.map(([k]) => k).join(', ')}: ${JSON.stringify(u)}`,
    });
    holds(t, {
      rule: 'event-management/events/full-event-in-write-responses',
      ok: u.entityId === e.entityId && u.correlationId === e.correlationId && u.typeId === e.typeId,
      failure: 'the 200 does not carry the full event',
      expected: 'typeId, correlationId, entityId as before',
      received: JSON.stringify(u),
    });
    holds(t, {
      rule: 'event-management/events/etag-counter',
      ok: Number.isInteger(u.etag) && u.etag > e.etag,
      failure: 'etag did not increase with the update',
      expected: `an integer above ${e.etag}`,
      received: String(u.etag),
    });
    etagHeader(t, {
      rule: 'event-management/etags/event-etag-header',
      res,
      etag: u.etag,
      what: 'PUT',
    });
    holds(t, {
      rule: 'event-management/events/update-content-only',
      ok: u.id === e.id,
      failure: 'PUT created another event',
      expected: `id ${e.id}`,
      received: String(u.id),
    });
    // "typeId ... is required for custom events": a standard event's update may leave it out.
    const { typeId: _typeId, ...noTypeId } = asRequest(u);
    const severity = 50; // not a contract bound: a severity other than the event's
    const again = await putEvent(t, e.id, String(u.etag), { ...noTypeId, severity });
    // typeId is required for custom events only.
    taken(t, {
      rule: 'event-management/events/update-200',
      res: again,
      what: 'PUT of a standard event without typeId',
    });
    taken(t, {
      rule: 'event-management/events/etag-counter',
      res: again,
      what: 'a second update',
      shows: { etag: (v: unknown) => (v as number) > u.etag },
      showsText: `etag above ${u.etag}`,
    });
    const read = await readAtLeast(t, e.id, body(again).etag);
    taken(t, {
      rule: 'event-management/events/update-200',
      res: read,
      what: 'a read of the update',
      shows: { severity },
    });
    const hist = await eventually(
      () =>
        send(t, {
          method: 'GET',
          path: '/events',
          query: { history: 'true', filter: where({ correlationId: e.correlationId, entityId: e.entityId }) },
        }),
      (r) => embedded(r, 'events').some((x: any) => x.severity === severity),
    );
    const instances = embedded(hist.value, 'events') as any[];
    holds(t, {
      rule: 'event-management/events/update-content-only',
      ok: instances.length === 1 && instances[0].id === e.id,
      failure: 'an update added an instance to the history',
      expected: 'one instance, the updated event',
      received: JSON.stringify(instances.map((x) => [x.id, x.etag])),
      soft: true,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 8 },
);

/** The event a property changes, with the etag of its last successful update. */
interface Target {
  e: Record<string, any>;
  etag: number;
}

async function judgeUpdate(t: RuleContext, target: Target, c: FieldCase): Promise<void> {
  const res = await putEvent(t, target.e.id, String(target.etag), { ...asRequest(target.e), [c.field]: c.value });
  if (res.status === 200) target.etag = body(res).etag;
  const what = `PUT with ${c.what}`;
  if (!c.valid) refused(t, { rule: 'event-management/events/update-invalid-value-400', res, what });
  // A value valid only on our reading of "characters" (c.reading): its refusal is a warning, and the test goes on.
  takenOrRefused(t, { rule: c.rule, res, what, valid: c.valid, reading: c.reading, statuses: [200] });
}

emTest(
  [
    'event-management/events/severity-range',
    'event-management/events/severity-out-of-range-400',
    'event-management/events/description-length',
    'event-management/events/code-length',
    'event-management/events/code-too-long-400',
    'event-management/events/source-length',
    'event-management/events/source-or-description-too-long-400',
    'event-management/events/acknowledged-boolean',
    'event-management/events/update-invalid-value-400',
  ],
  'standard fields on PUT: every exact boundary on both sides and random values (property); a refused update leaves the event unchanged',
  async (t) => {
    const e = await createEvent(t, standardBody(t, { severity: 7, code: 'KEEP' }));
    const target: Target = { e, etag: e.etag };
    const { boundaries, arbitrary } = standardFieldCases();
    for (const c of boundaries) await judgeUpdate(t, target, c);
    await t.property(arbitrary, (c) => judgeUpdate(t, target, c), {
      rule: 'event-management/events/update-invalid-value-400',
      runs: Math.min(t.session.context.runs, 15),
    });
    // A refused update changes nothing.
    const before = await readAtLeast(t, e.id, target.etag);
    const bad = await putEvent(t, e.id, String(body(before).etag), {
      ...asRequest(body(before)),
      severity: SEVERITY.max + 1,
      code: 'x'.repeat(standardMaxLength('code') + 1),
    });
    refused(t, {
      rule: 'event-management/events/update-invalid-value-400',
      res: bad,
      what: `PUT with severity ${SEVERITY.max + 1} and a code of ${standardMaxLength('code') + 1} characters`,
    });
    const after = await send(t, { method: 'GET', path: `/events/${e.id}` });
    holds(t, {
      rule: 'event-management/events/update-invalid-value-400',
      ok: body(after).etag === body(before).etag && body(after).severity === body(before).severity,
      failure: 'a refused update changed the event',
      expected: `etag ${body(before).etag}, severity ${body(before).severity}`,
      received: seen(after),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 52, budgetPerRun: 2 },
);

emTest(
  [
    'event-management/events/update-keys-required',
    'event-management/events/type-id-not-updatable',
    'event-management/events/correlation-id-not-updatable',
    'event-management/events/timestamp-not-updatable',
    'event-management/events/entity-id-not-updatable',
    'event-management/events/update-type-id-missing-400',
  ],
  'PUT /events/{id}: correlationId, timestamp and entityId are required and cannot change, nor can typeId',
  async (t) => {
    const type = await createType(t, { fields: [field('note', 'STRING')] });
    const e = await createEvent(t, { typeId: type.id, timestamp: iso(-300_000), entityId: entity(t, 0), note: 'x' });
    const base = asRequest(e);
    const put = (json: unknown) => putEvent(t, e.id, String(e.etag), json);
    const missing = ['correlationId', 'timestamp', 'entityId'].map((key) => {
      const { [key]: _drop, ...rest } = base;
      return [`PUT without ${key}`, rest];
    });
    // A body of JSON null or an array carries none of the three.
    for (const [what, json] of [
      ...missing,
      ['PUT with a body of JSON null', null],
      ['PUT with a body that is an array', [base]],
    ] as Array<[string, unknown]>)
      refused(t, { rule: 'event-management/events/update-keys-required', res: await put(json), what });
    refused(t, {
      rule: 'event-management/events/correlation-id-not-updatable',
      res: await put({ ...base, correlationId: randomUUID() }),
      what: 'PUT with another correlationId',
    });
    refused(t, {
      rule: 'event-management/events/timestamp-not-updatable',
      res: await put({ ...base, timestamp: iso(-200_000) }),
      what: 'PUT with another timestamp',
    });
    const same = new Date(Date.parse(String(e.timestamp))).toISOString().replace('Z', '+00:00');
    const sameInstant = await put({ ...base, timestamp: same });
    taken(t, {
      rule: 'event-management/events/timestamp-not-updatable',
      res: sameInstant,
      what: 'the same instant written as +00:00',
      reading: 'timestamp-same-instant',
    });
    const etag = sameInstant.status === 200 ? String(body(sameInstant).etag) : String(e.etag);
    const { typeId: _typeId, ...noType } = base;
    const changes = [
      [
        'event-management/events/entity-id-not-updatable',
        'PUT with another entityId',
        { ...base, entityId: entity(t, 1) },
      ],
      [
        'event-management/events/type-id-not-updatable',
        'PUT with another typeId',
        { ...base, typeId: fixture(t, 'standardEventTypeId') },
      ],
      ['event-management/events/update-type-id-missing-400', 'PUT of a custom event without typeId', noType],
    ] as const;
    for (const [rule, what, json] of changes) refused(t, { rule, res: await putEvent(t, e.id, etag, json), what });
  },
  { needs: ['fixtures.eventManagement.entityIds', 'fixtures.eventManagement.standardEventTypeId'], budget: 14 },
);

emTest(
  [
    'event-management/events/update-required-field-missing-400',
    'event-management/events/update-required-null-400',
    'event-management/events/update-incompatible-type-400',
    'event-management/events/update-non-updatable-field-400',
    'event-management/events/update-200',
  ],
  'PUT of a custom event: required fields must stay set, values keep their type, non-updatable fields keep their value',
  async (t) => {
    const type = await createType(t, {
      fields: [
        field('must', 'INTEGER', { required: true }),
        field('fixed', 'STRING', { updatable: false }),
        field('free', 'STRING', { updatable: true }),
      ],
    });
    const e = await createEvent(t, {
      typeId: type.id,
      timestamp: iso(-300_000),
      entityId: entity(t),
      must: 1,
      fixed: 'a',
      free: 'b',
    });
    const base = asRequest(e);
    const put = (json: unknown) => putEvent(t, e.id, String(e.etag), json);
    const { must: _must, ...noRequired } = base;
    const bodies: Array<[string, string, unknown]> = [
      ['event-management/events/update-required-field-missing-400', 'PUT without the required field', noRequired],
      [
        'event-management/events/update-required-null-400',
        'PUT setting the required field to null',
        { ...base, must: null },
      ],
      [
        'event-management/events/update-incompatible-type-400',
        'PUT with a string for an INTEGER field',
        { ...base, must: 'one' },
      ],
      [
        'event-management/events/update-incompatible-type-400',
        'PUT with a number for a STRING field',
        { ...base, free: 5 },
      ],
      [
        'event-management/events/update-non-updatable-field-400',
        'PUT changing a field declared updatable false',
        { ...base, fixed: 'changed' },
      ],
    ];
    for (const [rule, what, json] of bodies) refused(t, { rule, res: await put(json), what });
    taken(t, {
      rule: 'event-management/events/update-200',
      res: await put({ ...base, fixed: 'a', free: 'changed' }),
      what: 'a PUT keeping the non-updatable value',
      shows: { free: 'changed', fixed: 'a' },
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 10 },
);

emTest(
  ['event-management/event-types/field-updatable-default'],
  "the default of a field's updatable flag (contradictory in the document) and what PUT does with such a field",
  async (t) => {
    const type = await createType(t, { fields: [field('plain', 'STRING')] });
    const flag = (type.fields ?? [])[0]?.updatable;
    const e = await createEvent(t, { typeId: type.id, timestamp: iso(-300_000), entityId: entity(t), plain: 'a' });
    const res = await putEvent(t, e.id, String(e.etag), { ...asRequest(e), plain: 'b' });
    t.observe(
      'event-management/event-types/field-updatable-default',
      `a field created without updatable is returned with updatable ${JSON.stringify(flag)}; changing its value by PUT answered HTTP ${res.status}`,
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 4 },
);

emTest(
  ['event-management/events/update-not-found-404', 'event-management/events/update-shared-event-400'],
  'PUT of an unknown event answers 404; PUT of an event shared by another tenant answers 400',
  async (t) => {
    refused(t, {
      rule: 'event-management/events/update-not-found-404',
      res: await putEvent(t, randomUUID(), '0', standardBody(t, { correlationId: randomUUID() })),
      what: 'PUT of an unknown event id',
      statuses: [404],
    });
    const shared = fixture(t, 'sharedEventId');
    const got = await send(t, { method: 'GET', path: `/events/${shared}`, query: { includeShared: 'true' } });
    const current =
      got.status === 200
        ? body(got)
        : {
            id: shared,
            etag: 0,
            timestamp: iso(-3_600_000),
            entityId: fixture(t, 'sharedEntityId'),
            correlationId: randomUUID(),
          };
    refused(t, {
      rule: 'event-management/events/update-shared-event-400',
      res: await putEvent(t, shared, String(current.etag), {
        ...asRequest(current),
        description: 'changed by a receiver',
      }),
      what: 'PUT of an event owned by another tenant and shared with the caller',
    });
    // Not even a shared event of another tenant may be changed ("shared event owned by another
    // tenant" is a 400); one not shared with the caller names no event of its own (404) or one it
    // lacks permission for (403): a refusal either way.
    if (t.session.tokens.has('otherTenant')) {
      const own = await createEvent(t, standardBody(t));
      const foreign = await putEvent(
        t,
        own.id,
        String(own.etag),
        { ...asRequest(own), description: 'changed by another tenant' },
        { as: 'otherTenant' },
      );
      refused(t, {
        rule: 'event-management/events/update-not-found-404',
        res: foreign,
        what: 'a PUT of an event of another tenant, not shared with the caller',
        anyClientError: true,
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds', 'fixtures.eventManagement.sharedEventId'], budget: 5 },
);
