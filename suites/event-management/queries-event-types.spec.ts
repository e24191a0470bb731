import fc from 'fast-check';
import { responseSchema, memberProblems, refused } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { and, eq, isIn, ne, sortBy, startsWith, where } from '../engine/filter-expression.ts';
import { body, emTest, eventually, pageIntegers, send, seen, shown, embedded, type EmQuery } from './em-client.ts';
import { beyondTheLast, expect, outOfBounds, reading, verify } from './em-checks.ts';
import { createType } from './em-resources.ts';
import { EVENT_TYPES_PAGE, EVENTS_PAGE, TTL_DEFAULT } from './em-bounds.ts';

const typesOf = (res: HttpResponse) => embedded(res, 'eventTypes');
const idsOf = (res: HttpResponse) => typesOf(res).map((x) => String(x.id));

function getTypes(t: RuleContext, query: EmQuery) {
  return send(t, { method: 'GET', path: '/eventTypes', query });
}

/** Creates `names.length` types whose names share a run-unique stem (in the given, unsorted order). */
async function typesNamed(t: RuleContext, stem: string, names: string[], scopes: string[] = []) {
  const out = [];
  for (const [i, n] of names.entries())
    out.push(await createType(t, { name: `${stem} ${n}`, ...(scopes[i] ? { scope: scopes[i] } : {}) }));
  return out;
}

emTest(
  [
    'event-management/queries/event-types-200',
    'event-management/queries/event-types-embedded',
    'event-management/queries/event-types-default-sort',
    'event-management/queries/page-object',
    'event-management/queries/paging-links',
    'event-management/event-types/response-required-fields',
    'event-management/event-types/links',
  ],
  'GET /eventTypes answers _embedded.eventTypes sorted by name ascending; pages of any size are disjoint and complete (property)',
  async (t) => {
    const stem = `${t.prefix} page ${Math.random().toString(36).slice(2, 6)}`;
    const created = await typesNamed(t, stem, ['d', 'b', 'e', 'a', 'c']);
    const f = startsWith('name', stem);
    const all = await eventually(
      () => getTypes(t, { filter: f, size: EVENT_TYPES_PAGE.max }),
      (r) => typesOf(r).length === 5,
    );
    expect(
      t,
      'event-management/queries/event-types-200',
      all.value.status === 200,
      'GET /eventTypes refused',
      'HTTP 200',
      seen(all.value),
    );
    await responseSchema(t, 'event-management/queries/event-types-200', all.value, 'queryEventTypes');
    expect(
      t,
      'event-management/queries/event-types-embedded',
      Array.isArray(body(all.value)._embedded?.eventTypes) && all.ok,
      'the types are not in _embedded.eventTypes',
      '_embedded.eventTypes with the 5 types',
      seen(all.value, 200),
    );
    const names = typesOf(all.value).map((x) => x.name);
    expect(
      t,
      'event-management/queries/event-types-default-sort',
      JSON.stringify(names) === JSON.stringify([...names].sort()),
      'types not sorted by name ascending',
      'a, b, c, d, e',
      JSON.stringify(names),
    );
    for (const x of typesOf(all.value)) {
      const problems = memberProblems(x, [
        'id',
        'name',
        'parentId',
        'ttl',
        'etag',
        'owner',
        'scope',
        'fields',
        '_links',
      ]);
      verify(
        t,
        'event-management/event-types/response-required-fields',
        problems.length === 0,
        `required members of an event type in a query: ${problems.join(', ')}`,
        'id, name, parentId, ttl, etag, owner, scope, fields, _links',
        problems.join(', '),
      );
      expect(
        t,
        'event-management/event-types/links',
        typeof x._links?.self?.href === 'string' && typeof x._links?.events?.href === 'string',
        'an event type in a query lacks its self or events link',
        '_links.self and _links.events',
        JSON.stringify(x._links),
      );
    }
    const want = typesOf(all.value).map((x) => String(x.id));
    expect(
      t,
      'event-management/queries/event-types-default-sort',
      want.length === created.length,
      'created types missing',
      '5 types',
      String(want.length),
    );
    await t.property(
      fc.integer({ min: 1, max: 6 }),
      async (size) => {
        const pages = Math.ceil(5 / size);
        const seenIds: string[] = [];
        for (let p = 0; p < pages; p++) {
          const res = await getTypes(t, { filter: f, size, page: p });
          const pg = body(res).page ?? {};
          expect(
            t,
            'event-management/queries/page-object',
            res.status === 200 && pageIntegers(pg) && pg.totalElements === 5 && pg.totalPages === pages,
            `type page ${p} of size ${size} misdescribed`,
            `integers; totalElements 5, totalPages ${pages}`,
            JSON.stringify(pg),
          );
          // "Page: size, totalElements, totalPages, number (integers)": the totals are named for what they
          // count; size as the size asked for (not the items of this page) and number as the index asked
          // for (counted from 0) are our reading.
          reading(
            t,
            'spring-data-page',
            'event-management/queries/page-object',
            pg.size === size && pg.number === p,
            `type page ${p} of size ${size}: size or number is not the one asked for`,
            `size ${size}, number ${p}`,
            JSON.stringify(pg),
          );
          const links = body(res)._links ?? {};
          expect(
            t,
            'event-management/queries/paging-links',
            !!links.self?.href &&
              typeof links.self.templated === 'boolean' &&
              !!links.first?.href &&
              !!links.last?.href &&
              (p + 1 >= pages || !!links.next) &&
              (p === 0 || !!links.prev),
            'paging links do not describe the page',
            'self, first, last; next and prev where such pages exist',
            JSON.stringify(links),
          );
          // No next on the last page, no prev on the first: our reading of which links a page carries.
          reading(
            t,
            'paging-links-when-page-exists',
            'event-management/queries/paging-links',
            (p + 1 < pages || !links.next) && (p > 0 || !links.prev),
            'next or prev where no such page exists',
            'no next on the last page, no prev on the first',
            JSON.stringify(links),
          );
          seenIds.push(...idsOf(res));
        }
        expect(
          t,
          'event-management/queries/event-types-default-sort',
          JSON.stringify(seenIds) === JSON.stringify(want),
          `pages of size ${size} are not the name-sorted list cut in pieces`,
          JSON.stringify(want),
          JSON.stringify(seenIds),
        );
      },
      { rule: 'event-management/queries/page-object', runs: Math.min(t.session.context.runs, 6) },
    );
  },
  { budget: 12, budgetPerRun: 6 },
);

emTest(
  [
    'event-management/queries/event-types-size-default',
    'event-management/queries/event-types-size-above-100-400',
    'event-management/queries/page-default-and-minimum',
  ],
  `GET /eventTypes pages by ${EVENT_TYPES_PAGE.default} by default and takes size 1 to ${EVENT_TYPES_PAGE.max}; other sizes and negative pages answer 400`,
  async (t) => {
    const plain = await getTypes(t, {});
    expect(
      t,
      'event-management/queries/event-types-size-default',
      plain.status === 200 &&
        body(plain).page?.size === EVENT_TYPES_PAGE.default &&
        typesOf(plain).length <= EVENT_TYPES_PAGE.default,
      `the default page size of event types is not ${EVENT_TYPES_PAGE.default}`,
      `page.size ${EVENT_TYPES_PAGE.default}`,
      JSON.stringify(body(plain).page),
    );
    expect(
      t,
      'event-management/queries/page-default-and-minimum',
      body(plain).page?.number === 0,
      'without page the first page is not answered',
      'page.number 0',
      JSON.stringify(body(plain).page),
    );
    for (const size of [1, EVENT_TYPES_PAGE.max]) {
      const res = await getTypes(t, { size });
      expect(
        t,
        'event-management/queries/event-types-size-default',
        res.status === 200 && body(res).page?.size === size && typesOf(res).length <= size,
        `size ${size} not served`,
        `HTTP 200, page.size ${size}`,
        seen(res, 120),
      );
    }
    for (const size of [0, -5])
      outOfBounds(t, 'event-management/queries/event-types-size-default', await getTypes(t, { size }), `size ${size}`);
    // One beyond the types' maximum, and the events' maximum.
    for (const size of [EVENT_TYPES_PAGE.max + 1, EVENTS_PAGE.max])
      refused(t, {
        rule: 'event-management/queries/event-types-size-above-100-400',
        res: await getTypes(t, { size }),
        what: `size ${size}`,
      });
    outOfBounds(t, 'event-management/queries/page-default-and-minimum', await getTypes(t, { page: -1 }), 'page -1');
    const total = Number(body(plain).page?.totalElements ?? 0);
    const beyond = await getTypes(t, { size: EVENT_TYPES_PAGE.max, page: Math.ceil(total / EVENT_TYPES_PAGE.max) + 1 });
    beyondTheLast(t, beyond, typesOf(beyond).length);
  },
  { readOnly: true, budget: 9 },
);

emTest(
  ['event-management/queries/event-types-filter-fields'],
  'generated filters on id, name, owner and scope return exactly the matching types (property)',
  async (t) => {
    const stem = `${t.prefix} filt ${Math.random().toString(36).slice(2, 6)}`;
    const created = await typesNamed(t, stem, ['x', 'y', 'z'], ['LOCAL', 'GLOBAL', 'LOCAL']);
    const owner = String(created[0].owner);
    const inStem = startsWith('name', stem);
    await eventually(
      () => getTypes(t, { filter: inStem, size: EVENT_TYPES_PAGE.max }),
      (r) => typesOf(r).length === 3,
    );
    const atom = fc.oneof(
      fc.nat(2).map((i) => [eq('id', created[i].id), (x: any) => x.id === created[i].id] as const),
      fc.nat(2).map((i) => [eq('name', created[i].name), (x: any) => x.name === created[i].name] as const),
      fc.constantFrom(owner, 'someothertenant').map((o) => [eq('owner', o), (x: any) => x.owner === o] as const),
      fc.constantFrom('LOCAL', 'GLOBAL').map((s) => [eq('scope', s), (x: any) => x.scope === s] as const),
      fc.constantFrom('LOCAL', 'GLOBAL').map((s) => [ne('scope', s), (x: any) => x.scope !== s] as const),
      fc.uniqueArray(fc.nat(2), { minLength: 1, maxLength: 3 }).map(
        (is) =>
          [
            isIn(
              'id',
              is.map((i) => created[i].id),
            ),
            (x: any) => is.some((i) => created[i].id === x.id),
          ] as const,
      ),
    );
    await t.property(
      atom,
      async ([f, ok]) => {
        const res = await getTypes(t, { filter: and(inStem, f), size: EVENT_TYPES_PAGE.max });
        expect(
          t,
          'event-management/queries/event-types-filter-fields',
          res.status === 200,
          'a filter on id, name, owner or scope refused',
          'HTTP 200',
          () => `${shown(f)} — ${seen(res, 160)}`,
        );
        const want = created
          .filter(ok)
          .map((x) => x.id)
          .sort();
        expect(
          t,
          'event-management/queries/event-types-filter-fields',
          JSON.stringify(idsOf(res).sort()) === JSON.stringify(want),
          'the answer is not exactly the matching types',
          `${shown(f)}: ${JSON.stringify(want)}`,
          JSON.stringify(idsOf(res).sort()),
        );
      },
      { rule: 'event-management/queries/event-types-filter-fields', runs: Math.min(t.session.context.runs, 15) },
    );
  },
  { budget: 5, budgetPerRun: 1 },
);

emTest(
  [
    'event-management/queries/event-types-non-filterable-400',
    'event-management/queries/event-types-non-sortable-400',
    'event-management/queries/filter-json',
  ],
  'GET /eventTypes answers 400 to a filter or sort on a field other than id, name, owner and scope, and to a filter that is not JSON',
  async (t) => {
    for (const f of [where({ ttl: TTL_DEFAULT }), where({ parentId: 'BaseEvent' }), where({ nosuchfield: 'x' })])
      refused(t, {
        rule: 'event-management/queries/event-types-non-filterable-400',
        res: await getTypes(t, { filter: f }),
        what: `filter ${shown(f)}`,
      });
    for (const sort of [sortBy('ttl', 'asc'), sortBy('etag', 'desc'), sortBy('nosuchfield')])
      refused(t, {
        rule: 'event-management/queries/event-types-non-sortable-400',
        res: await getTypes(t, { sort }),
        what: `sort ${sort.field} ${sort.direction}`,
      });
    refused(t, {
      rule: 'event-management/queries/filter-json',
      res: await getTypes(t, { filter: '{name:' }),
      what: 'a filter that is not valid JSON',
    });
    const sorted = await getTypes(t, { sort: sortBy('id', 'desc'), size: EVENT_TYPES_PAGE.max });
    const ids = idsOf(sorted);
    expect(
      t,
      'event-management/queries/event-types-non-sortable-400',
      sorted.status === 200 && ids.length >= 2 && ids.every((v, i) => i === 0 || ids[i - 1] >= v),
      'sort on id (a filter field) refused or not applied',
      'HTTP 200, ids descending',
      seen(sorted, 160),
    );
  },
  { readOnly: true, budget: 8 },
);
