import { after, before, eq, or, sortBy, where, type FilterExpr } from '../engine/filter-expression.ts';
import { holds, answered } from '../engine/checks/index.ts';
import { EVENTS_QUERY_SIZE, emTest, entity, eventually, seen, shown, inexpressible } from './em-client.ts';
import { fileDataset } from './em-dataset.ts';
import { createEventsInBulk, createType, daysAgo, field } from './em-resources.ts';
import { betweenRange, datasetVisible, eventsOf, getEvents, idsOf } from './queries-events-support.ts';
import { DEFAULT_WINDOW_DAYS } from './em-bounds.ts';

const dataset = fileDataset('queries-events-parameters');

emTest(
  [
    'event-management/queries/default-window-7-days',
    'event-management/queries/timestamp-operators',
    'event-management/queries/events-filter-fields',
  ],
  `without timestamp the last ${DEFAULT_WINDOW_DAYS} days are searched; before, after and between select exactly their range, and timestamp equality its event (also before the window)`,
  async (t) => {
    const type = await createType(t, { ttl: 60, fields: [field('n', 'INTEGER', { filterable: true })] });
    const ages = [10, 8, 6, 1];
    const events = await createEventsInBulk(
      t,
      ages.map((days, n) => ({ typeId: type.id, timestamp: daysAgo(days), entityId: entity(t), n })),
    );
    const byAge = new Map(ages.map((a, i) => [a, String(events[i].id)]));
    const inWindow = ages.filter((a) => a < DEFAULT_WINDOW_DAYS);
    const q = (extra?: FilterExpr) =>
      getEvents(t, { filter: where({ typeId: type.id }, ...(extra ? [extra] : [])), size: EVENTS_QUERY_SIZE });
    const window = await eventually(
      () => q(),
      (r) => idsOf(r).length >= inWindow.length,
    );
    holds(t, {
      rule: 'event-management/queries/default-window-7-days',
      ok: JSON.stringify(idsOf(window.value).sort()) === JSON.stringify(inWindow.map((a) => byAge.get(a)).sort()),
      failure: `without timestamp not exactly the last ${DEFAULT_WINDOW_DAYS} days searched`,
      expected: `the events ${inWindow.join(' and ')} days old`,
      received: JSON.stringify(eventsOf(window.value).map((e) => e.timestamp)),
    });
    const between = (from: string, to: string) =>
      betweenRange(t, type.id, from, to, (res, what) =>
        answered(t, {
          rule: 'event-management/queries/timestamp-operators',
          res,
          what,
          reading: 'between-interval-text',
        }),
      );
    const ranges: Array<[FilterExpr, number[]]> = [
      [after('timestamp', daysAgo(9)), [8, 6, 1]],
      [before('timestamp', daysAgo(7)), [10, 8]],
      [await between(daysAgo(11), daysAgo(7)), [10, 8]],
      [await between(daysAgo(9), daysAgo(5)), [8, 6]],
      // One millisecond from an event's instant: the event is after (before) that bound.
      [after('timestamp', new Date(Date.parse(String(events[1].timestamp)) - 1).toISOString()), [8, 6, 1]],
      [before('timestamp', new Date(Date.parse(String(events[1].timestamp)) + 1).toISOString()), [10, 8]],
    ];
    // The same ranges as one side of an or whose other side selects nothing (n is never negative):
    // the range itself, not a bound of the whole query, decides then.
    const inOr = ranges.map(([f, want]): [FilterExpr, number[]] => [or(f, eq('n', -1)), want]);
    for (const [f, want] of [...ranges, ...inOr]) {
      // A grammar without or (the run's dialect cannot write it) leaves the second half unjudged.
      const cannot = await inexpressible(t, f);
      if (cannot) {
        t.notExercised('event-management/queries/timestamp-operators', cannot);
        continue;
      }
      const res = await q(f);
      const wantIds = want.map((a) => byAge.get(a)).sort();
      holds(t, {
        rule: 'event-management/queries/timestamp-operators',
        ok: res.status === 200 && JSON.stringify(idsOf(res).sort()) === JSON.stringify(wantIds),
        failure: `timestamp ${shown(f)} does not select exactly its range`,
        expected: `the events ${want.join(', ')} days old`,
        received: () => `${shown(f)}: ${JSON.stringify(eventsOf(res).map((e) => e.timestamp))} ${seen(res, 100)}`,
      });
    }
    // timestamp is a filter field; that it takes equality as well as before, after and between is
    // our reading ("timestamp supports before, after, between" may list all it takes). An answer
    // to equality must select exactly the event at that instant ("every returned event satisfies").
    const at = await q(eq('timestamp', String(events[1].timestamp)));
    if (at.status === 200)
      holds(t, {
        rule: 'event-management/queries/events-filter-fields',
        ok: JSON.stringify(idsOf(at)) === JSON.stringify([byAge.get(8)]),
        failure: 'timestamp equality answered, but not with exactly the event at that instant',
        expected: `the event 8 days old (${String(events[1].timestamp)})`,
        received: () => `${JSON.stringify(eventsOf(at).map((e) => e.timestamp))} ${seen(at, 100)}`,
      });
    else
      holds(t, {
        reading: 'timestamp-equality',
        rule: 'event-management/queries/events-filter-fields',
        ok: false,
        failure: 'timestamp equality refused',
        expected: `HTTP 200 with the event 8 days old (${String(events[1].timestamp)})`,
        received: () => seen(at, 160),
      });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 20 },
);

emTest(
  [
    'event-management/queries/enable-page-cache',
    'event-management/queries/events-200',
    'event-management/queries/history-all-instances',
  ],
  'GET /events takes every documented parameter; enablePageCache does not change the answer',
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const base = {
      filter: where({ typeId: d.typeId }),
      size: 7,
      page: 1,
      sort: sortBy('n', 'desc'),
      history: 'true',
      includeShared: 'false',
    };
    const plain = await getEvents(t, base);
    answered(t, {
      rule: 'event-management/queries/events-200',
      res: plain,
      what: 'GET /events with size, page, filter, sort, history, includeShared',
    });
    holds(t, {
      rule: 'event-management/queries/history-all-instances',
      ok: idsOf(plain).length === 7,
      failure: 'history=true changed the answer of events without history',
      expected: '7 events',
      received: String(idsOf(plain).length),
    });
    for (const cache of ['true', 'false']) {
      const res = await getEvents(t, { ...base, enablePageCache: cache });
      holds(t, {
        rule: 'event-management/queries/enable-page-cache',
        ok: res.status === 200 && JSON.stringify(idsOf(res)) === JSON.stringify(idsOf(plain)),
        failure: `enablePageCache=${cache} changed the answer`,
        expected: JSON.stringify(idsOf(plain)),
        received: seen(res, 160),
      });
    }
    const next = await getEvents(t, { ...base, page: 2, enablePageCache: 'true' });
    const nextPlain = await getEvents(t, { ...base, page: 2 });
    holds(t, {
      rule: 'event-management/queries/enable-page-cache',
      ok:
        JSON.stringify(idsOf(next)) === JSON.stringify(idsOf(nextPlain)) &&
        idsOf(next).every((id) => !idsOf(plain).includes(id)),
      failure: 'with enablePageCache the next page differs',
      expected: JSON.stringify(idsOf(nextPlain)),
      received: JSON.stringify(idsOf(next)),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budget: 5 },
);
