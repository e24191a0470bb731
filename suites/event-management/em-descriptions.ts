// Each Event Management resource described once, as data: where it lives, the contract schema of
// its answers, the rules its generic steps judge and how the generic tests make and change one
// (suites/engine/resources/ runs them over every description).
import type { ContractPointer } from '../../contracts/facts.ts';
import { where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import { randomUUID } from 'node:crypto';
import type {
  CreatedAndReadDescription,
  PageSizesDescription,
  PagesCompleteDescription,
  QueryEtagDescription,
  UnknownAndForeignDescription,
} from '../engine/resources/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { SERVICE, embedded, entity, iso, send } from './em-client.ts';
import { EVENT_TYPES_PAGE, EVENTS_PAGE, OUT_OF_BOUNDS, TTL_DEFAULT } from './em-bounds.ts';
import {
  asRequest,
  createEvent,
  createType,
  field,
  postEvent,
  postType,
  putEvent,
  standardBody,
  typeBody,
} from './em-resources.ts';
import type { Versioned } from './versioned/model.ts';

/** One resource of the service. */
export interface EmResource {
  /** As titles and failures name it. */
  noun: 'event' | 'type';
  collection: string;
  /** The schema of its answers, whose `required` members every answer carries. */
  schema: ContractPointer;
  /** Its collection query's ETag. */
  query: QueryEtagDescription;
  /** As the versioned-resource model reaches one record of it (`request`: the record as sent, for a PUT). */
  versioned(t: RuleContext, id: string, request: Record<string, unknown>): Versioned;
  /** The path of one record, and the key its collection's answers list records under. */
  path(id: string): string;
  listKey: 'events' | 'eventTypes';
  /** A collection filter that selects the record alone. */
  only(record: Record<string, unknown>): FilterExpr;
  /** POST of a new record of the test's own. */
  post(t: RuleContext, opts?: { query?: Record<string, string> }): Promise<HttpResponse>;
  /** The member `change` sets. */
  changes: 'severity' | 'ttl';
  /** A change of the record with its etag (PUT of the severity, PATCH of the ttl), to a value told by `n`. */
  change(
    t: RuleContext,
    record: Record<string, unknown>,
    query: Record<string, string> | undefined,
    n: number,
  ): Promise<HttpResponse>;
  /** The fixture naming a record another tenant shares with the caller. */
  shared: 'sharedEventId' | 'sharedEventTypeId';
  /** Its reads by ids the caller cannot see. */
  unknown: UnknownAndForeignDescription;
  /** How its collection query pages. */
  paging: PagesCompleteDescription;
  /** How one is created and read back. */
  created: CreatedAndReadDescription;
  /** The page sizes its collection query takes. */
  sizes: PageSizesDescription;
}

const PAGING = {
  rules: {
    pageObject: 'event-management/queries/page-object',
    links: 'event-management/queries/paging-links',
  },
  // "Page: size, totalElements, totalPages, number (integers)": the totals are named for what they
  // count; size as the size asked for (not the items of this page) and number as the index asked
  // for (counted from 0) are our reading, and so is which links a page carries (no next on the
  // last page, no prev on the first).
  readings: { pageAsAsked: 'spring-data-page', linksWhereAPageExists: 'paging-links-when-page-exists' },
  runs: 6,
};

/** Reads are tried plain and with includeShared, which adds records shared with the caller and no other. */
const SHARED_TOO = [undefined, { includeShared: 'true' }];

/** An event: PUT of its severity; its etag an incremental counter. */
export const EVENT: EmResource = {
  noun: 'event',
  collection: '/events',
  schema: '#/components/schemas/EventResponse',
  query: {
    collection: '/events',
    listKey: 'events',
    rules: {
      etagHeader: 'event-management/etags/query-etag-header',
      notModified: 'event-management/etags/query-events-304',
    },
    change: 'a new event changes the ETag',
    options: { needs: ['fixtures.eventManagement.entityIds'], budget: 8 },
    async setUp(t) {
      const typeId = String((await createType(t, { fields: [field('n', 'INTEGER', { filterable: true })] })).id);
      await createEvent(t, { typeId, timestamp: iso(-60_000), entityId: entity(t), n: 1 });
      return {
        query: { filter: where({ typeId }) },
        change: () => postEvent(t, { typeId, timestamp: iso(-30_000), entityId: entity(t), n: 2 }),
        changed: (r) => embedded(r, 'events').length === 2,
      };
    },
  },
  path: (id) => `/events/${id}`,
  listKey: 'events',
  only: (e) => where({ entityId: String(e.entityId), correlationId: String(e.correlationId) }),
  post: (t, opts) => postEvent(t, standardBody(t), opts),
  changes: 'severity',
  change: (t, e, query, n) => putEvent(t, String(e.id), String(e.etag), { ...asRequest(e), severity: n }, { query }),
  shared: 'sharedEventId',
  sizes: {
    collection: '/events',
    listKey: 'events',
    size: EVENTS_PAGE,
    rules: {
      served: 'event-management/queries/events-size-default',
      below: 'event-management/queries/events-size-below-1-400',
      above: 'event-management/queries/events-size-above-500-400',
      page: 'event-management/queries/page-default-and-minimum',
    },
    farAbove: [100_000], // not a contract bound: a size far above any
    outOfBounds: OUT_OF_BOUNDS,
  },
  created: {
    service: SERVICE,
    what: 'the event',
    operationId: 'createEvent',
    schema: '#/components/schemas/EventResponse',
    rules: {
      create: 'event-management/events/create-201',
      requiredMembers: 'event-management/events/response-required-fields',
      etagHeader: 'event-management/etags/event-etag-header',
      get: 'event-management/events/get-200',
    },
    path: (id) => `/events/${id}`,
    post: (t, json) => postEvent(t, json),
    same: (x, sent) => x.source === sent.source,
  },
  paging: {
    ...PAGING,
    collection: '/events',
    listKey: 'events',
    rules: { ...PAGING.rules, order: 'event-management/queries/events-default-sort' },
    order: 'newest first',
    sizes: { min: 4, max: 50 }, // not a contract bound: the page sizes drawn
  },
  unknown: {
    rule: 'event-management/events/get-not-found-404',
    noun: 'event',
    path: (id) => `/events/${id}`,
    unknownId: () => randomUUID(),
    malformed: { id: 'not-a-uuid', reading: 'malformed-id-404' },
    queries: SHARED_TOO,
    create: async (t) => String((await createEvent(t, standardBody(t))).id),
    foreignReading: 'foreign-record-404',
    options: { needs: ['fixtures.eventManagement.entityIds'], budget: 7 },
  },
  versioned: (t, id, request) => ({
    t,
    noun: 'event',
    write: { method: 'PUT', what: 'severity' },
    path: `/events/${id}`,
    rules: {
      etagHeader: 'event-management/etags/event-etag-header',
      get304: 'event-management/etags/get-event-304',
      counter: 'event-management/events/etag-counter',
      writeOk: 'event-management/events/update-200',
      writeStale: 'event-management/etags/update-event-stale-412',
      writeIfMatchRequired: 'event-management/etags/update-event-if-match-required',
    },
    send: (ifMatch, severity) => putEvent(t, id, ifMatch, { ...request, severity }),
    counter: 'increases',
  }),
};

/** An event type: PATCH of its ttl, DELETE; its etag an int64 (that it increases: a reading). */
export const EVENT_TYPE: EmResource = {
  noun: 'type',
  collection: '/eventTypes',
  schema: '#/components/schemas/EventTypeResponse',
  query: {
    collection: '/eventTypes',
    listKey: 'eventTypes',
    rules: {
      etagHeader: 'event-management/etags/query-etag-header',
      notModified: 'event-management/etags/query-event-types-304',
    },
    change: 'a change of a listed type changes it',
    options: { budget: 8 },
    async setUp(t) {
      const type = await createType(t);
      const id = String(type.id);
      return {
        query: { filter: where({ id }) },
        change: () =>
          send(t, {
            method: 'PATCH',
            path: `/eventTypes/${encodeURIComponent(id)}`,
            headers: { 'If-Match': String(type.etag) },
            // A ttl other than the one the type was created with (the default).
            json: { op: 'replace', path: '/ttl', value: TTL_DEFAULT + 1 },
          }),
        changed: (r) => embedded(r, 'eventTypes')[0]?.ttl === TTL_DEFAULT + 1,
      };
    },
  },
  path: (id) => `/eventTypes/${encodeURIComponent(id)}`,
  listKey: 'eventTypes',
  only: (x) => where({ id: String(x.id) }),
  post: (t, opts) => postType(t, typeBody(t), opts),
  changes: 'ttl',
  change: (t, x, query, n) =>
    send(t, {
      method: 'PATCH',
      path: `/eventTypes/${encodeURIComponent(String(x.id))}`,
      query,
      headers: { 'If-Match': String(x.etag) },
      json: { op: 'replace', path: '/ttl', value: n },
    }),
  shared: 'sharedEventTypeId',
  sizes: {
    collection: '/eventTypes',
    listKey: 'eventTypes',
    size: EVENT_TYPES_PAGE,
    rules: {
      served: 'event-management/queries/event-types-size-default',
      below: 'event-management/queries/event-types-size-default',
      above: 'event-management/queries/event-types-size-above-100-400',
      page: 'event-management/queries/page-default-and-minimum',
    },
    // The events' maximum, which event types do not take.
    farAbove: [EVENTS_PAGE.max],
    outOfBounds: OUT_OF_BOUNDS,
  },
  created: {
    service: SERVICE,
    what: 'the type',
    operationId: 'createEventType',
    schema: '#/components/schemas/EventTypeResponse',
    rules: {
      create: 'event-management/event-types/create-201',
      requiredMembers: 'event-management/event-types/response-required-fields',
      etagHeader: 'event-management/etags/event-type-etag-header',
      get: 'event-management/event-types/get-200',
    },
    path: (id) => `/eventTypes/${encodeURIComponent(id)}`,
    post: (t, json) => postType(t, json),
    same: (x, sent) => x.name === sent.name,
  },
  paging: {
    ...PAGING,
    collection: '/eventTypes',
    listKey: 'eventTypes',
    rules: { ...PAGING.rules, order: 'event-management/queries/event-types-default-sort' },
    order: 'sorted by name',
    sizes: { min: 1, max: 6 },
  },
  unknown: {
    rule: 'event-management/event-types/get-not-found-404',
    noun: 'type',
    path: (id) => `/eventTypes/${encodeURIComponent(id)}`,
    unknownId: (t) => `${t.prefix}nosuchtype${randomUUID().slice(0, 8)}`,
    queries: SHARED_TOO,
    create: async (t) => String((await createType(t)).id),
    foreignReading: 'foreign-record-404',
    options: { budget: 6 },
  },
  versioned: (t, id) => {
    const path = `/eventTypes/${encodeURIComponent(id)}`;
    return {
      t,
      noun: 'type',
      write: { method: 'PATCH', what: 'ttl' },
      path,
      rules: {
        etagHeader: 'event-management/etags/event-type-etag-header',
        get304: 'event-management/etags/get-event-type-304',
        counter: 'event-management/etags/event-type-etag-counter',
        writeOk: 'event-management/event-types/patch-200',
        writeStale: 'event-management/etags/patch-event-type-stale-412',
        writeIfMatchRequired: 'event-management/etags/patch-event-type-if-match-required',
        deleteStale: 'event-management/etags/delete-event-type-stale-409',
        deleteIfMatchRequired: 'event-management/etags/delete-event-type-if-match-required',
      },
      send: (ifMatch, ttl) =>
        send(t, {
          method: 'PATCH',
          path,
          headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch },
          json: { op: 'replace', path: '/ttl', value: ttl },
        }),
      shown: 'ttl',
      // "etag (int64)" and the If-Match precondition settle a new integer; unlike an event's ("incremental
      // counter"), a type's etag is not said to increase: that it does is our reading.
      counter: { changesAndReading: 'type-etag-increases' },
    };
  },
};

/** Every resource the generic tests run over. */
export const RESOURCES: readonly EmResource[] = [EVENT, EVENT_TYPE];
