import fc from 'fast-check';
import { pageSizes, pagesComplete } from '../engine/resources/index.ts';
import { EVENT } from './em-descriptions.ts';
import { pageBeyondLast, responseSchema, refused, answered, holds, taken } from '../engine/checks/index.ts';
import { and, eq, or, satisfies, sortBy, where, type SortExpr } from '../engine/filter-expression.ts';
import {
  EVENTS_QUERY_SIZE,
  EM_IO,
  body,
  emTest,
  subTenantUser,
  pageIntegers,
  seen,
  shown,
  dialectVerdict,
} from './em-client.ts';
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
    answered(t, { rule: 'event-management/queries/events-200', res, what: 'GET /events' });
    await responseSchema(t, 'event-management/queries/events-200', res, 'queryEvents');
    holds(t, {
      rule: 'event-management/queries/events-embedded',
      ok: Array.isArray(body(res)._embedded?.events),
      failure: 'no _embedded.events',
      expected: '_embedded.events array',
      received: seen(res, 160),
    });
    holds(t, {
      rule: 'event-management/queries/events-size-default',
      ok: eventsOf(res).length === EVENTS_PAGE.default && body(res).page?.size === EVENTS_PAGE.default,
      failure: `the default page size is not ${EVENTS_PAGE.default}`,
      expected: `${EVENTS_PAGE.default} events, page.size ${EVENTS_PAGE.default}`,
      received: () => `${eventsOf(res).length} events, page ${JSON.stringify(body(res).page)}`,
    });
    const page = body(res).page ?? {};
    holds(t, {
      rule: 'event-management/queries/page-object',
      ok:
        pageIntegers(page) &&
        page.totalElements === DATASET_SIZE &&
        page.totalPages === Math.ceil(DATASET_SIZE / EVENTS_PAGE.default),
      failure: 'page does not describe the answer',
      expected: `integers; totalElements ${DATASET_SIZE}, totalPages 3`,
      received: JSON.stringify(page),
    });
    holds(t, {
      reading: 'spring-data-page',
      rule: 'event-management/queries/page-object',
      ok: page.number === 0,
      failure: 'page.number is not the index of the page asked for',
      expected: 'number 0',
      received: JSON.stringify(page),
    });
    holds(t, {
      rule: 'event-management/queries/page-default-and-minimum',
      ok: page.number === 0,
      failure: 'without page the first page is not answered',
      expected: 'page.number 0',
      received: JSON.stringify(page),
    });
    const links = body(res)._links ?? {};
    const abs = (l: any) => typeof l?.href === 'string' && /^https?:\/\//.test(l.href);
    holds(t, {
      rule: 'event-management/queries/paging-links',
      ok:
        abs(links.self) &&
        typeof links.self.templated === 'boolean' &&
        abs(links.first) &&
        abs(links.last) &&
        abs(links.next),
      failure: 'paging links of the first page incomplete',
      expected: 'self (href, templated), first, next, last',
      received: JSON.stringify(links),
    });
    // No prev on the first page (no next on the last): our reading of which links a page carries.
    holds(t, {
      reading: 'paging-links-when-page-exists',
      rule: 'event-management/queries/paging-links',
      ok: links.prev === undefined,
      failure: 'the first page carries a prev link',
      expected: 'no prev',
      received: JSON.stringify(links),
    });
    const want = [...d.events].map((e) => e.id);
    holds(t, {
      rule: 'event-management/queries/events-default-sort',
      ok: JSON.stringify(idsOf(res)) === JSON.stringify(want.slice(0, EVENTS_PAGE.default)),
      failure: 'events not newest first by default',
      expected: `the ${EVENTS_PAGE.default} newest, by timestamp descending`,
      received: () => JSON.stringify(eventsOf(res).map((e) => e.timestamp)),
    });
    const middle = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 1, size: EVENTS_PAGE.default });
    const pageOf = (href: string) => Number(new URL(href).searchParams.get('page') ?? 0);
    // first, next and last name pages 0, 1 and 2 of the three; no link names a page below 0.
    const named = Object.entries(links)
      .filter(([, l]) => abs(l))
      .map(([rel, l]) => [rel, pageOf((l as { href: string }).href)] as const);
    holds(t, {
      rule: 'event-management/queries/paging-links',
      ok:
        abs(links.first) &&
        abs(links.next) &&
        abs(links.last) &&
        pageOf(links.first.href) === 0 &&
        pageOf(links.next.href) === 1 &&
        pageOf(links.last.href) === 2 &&
        named.every(([, p]) => Number.isInteger(p) && p >= 0),
      failure: "the first page's links do not name the pages they stand for",
      expected: 'first page 0, next page 1, last page 2, no page below 0',
      received: JSON.stringify(Object.fromEntries(named)),
    });
    holds(t, {
      rule: 'event-management/queries/paging-links',
      ok:
        abs(body(middle)._links?.prev) &&
        abs(body(middle)._links?.next) &&
        // prev and next name the pages before and after (a link without `page` names page 0)
        pageOf(body(middle)._links.prev.href) === 0 &&
        pageOf(body(middle)._links.next.href) === 2,
      failure: 'a middle page lacks prev or next, or they do not name pages 0 and 2',
      expected: 'prev (page 0) and next (page 2)',
      received: JSON.stringify(body(middle)._links),
    });
    const last = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 2, size: EVENTS_PAGE.default });
    holds(t, {
      rule: 'event-management/queries/page-object',
      ok: eventsOf(last).length === 5,
      failure: 'the last page does not hold the rest',
      expected: '5 events',
      received: () => `${eventsOf(last).length} events ${JSON.stringify(body(last).page)}`,
    });
    holds(t, {
      reading: 'spring-data-page',
      rule: 'event-management/queries/page-object',
      ok: body(last).page?.number === 2,
      failure: 'page.number is not the page asked for',
      expected: 'number 2',
      received: () => JSON.stringify(body(last).page),
    });
    holds(t, {
      rule: 'event-management/queries/paging-links',
      ok: abs(body(last)._links?.prev) && pageOf(body(last)._links.prev.href) === 1,
      failure: "the last page's prev link does not name page 1",
      expected: 'prev (page 1)',
      received: () => JSON.stringify(body(last)._links),
    });
    holds(t, {
      reading: 'paging-links-when-page-exists',
      rule: 'event-management/queries/paging-links',
      ok: body(last)._links?.next === undefined,
      failure: 'the last page carries a next link',
      expected: 'no next',
      received: () => JSON.stringify(body(last)._links),
    });
    const beyond = await getEvents(t, { filter: where({ typeId: d.typeId }), page: 3, size: EVENTS_PAGE.default });
    pageBeyondLast(t, {
      rule: 'event-management/queries/page-default-and-minimum',
      res: beyond,
      items: eventsOf(beyond).length,
      reading: 'page-beyond-last-empty',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 6, readOnly: false },
);

emTest(
  ['event-management/queries/events-200'],
  'GET /events by a user of a sub-tenant (a tenant of its own, which need not have written events) answers 200',
  async (t) => {
    const sub = await subTenantUser(t);
    const res = await t.send({ method: 'GET', path: '/events' }, { tenant: sub });
    answered(t, { rule: 'event-management/queries/events-200', res, what: 'GET /events of a sub-tenant user' });
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
    await pageSizes(t, EM_IO, EVENT.sizes, { filter: where({ typeId: d.typeId }) }, DATASET_SIZE);
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budget: 11 },
);

emTest(
  [
    'event-management/queries/page-object',
    'event-management/queries/paging-links',
    'event-management/queries/events-default-sort',
  ],
  'paging through GET /events with any size yields disjoint pages that together hold every event once, newest first (property)',
  async (t) => {
    const d = await dataset(t);
    await datasetVisible(t, d);
    const want = d.events.map((e) => e.id);
    await pagesComplete(t, EM_IO, EVENT.paging, { filter: where({ typeId: d.typeId }) }, want);
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
    // Each field's values in the order of its sort (timestamps as instants).
    const sorts: Array<[SortExpr, (e: Record<string, any>) => unknown, string]> = [
      [sortBy('n', 'asc'), (e) => e.n, 'n ascending'],
      [sortBy('timestamp', 'asc'), (e) => Date.parse(e.timestamp), 'timestamp ascending'],
      [sortBy('grp', 'desc'), (e) => e.grp, 'grp descending'],
    ];
    for (const [sort, value, order] of sorts) {
      const res = await q(sort);
      const vs = eventsOf(res).map(value) as Array<number | string>;
      const inOrder = (a: number | string, b: number | string) => (sort.direction === 'asc' ? a <= b : a >= b);
      holds(t, {
        rule: 'event-management/queries/events-sort-filterable',
        ok: res.status === 200 && vs.length === DATASET_SIZE && vs.every((v, i) => i === 0 || inOrder(vs[i - 1], v)),
        failure: `sort ${sort.field},${sort.direction} not ${order}`,
        expected: order,
        received: JSON.stringify(eventsOf(res).map((e) => e[sort.field])),
      });
    }
    // flag is a filterable BOOLEAN: the document gives no order of false and true, so only what any
    // order implies is checked: each value's events together, and desc starting where asc ends.
    const byFlag = await q(sortBy('flag', 'asc'));
    const byFlagDesc = await q(sortBy('flag', 'desc'));
    const fa = eventsOf(byFlag).map((e) => e.flag);
    const fd = eventsOf(byFlagDesc).map((e) => e.flag);
    const grouped = (fs: unknown[]) =>
      fs.length === DATASET_SIZE && fs.filter((v, i) => i > 0 && v !== fs[i - 1]).length === 1;
    holds(t, {
      rule: 'event-management/queries/events-sort-filterable',
      ok:
        byFlag.status === 200 && byFlagDesc.status === 200 && grouped(fa) && grouped(fd) && fa[0] === fd[fd.length - 1],
      failure: 'sort on the BOOLEAN field flag does not group its values, or desc is not the reverse of asc',
      expected: 'flag,asc: the events of one value, then of the other; flag,desc: the other way round',
      received: () => `asc ${JSON.stringify(fa)}; desc ${JSON.stringify(fd)}`,
    });
    for (const [sorted, what] of [
      [() => q(sortBy('note', 'asc')), 'sort on a custom field declared filterable false'],
      [() => getEvents(t, { sort: sortBy('description', 'asc') }), 'sort on description (not filterable)'],
      [() => getEvents(t, { sort: sortBy('nosuchfield', 'desc') }), 'sort on an unknown field'],
    ] as const)
      refused(t, { rule: 'event-management/queries/events-non-sortable-400', res: await sorted(), what });
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
    holds(t, {
      rule: 'event-management/queries/events-filter-fields',
      ok: bySeen.status === 200 && JSON.stringify(idsOf(bySeen)) === JSON.stringify([pick.id]),
      failure: 'a filter on a filterable custom TIMESTAMP field does not return exactly its event',
      expected: `HTTP 200 with only ${pick.id}`,
      received: seen(bySeen, 160),
    });
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
        taken(t, { rule: 'event-management/queries/events-filter-fields', res, what: `the filter ${shown(f)}` });
        const wrong = eventsOf(res).filter((e) => !satisfies(e, a));
        holds(t, {
          rule: 'event-management/queries/events-filter-fields',
          ok: wrong.length === 0,
          failure: 'returned events do not satisfy the filter',
          expected: `only events satisfying ${shown(a)}`,
          received: () => JSON.stringify(wrong.slice(0, 3)),
        });
        const want = d.events
          .filter((e) => satisfies(e, a))
          .map((e) => e.id)
          .sort();
        const got = idsOf(res).sort();
        holds(t, {
          rule: 'event-management/queries/events-filter-fields',
          ok: JSON.stringify(got) === JSON.stringify(want),
          failure: 'matching events missing from the answer',
          expected: `${want.length} events`,
          received: `${got.length} events`,
        });
      },
      { rule: 'event-management/queries/events-filter-fields', runs: t.session.context.runs },
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], readOnly: false, budgetPerRun: 1, budget: 3 },
);
