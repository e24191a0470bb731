import fc from 'fast-check';
import { responseSchema, refused } from '../engine/checks/index.ts';
import { and, eq, or, satisfies, sortBy, where, type SortExpr } from '../engine/filter-expression.ts';
import {
  EVENTS_QUERY_SIZE,
  body,
  emTest,
  subTenantUser,
  pageIntegers,
  seen,
  shown,
  dialectVerdict,
  type EmQuery,
} from './em-client.ts';
import { beyondTheLast, expect, outOfBounds, reading } from './em-checks.ts';
import { DATASET_SIZE, fileDataset } from './em-dataset.ts';
import { eventsOf, idsOf, getEvents, datasetVisible, atom } from './queries-events-support.ts';
import { EVENTS_PAGE } from './em-bounds.ts';

const dataset = fileDataset('queries-events');

// ---------------------------------------------------------------- paging and order

emTest(
  [
    'event-management/queries/events-200',
    'event-management/queries/events-embedded',
    'event-management/queries/events-size-default',
    'event-management/queries/page-object',
    'event-management/queries/paging-links',
    'event-management/queries/page-default-and-minimum',
    'event-management/queries/events-default-sort',
  ],
  `GET /events pages by ${EVENTS_PAGE.default} by default, newest first, with page and _links describing the answer; a page beyond the last is empty`,
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const res = await getEvents(t, { filter: where({ typeId: d.typeId }) });
    expect(t, 'event-management/queries/events-200', res.status === 200, 'GET /events refused', 'HTTP 200', seen(res));
    await responseSchema(t, 'event-management/queries/events-200', res, 'queryEvents');
    expect(
      t,
      'event-management/queries/events-embedded',
      Array.isArray(body(res)._embedded?.events),
      'no _embedded.events',
      '_embedded.events array',
      seen(res, 160),
    );
    expect(
      t,
      'event-management/queries/events-size-default',
      eventsOf(res).length === EVENTS_PAGE.default && body(res).page?.size === EVENTS_PAGE.default,
      `the default page size is not ${EVENTS_PAGE.default}`,
      `${EVENTS_PAGE.default} events, page.size ${EVENTS_PAGE.default}`,
      () => `${eventsOf(res).length} events, page ${JSON.stringify(body(res).page)}`,
    );
    const page = body(res).page ?? {};
    expect(
      t,
      'event-management/queries/page-object',
      pageIntegers(page) &&
        page.totalElements === DATASET_SIZE &&
        page.totalPages === Math.ceil(DATASET_SIZE / EVENTS_PAGE.default),
      'page does not describe the answer',
      `integers; totalElements ${DATASET_SIZE}, totalPages 3`,
      JSON.stringify(page),
    );
    reading(
      t,
      'spring-data-page',
      'event-management/queries/page-object',
      page.number === 0,
      'page.number is not the index of the page asked for',
      'number 0',
      JSON.stringify(page),
    );
    expect(
      t,
      'event-management/queries/page-default-and-minimum',
      page.number === 0,
      'without page the first page is not answered',
      'page.number 0',
      JSON.stringify(page),
    );
    const links = body(res)._links ?? {};
    const abs = (l: any) => typeof l?.href === 'string' && /^https?:\/\//.test(l.href);
    expect(
      t,
      'event-management/queries/paging-links',
      abs(links.self) &&
        typeof links.self.templated === 'boolean' &&
        abs(links.first) &&
        abs(links.last) &&
        abs(links.next),
      'paging links of the first page incomplete',
      'self (href, templated), first, next, last',
      JSON.stringify(links),
    );
    // No prev on the first page (no next on the last): our reading of which links a page carries.
    reading(
      t,
      'paging-links-when-page-exists',
      'event-management/queries/paging-links',
      links.prev === undefined,
      'the first page carries a prev link',
      'no prev',
      JSON.stringify(links),
    );
    const want = [...d.events].map((e) => e.id);
    expect(
      t,
      'event-management/queries/events-default-sort',
      JSON.stringify(idsOf(res)) === JSON.stringify(want.slice(0, EVENTS_PAGE.default)),
      'events not newest first by default',
      `the ${EVENTS_PAGE.default} newest, by timestamp descending`,
      () => JSON.stringify(eventsOf(res).map((e) => e.timestamp)),
    );
    const middle = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 1, size: EVENTS_PAGE.default });
    const pageOf = (href: string) => Number(new URL(href).searchParams.get('page') ?? 0);
    // first, next and last name pages 0, 1 and 2 of the three; no link names a page below 0.
    const named = Object.entries(links)
      .filter(([, l]) => abs(l))
      .map(([rel, l]) => [rel, pageOf((l as { href: string }).href)] as const);
    expect(
      t,
      'event-management/queries/paging-links',
      abs(links.first) &&
        abs(links.next) &&
        abs(links.last) &&
        pageOf(links.first.href) === 0 &&
        pageOf(links.next.href) === 1 &&
        pageOf(links.last.href) === 2 &&
        named.every(([, p]) => Number.isInteger(p) && p >= 0),
      "the first page's links do not name the pages they stand for",
      'first page 0, next page 1, last page 2, no page below 0',
      JSON.stringify(Object.fromEntries(named)),
    );
    expect(
      t,
      'event-management/queries/paging-links',
      abs(body(middle)._links?.prev) &&
        abs(body(middle)._links?.next) &&
        // prev and next name the pages before and after (a link without `page` names page 0)
        pageOf(body(middle)._links.prev.href) === 0 &&
        pageOf(body(middle)._links.next.href) === 2,
      'a middle page lacks prev or next, or they do not name pages 0 and 2',
      'prev (page 0) and next (page 2)',
      JSON.stringify(body(middle)._links),
    );
    const last = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 2, size: EVENTS_PAGE.default });
    expect(
      t,
      'event-management/queries/page-object',
      eventsOf(last).length === 5,
      'the last page does not hold the rest',
      '5 events',
      () => `${eventsOf(last).length} events ${JSON.stringify(body(last).page)}`,
    );
    reading(
      t,
      'spring-data-page',
      'event-management/queries/page-object',
      body(last).page?.number === 2,
      'page.number is not the page asked for',
      'number 2',
      () => JSON.stringify(body(last).page),
    );
    expect(
      t,
      'event-management/queries/paging-links',
      abs(body(last)._links?.prev) && pageOf(body(last)._links.prev.href) === 1,
      "the last page's prev link does not name page 1",
      'prev (page 1)',
      () => JSON.stringify(body(last)._links),
    );
    reading(
      t,
      'paging-links-when-page-exists',
      'event-management/queries/paging-links',
      body(last)._links?.next === undefined,
      'the last page carries a next link',
      'no next',
      () => JSON.stringify(body(last)._links),
    );
    const beyond = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 3, size: EVENTS_PAGE.default });
    beyondTheLast(t, beyond, eventsOf(beyond).length);
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 6, readOnly: false },
);

emTest(
  ['event-management/queries/events-200'],
  'GET /events by a user of a sub-tenant (a tenant of its own, which need not have written events) answers 200',
  async (t) => {
    const sub = await subTenantUser(t);
    const res = await t.send({ method: 'GET', path: '/events' }, { tenant: sub });
    expect(
      t,
      'event-management/queries/events-200',
      res.status === 200,
      'GET /events of a sub-tenant user refused',
      'HTTP 200',
      seen(res),
    );
    await responseSchema(t, 'event-management/queries/events-200', res, 'queryEvents');
  },
  { needs: [['fixtures.subTenantIds', 'fixtures.eventManagement.subTenantEntityIds']], budget: 2 },
);

emTest(
  [
    'event-management/queries/events-size-default',
    'event-management/queries/events-size-above-500-400',
    'event-management/queries/events-size-below-1-400',
    'event-management/queries/page-default-and-minimum',
  ],
  `GET /events takes size 1 to ${EVENTS_PAGE.max} and page from 0; other values answer 400`,
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const q = (extra: EmQuery) => getEvents(t, { filter: where({ typeId: d.typeId }), ...extra });
    const one = await q({ size: 1 });
    expect(
      t,
      'event-management/queries/events-size-default',
      one.status === 200 && eventsOf(one).length === 1,
      'size 1 not served',
      'HTTP 200 with 1 event',
      seen(one, 160),
    );
    const max = await q({ size: EVENTS_PAGE.max });
    expect(
      t,
      'event-management/queries/events-size-default',
      max.status === 200 && body(max).page?.size === EVENTS_PAGE.max,
      `size ${EVENTS_PAGE.max} not served`,
      `HTTP 200, page.size ${EVENTS_PAGE.max}`,
      seen(max, 160),
    );
    refused(t, {
      rule: 'event-management/queries/events-size-above-500-400',
      res: await q({ size: EVENTS_PAGE.max + 1 }),
      what: `size ${EVENTS_PAGE.max + 1}`,
    });
    refused(t, {
      rule: 'event-management/queries/events-size-above-500-400',
      res: await q({ size: 100_000 }),
      what: 'size 100000',
    });
    for (const size of [0, -1, '1.5', 'ten'])
      outOfBounds(t, 'event-management/queries/events-size-below-1-400', await q({ size }), `size ${size}`);
    for (const page of [-1, '0.5', 'first'])
      outOfBounds(t, 'event-management/queries/page-default-and-minimum', await q({ page }), `page ${page}`);
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budget: 11 },
);

emTest(
  ['event-management/queries/page-object', 'event-management/queries/events-default-sort'],
  'paging through GET /events with any size yields disjoint pages that together hold every event once, newest first (property)',
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const want = d.events.map((e) => e.id);
    await t.property(
      fc.integer({ min: 4, max: 50 }), // not a contract bound: the page sizes drawn
      async (size) => {
        const seenIds: string[] = [];
        const firstSeen = new Map<string, number>();
        const repeated: string[] = [];
        // The page count comes from the suite's own dataset, never from the target's answers.
        const pages = Math.ceil(DATASET_SIZE / size);
        for (let p = 0; p < pages; p++) {
          const res = await getEvents(t, { filter: where({ typeId: d.typeId }), size, page: p });
          const pg = body(res).page ?? {};
          expect(
            t,
            'event-management/queries/page-object',
            res.status === 200 && pageIntegers(pg) && pg.totalElements === DATASET_SIZE && pg.totalPages === pages,
            `page ${p} of size ${size} misdescribed`,
            `integers; totalElements ${DATASET_SIZE}, totalPages ${pages}`,
            JSON.stringify(pg),
          );
          reading(
            t,
            'spring-data-page',
            'event-management/queries/page-object',
            pg.size === size && pg.number === p,
            `page ${p} of size ${size}: size or number is not the one asked for`,
            `size ${size}, number ${p}`,
            JSON.stringify(pg),
          );
          for (const id of idsOf(res)) {
            const first = firstSeen.get(id);
            if (first !== undefined && repeated.length < 5) repeated.push(`${id} on pages ${first} and ${p}`);
            else firstSeen.set(id, p);
          }
          seenIds.push(...idsOf(res));
        }
        expect(
          t,
          'event-management/queries/page-object',
          new Set(seenIds).size === seenIds.length && seenIds.length === DATASET_SIZE,
          `pages of size ${size} overlap or miss events`,
          `${DATASET_SIZE} distinct events`,
          `${seenIds.length} events, ${new Set(seenIds).size} distinct${repeated.length ? `; repeated: ${repeated.join(', ')}` : ''}`,
        );
        expect(
          t,
          'event-management/queries/events-default-sort',
          JSON.stringify(seenIds) === JSON.stringify(want),
          `pages of size ${size} not newest first`,
          'timestamp descending across pages',
          'another order',
        );
      },
      { rule: 'event-management/queries/page-object', runs: Math.min(t.session.context.runs, 6) },
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budgetPerRun: 12 },
);

emTest(
  ['event-management/queries/events-sort-filterable', 'event-management/queries/events-non-sortable-400'],
  'sort on a filterable field orders the events; sort on a field that is not filterable answers 400',
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const q = (sort: SortExpr) => getEvents(t, { filter: where({ typeId: d.typeId }), size: EVENTS_QUERY_SIZE, sort });
    const byN = await q(sortBy('n', 'asc'));
    const ns = eventsOf(byN).map((e) => e.n);
    expect(
      t,
      'event-management/queries/events-sort-filterable',
      byN.status === 200 && ns.length === DATASET_SIZE && ns.every((v, i) => i === 0 || ns[i - 1] <= v),
      'sort n,asc not ascending by n',
      'n ascending',
      JSON.stringify(ns),
    );
    const byTime = await q(sortBy('timestamp', 'asc'));
    const ts = eventsOf(byTime).map((e) => Date.parse(e.timestamp));
    expect(
      t,
      'event-management/queries/events-sort-filterable',
      byTime.status === 200 && ts.length === DATASET_SIZE && ts.every((v, i) => i === 0 || ts[i - 1] <= v),
      'sort timestamp,asc not ascending',
      'timestamp ascending',
      JSON.stringify(eventsOf(byTime).map((e) => e.timestamp)),
    );
    const byGrp = await q(sortBy('grp', 'desc'));
    const gs = eventsOf(byGrp).map((e) => e.grp);
    expect(
      t,
      'event-management/queries/events-sort-filterable',
      byGrp.status === 200 && gs.length === DATASET_SIZE && gs.every((v, i) => i === 0 || gs[i - 1] >= v),
      'sort grp,desc not descending',
      'grp descending',
      JSON.stringify(gs),
    );
    // flag is a filterable BOOLEAN: the document gives no order of false and true, so only what any
    // order implies is checked: each value's events together, and desc starting where asc ends.
    const byFlag = await q(sortBy('flag', 'asc'));
    const byFlagDesc = await q(sortBy('flag', 'desc'));
    const fa = eventsOf(byFlag).map((e) => e.flag);
    const fd = eventsOf(byFlagDesc).map((e) => e.flag);
    const grouped = (fs: unknown[]) =>
      fs.length === DATASET_SIZE && fs.filter((v, i) => i > 0 && v !== fs[i - 1]).length === 1;
    expect(
      t,
      'event-management/queries/events-sort-filterable',
      byFlag.status === 200 && byFlagDesc.status === 200 && grouped(fa) && grouped(fd) && fa[0] === fd[fd.length - 1],
      'sort on the BOOLEAN field flag does not group its values, or desc is not the reverse of asc',
      'flag,asc: the events of one value, then of the other; flag,desc: the other way round',
      () => `asc ${JSON.stringify(fa)}; desc ${JSON.stringify(fd)}`,
    );
    refused(t, {
      rule: 'event-management/queries/events-non-sortable-400',
      res: await q(sortBy('note', 'asc')),
      what: 'sort on a custom field declared filterable false',
    });
    refused(t, {
      rule: 'event-management/queries/events-non-sortable-400',
      res: await getEvents(t, { sort: sortBy('description', 'asc') }),
      what: 'sort on description (not filterable)',
    });
    refused(t, {
      rule: 'event-management/queries/events-non-sortable-400',
      res: await getEvents(t, { sort: sortBy('nosuchfield', 'desc') }),
      what: 'sort on an unknown field',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budget: 8 },
);

emTest(
  ['event-management/queries/filter-sort-grammar'],
  "the deployment understands the run's filter dialect: one equality, one IN, one timestamp range and one sort on GET /events answer 2xx with items that satisfy them",
  async (t) => {
    // "Grammar of the filter and sort JSON: not shown": reported here once; the rules that need a
    // filter are skipped (not failed) when the deployment refuses the dialect.
    t.observe('event-management/queries/filter-sort-grammar', (await dialectVerdict(t.session)).summary);
  },
  { readOnly: true, budget: 4 },
);

emTest(
  ['event-management/queries/events-filter-fields'],
  'generated filters on filterable fields are accepted and return exactly the matching events (property)',
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    // A filterable custom field of type TIMESTAMP, by equality with the value as written.
    const pick = d.events[7];
    const bySeen = await getEvents(t, {
      filter: where({ typeId: d.typeId, seen: pick.seen }),
      size: EVENTS_QUERY_SIZE,
    });
    expect(
      t,
      'event-management/queries/events-filter-fields',
      bySeen.status === 200 && JSON.stringify(idsOf(bySeen)) === JSON.stringify([pick.id]),
      'a filter on a filterable custom TIMESTAMP field does not return exactly its event',
      `HTTP 200 with only ${pick.id}`,
      seen(bySeen, 160),
    );
    const combined = fc.oneof(
      atom(d).map((a) => [a]),
      fc.tuple(atom(d), atom(d)).map(([a, b]) => [and(a, b)]),
      fc.tuple(atom(d), atom(d)).map(([a, b]) => [or(a, b)]),
    );
    await t.property(
      combined,
      async ([a]) => {
        const f = and(eq('typeId', d.typeId), a);
        const res = await getEvents(t, { filter: f, size: EVENTS_QUERY_SIZE });
        expect(
          t,
          'event-management/queries/events-filter-fields',
          res.status === 200,
          'a filter within the documented restrictions refused',
          'HTTP 200',
          () => `${shown(f)} — ${seen(res, 160)}`,
        );
        const wrong = eventsOf(res).filter((e) => !satisfies(e, a));
        expect(
          t,
          'event-management/queries/events-filter-fields',
          wrong.length === 0,
          'returned events do not satisfy the filter',
          `only events satisfying ${shown(a)}`,
          () => JSON.stringify(wrong.slice(0, 3)),
        );
        const want = d.events
          .filter((e) => satisfies(e, a))
          .map((e) => e.id)
          .sort();
        const got = idsOf(res).sort();
        expect(
          t,
          'event-management/queries/events-filter-fields',
          JSON.stringify(got) === JSON.stringify(want),
          'matching events missing from the answer',
          `${want.length} events`,
          `${got.length} events`,
        );
      },
      { rule: 'event-management/queries/events-filter-fields', runs: t.session.context.runs },
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budgetPerRun: 1, budget: 3 },
);
