// Each Event Management resource described once, as data: where it lives, the contract schema of
// its answers, the rules its generic steps judge and how the generic tests make and change one
// (suites/engine/resources/ runs them over every description).
import type { ContractPointer } from '../../contracts/facts.ts';
import { where } from '../engine/filter-expression.ts';
import type { QueryEtagDescription } from '../engine/resources/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, embedded, entity, iso, send } from './em-client.ts';
import { TTL_DEFAULT } from './em-bounds.ts';
import { createEvent, createType, field, postEvent, putEvent } from './em-resources.ts';
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
}

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
      shownValue: (res): unknown => body(res).ttl,
      // "etag (int64)" and the If-Match precondition settle a new integer; unlike an event's ("incremental
      // counter"), a type's etag is not said to increase: that it does is our reading.
      counter: { changesAndReading: 'type-etag-increases' },
    };
  },
};

/** Every resource the generic tests run over. */
export const RESOURCES: readonly EmResource[] = [EVENT, EVENT_TYPE];
