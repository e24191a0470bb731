import type { RuleContext } from '../engine/rule-test.ts';
import { EVENT } from './em-descriptions.ts';
import { createdAndRead } from '../engine/resources/index.ts';
import { randomUUID } from 'node:crypto';
import {
  accepted,
  answered,
  hasRequiredMembers,
  holds,
  refused,
  servesRecord,
  storedAsSent,
  taken,
  takenOrRefused,
} from '../engine/checks/index.ts';
import { SERVICE, UUID, body, emTest, entity, fixtures, iso, send, EM_IO, onceVisible } from './em-client.ts';
import { standardFieldCases, timestampCase, timestampOf, type TimestampCase } from './em-arbitraries.ts';
import { createType, daysAgo, postEvent, standardBody } from './em-resources.ts';
import { CORRELATION_ID_MAX } from './em-bounds.ts';
import type { FieldCase } from './em-arbitraries.ts';

const STANDARD_FIELDS = { severity: 42, description: 'conformance event', code: 'CONF-1', acknowledged: false };

/** Sends one standard field value; a valid one must be taken and stored as sent (on its reading, a warning). */
async function postStandardField(t: RuleContext, c: FieldCase): Promise<void> {
  const res = await postEvent(t, standardBody(t, { [c.field]: c.value }));
  const stored = { sent: { [c.field]: c.value }, record: body(res), what: c.field };
  takenOrRefused(t, {
    rule: c.rule,
    res,
    what: `POST /events with ${c.what}`,
    valid: c.valid,
    reading: c.reading,
    stored,
  });
}

emTest(
  [
    'event-management/events/create-201',
    'event-management/events/standard-without-type-id',
    'event-management/events/response-required-fields',
    'event-management/events/response-id-uuid',
    'event-management/events/self-link',
    'event-management/events/full-event-in-write-responses',
    'event-management/events/get-200',
    'event-management/etags/event-etag-header',
  ],
  'POST /events without typeId creates a standard event: 201, Location, ETag and the full event, readable by its self link',
  async (t) => {
    const sent = standardBody(t, STANDARD_FIELDS);
    const { record: e } = await createdAndRead(
      t,
      EM_IO,
      EVENT.created,
      sent,
      'a standard event with all five standard fields',
    );
    // Each check below stands on its own: a failed one does not keep the others from being judged.
    holds(t, {
      rule: 'event-management/events/response-id-uuid',
      ok: UUID.test(String(e.id)),
      failure: 'event id is not a uuid',
      expected: 'a uuid',
      received: String(e.id),
      soft: true,
    });
    holds(t, {
      rule: 'event-management/events/standard-without-type-id',
      ok: e.typeId === fixtures(t).standardEventTypeId,
      failure: 'an event without typeId is not a standard event',
      expected: `typeId ${fixtures(t).standardEventTypeId}`,
      received: String(e.typeId),
      soft: true,
    });
    const changed = Object.entries({ ...STANDARD_FIELDS, source: sent.source, entityId: sent.entityId }).filter(
      ([k, v]) => e[k] !== v,
    );
    holds(t, {
      rule: 'event-management/events/full-event-in-write-responses',
      ok: changed.length === 0,
      failure: 'the 201 does not carry the full event',
      expected: JSON.stringify(sent),
      received: () => `differs in ${changed.map(([k]) => k).join(', ')}: ${JSON.stringify(e)}`,
      soft: true,
    });
    holds(t, {
      rule: 'event-management/events/full-event-in-write-responses',
      ok: Date.parse(String(e.timestamp)) === Date.parse(String(sent.timestamp)),
      failure: 'the 201 carries another timestamp',
      expected: String(sent.timestamp),
      received: String(e.timestamp),
      soft: true,
    });
    const self = (e._links as { self?: { href?: unknown } } | undefined)?.self?.href;
    holds(t, {
      rule: 'event-management/events/self-link',
      ok: typeof self === 'string' && /^https?:\/\//.test(self),
      failure: 'no absolute _links.self.href',
      expected: 'an absolute URI',
      received: JSON.stringify(e._links),
    });
    const path = new URL(String(self)).pathname.replace(/^.*\/api\/eventmanagement\/v3/, '');
    servesRecord(t, {
      rule: 'event-management/events/self-link',
      res: await onceVisible(() => send(t, { method: 'GET', path })),
      link: `_links.self ${String(self)}`,
      id: e.id,
      what: 'the event',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 6 },
);

emTest(
  [
    'event-management/events/standard-fields-optional',
    'event-management/events/response-required-fields',
    'event-management/events/response-id-uuid',
  ],
  'POST /events with only timestamp and entityId answers 201 with a generated correlationId and a new id each time',
  async (t) => {
    const minimal = { timestamp: iso(-120_000), entityId: entity(t) };
    const a = await postEvent(t, minimal);
    answered(t, {
      rule: 'event-management/events/standard-fields-optional',
      res: a,
      what: 'an event without any standard field',
      statuses: [201],
    });
    const b = await postEvent(t, minimal);
    answered(t, {
      rule: 'event-management/events/standard-fields-optional',
      res: b,
      what: 'an event without any standard field',
      statuses: [201],
    });
    for (const e of [body(a), body(b)]) {
      hasRequiredMembers(t, {
        rule: 'event-management/events/response-required-fields',
        service: SERVICE,
        schema: EVENT.schema,
        value: e,
        what: 'an event sent without typeId or correlationId',
        emptyText: true,
        soft: true,
      });
    }
    holds(t, {
      rule: 'event-management/events/response-id-uuid',
      ok: UUID.test(body(a).id) && UUID.test(body(b).id) && body(a).id !== body(b).id,
      failure: 'two creations share an id (or it is no uuid)',
      expected: 'two distinct uuids',
      received: `${body(a).id} and ${body(b).id}`,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 2 },
);

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
  ],
  'standard fields on POST: every exact boundary on both sides, then random values in and out of range (property)',
  async (t) => {
    const { boundaries, arbitrary } = standardFieldCases();
    for (const c of boundaries) await postStandardField(t, c);
    await t.property(arbitrary, (c) => postStandardField(t, c), {
      rule: 'event-management/events/severity-range',
      runs: Math.min(t.session.context.runs, 25),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 32, budgetPerRun: 1 },
);

emTest(
  ['event-management/events/entity-id-or-timestamp-missing-400'],
  'POST /events without entityId or without timestamp answers 400',
  async (t) => {
    const { entityId: _e, ...noEntity } = standardBody(t);
    const { timestamp: _ts, ...noTimestamp } = standardBody(t);
    // A body of JSON null or an array carries neither entityId nor timestamp: the same 400.
    for (const [json, what] of [
      [noEntity, 'an event without entityId'],
      [noTimestamp, 'an event without timestamp'],
      [standardBody(t, { timestamp: null }), 'an event with timestamp null'],
      [null, 'a body of JSON null'],
      [[standardBody(t)], 'a body that is an array holding an event'],
    ] as const)
      refused(t, {
        rule: 'event-management/events/entity-id-or-timestamp-missing-400',
        res: await postEvent(t, json),
        what,
      });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 5 },
);

emTest(
  ['event-management/events/timestamp-not-utc-400', 'event-management/events/create-201'],
  'timestamps: UTC forms are accepted, other offsets, missing zones and impossible dates answer 400 (property)',
  async (t) => {
    const judge = async (c: TimestampCase) => {
      const res = await postEvent(t, standardBody(t, { timestamp: c.value }));
      const what = `timestamp ${JSON.stringify(c.value)} (${c.form})`;
      // +00:00 taken as UTC, another offset or no zone refused: our reading of "UTC timestamp".
      if (c.reading && c.valid)
        accepted(t, { rule: 'event-management/events/timestamp-not-utc-400', res, what, reading: c.reading });
      else if (c.reading)
        refused(t, { rule: 'event-management/events/timestamp-not-utc-400', res, what, reading: c.reading });
      else if (c.valid) accepted(t, { rule: 'event-management/events/create-201', res, what });
      else refused(t, { rule: 'event-management/events/timestamp-not-utc-400', res, what });
    };
    await t.property(timestampCase(), judge, {
      rule: 'event-management/events/timestamp-not-utc-400',
      runs: Math.min(t.session.context.runs, 20),
    });
    // Every form the verdict rests on at least once, whatever the property drew (all within the ttl).
    for (const form of [
      'Z',
      '+00:00',
      'offset+02:00',
      'no-zone',
      'date-only',
      'month-13',
      'minute-60',
      'text-before',
      'text-after',
      'words',
    ] as const)
      await judge(timestampOf(form, 120_000));
  },
  { needs: ['fixtures.eventManagement.entityIds'], budgetPerRun: 1, budget: 10 },
);

emTest(
  ['event-management/events/timestamp-outside-ttl-400', 'event-management/events/create-201'],
  "an event whose timestamp plus its type's ttl lies in the past answers 400; one inside the ttl is accepted",
  async (t) => {
    // Types whose ttl the test gives: the standard type's own ttl is not shown (35 days is the
    // default of a created type).
    const ttl = 35; // not a contract bound: a ttl of the test's choosing
    const typed = await createType(t, { ttl });
    const customTtl = (timestamp: string) => postEvent(t, { typeId: typed.id, timestamp, entityId: entity(t) });
    refused(t, {
      rule: 'event-management/events/timestamp-outside-ttl-400',
      res: await onceVisible(() => customTtl(daysAgo(ttl + 1))),
      what: `an event of a type with ttl ${ttl} that is ${ttl + 1} days old`,
    });
    accepted(t, {
      rule: 'event-management/events/create-201',
      res: await customTtl(daysAgo(ttl - 1)),
      what: `an event of a type with ttl ${ttl} that is ${ttl - 1} days old`,
    });
    const type = await createType(t, { ttl: 1 });
    const custom = (timestamp: string) => postEvent(t, { typeId: type.id, timestamp, entityId: entity(t) });
    refused(t, {
      rule: 'event-management/events/timestamp-outside-ttl-400',
      res: await onceVisible(() => custom(daysAgo(2))),
      what: 'an event of a type with ttl 1 that is 2 days old',
    });
    accepted(t, {
      rule: 'event-management/events/create-201',
      res: await custom(iso(-12 * 3_600_000)),
      what: 'an event of a type with ttl 1 that is 12 hours old',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 8 },
);

emTest(
  ['event-management/events/correlation-id-uuid', 'event-management/events/entity-id-uuid'],
  'correlationId and entityId are uuids: a correlationId the service gives is one, an entityId that is not one is refused',
  async (t) => {
    const given = await postEvent(t, standardBody(t));
    taken(t, {
      rule: 'event-management/events/correlation-id-uuid',
      res: given,
      what: 'an event without correlationId',
      statuses: [201],
      shows: { correlationId: (v: unknown) => UUID.test(String(v)) },
      showsText: 'a uuid correlationId',
    });
    const sent = randomUUID();
    const kept = await postEvent(t, standardBody(t, { correlationId: sent }));
    storedAsSent(t, {
      rule: 'event-management/events/correlation-id-uuid',
      res: kept,
      statuses: [201],
      stored: body(kept),
      sent: { correlationId: sent },
      what: 'a uuid correlationId',
    });
    const bad = await postEvent(t, standardBody(t, { entityId: `${t.prefix}-not-a-uuid` }));
    refused(t, {
      rule: 'event-management/events/entity-id-uuid',
      res: bad,
      what: 'an entityId that is not a uuid',
      statuses: [400, 404],
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 3 },
);

emTest(
  ['event-management/events/correlation-id-too-long-400'],
  `correlationId: ${CORRELATION_ID_MAX} characters are accepted, one more answers 400`,
  async (t) => {
    // A uuid, padded or cut to the contract's bound: a correlationId like those the service makes.
    const sized = (n: number) => randomUUID().padEnd(n, 'x').slice(0, n);
    const atLimit = await postEvent(t, standardBody(t, { correlationId: sized(CORRELATION_ID_MAX) }));
    answered(t, {
      rule: 'event-management/events/correlation-id-too-long-400',
      res: atLimit,
      what: `a correlationId of ${CORRELATION_ID_MAX} characters`,
      statuses: [201],
    });
    refused(t, {
      rule: 'event-management/events/correlation-id-too-long-400',
      res: await postEvent(t, standardBody(t, { correlationId: sized(CORRELATION_ID_MAX + 1) })),
      what: `a correlationId of ${CORRELATION_ID_MAX + 1} characters`,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 2 },
);

emTest(
  ['event-management/events/base-event-type-400'],
  'POST /events with typeId BaseEvent answers 400',
  async (t) => {
    refused(t, {
      rule: 'event-management/events/base-event-type-400',
      res: await postEvent(t, standardBody(t, { typeId: fixtures(t).baseEventTypeId, source: undefined })),
      what: 'typeId BaseEvent',
    });
  },
  { needs: ['fixtures.eventManagement.baseEventTypeId', 'fixtures.eventManagement.entityIds'], budget: 1 },
);
