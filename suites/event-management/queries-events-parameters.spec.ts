import { sortBy, where } from '../engine/filter-expression.ts';
import { emTest, seen } from './em-client.ts';
import { expect } from './em-checks.ts';
import { dataset, idsOf, getEvents, datasetVisible } from './queries-events-support.ts';

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
    expect(
      t,
      'event-management/queries/events-200',
      plain.status === 200,
      'GET /events with size, page, filter, sort, history, includeShared refused',
      'HTTP 200',
      seen(plain, 160),
    );
    expect(
      t,
      'event-management/queries/history-all-instances',
      idsOf(plain).length === 7,
      'history=true changed the answer of events without history',
      '7 events',
      String(idsOf(plain).length),
    );
    for (const cache of ['true', 'false']) {
      const res = await getEvents(t, { ...base, enablePageCache: cache });
      expect(
        t,
        'event-management/queries/enable-page-cache',
        res.status === 200 && JSON.stringify(idsOf(res)) === JSON.stringify(idsOf(plain)),
        `enablePageCache=${cache} changed the answer`,
        JSON.stringify(idsOf(plain)),
        seen(res, 160),
      );
    }
    const next = await getEvents(t, { ...base, page: 2, enablePageCache: 'true' });
    const nextPlain = await getEvents(t, { ...base, page: 2 });
    expect(
      t,
      'event-management/queries/enable-page-cache',
      JSON.stringify(idsOf(next)) === JSON.stringify(idsOf(nextPlain)) &&
        idsOf(next).every((id) => !idsOf(plain).includes(id)),
      'with enablePageCache the next page differs',
      JSON.stringify(idsOf(nextPlain)),
      JSON.stringify(idsOf(next)),
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budget: 5 },
);
