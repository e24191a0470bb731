import { EVENT_TYPE } from './em-descriptions.ts';
import { pageSizes, pagesComplete } from '../engine/resources/index.ts';
import fc from 'fast-check';
import {
  pageBeyondLast,
  responseSchema,
  hasRequiredMembers,
  refused,
  answered,
  holds,
  taken,
} from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { and, eq, isIn, ne, sortBy, startsWith, where } from '../engine/filter-expression.ts';
import { SERVICE, body, emTest, eventually, EM_IO, send, seen, shown, embedded, type EmQuery } from './em-client.ts';
import { createType } from './em-resources.ts';
import { EVENT_TYPES_PAGE, TTL_DEFAULT } from './em-bounds.ts';

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
    answered(t, { rule: 'event-management/queries/event-types-200', res: all.value, what: 'GET /eventTypes' });
    await responseSchema(t, 'event-management/queries/event-types-200', all.value, 'queryEventTypes');
    holds(t, {
      rule: 'event-management/queries/event-types-embedded',
      ok: Array.isArray(body(all.value)._embedded?.eventTypes) && all.ok,
      failure: 'the types are not in _embedded.eventTypes',
      expected: '_embedded.eventTypes with the 5 types',
      received: seen(all.value, 200),
    });
    const names = typesOf(all.value).map((x) => x.name);
    holds(t, {
      rule: 'event-management/queries/event-types-default-sort',
      ok: JSON.stringify(names) === JSON.stringify([...names].sort()),
      failure: 'types not sorted by name ascending',
      expected: 'a, b, c, d, e',
      received: JSON.stringify(names),
    });
    for (const x of typesOf(all.value)) {
      hasRequiredMembers(t, {
        rule: 'event-management/event-types/response-required-fields',
        service: SERVICE,
        schema: EVENT_TYPE.schema,
        value: x,
        what: 'an event type in a query',
        soft: true,
      });
      holds(t, {
        rule: 'event-management/event-types/links',
        ok: typeof x._links?.self?.href === 'string' && typeof x._links?.events?.href === 'string',
        failure: 'an event type in a query lacks its self or events link',
        expected: '_links.self and _links.events',
        received: JSON.stringify(x._links),
      });
    }
    const want = typesOf(all.value).map((x) => String(x.id));
    holds(t, {
      rule: 'event-management/queries/event-types-default-sort',
      ok: want.length === created.length,
      failure: 'created types missing',
      expected: '5 types',
      received: String(want.length),
    });
    await pagesComplete(t, EM_IO, EVENT_TYPE.paging, { filter: f }, want);
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
    holds(t, {
      rule: 'event-management/queries/event-types-size-default',
      ok:
        plain.status === 200 &&
        body(plain).page?.size === EVENT_TYPES_PAGE.default &&
        typesOf(plain).length <= EVENT_TYPES_PAGE.default,
      failure: `the default page size of event types is not ${EVENT_TYPES_PAGE.default}`,
      expected: `page.size ${EVENT_TYPES_PAGE.default}`,
      received: JSON.stringify(body(plain).page),
    });
    holds(t, {
      rule: 'event-management/queries/page-default-and-minimum',
      ok: body(plain).page?.number === 0,
      failure: 'without page the first page is not answered',
      expected: 'page.number 0',
      received: JSON.stringify(body(plain).page),
    });
    await pageSizes(t, EM_IO, EVENT_TYPE.sizes, {});
    const total = Number(body(plain).page?.totalElements ?? 0);
    const beyond = await getTypes(t, { size: EVENT_TYPES_PAGE.max, page: Math.ceil(total / EVENT_TYPES_PAGE.max) + 1 });
    pageBeyondLast(t, {
      rule: 'event-management/queries/page-default-and-minimum',
      res: beyond,
      items: typesOf(beyond).length,
      reading: 'page-beyond-last-empty',
    });
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
        taken(t, { rule: 'event-management/queries/event-types-filter-fields', res, what: `the filter ${shown(f)}` });
        const want = created
          .filter(ok)
          .map((x) => x.id)
          .sort();
        holds(t, {
          rule: 'event-management/queries/event-types-filter-fields',
          ok: JSON.stringify(idsOf(res).sort()) === JSON.stringify(want),
          failure: 'the answer is not exactly the matching types',
          expected: `${shown(f)}: ${JSON.stringify(want)}`,
          received: JSON.stringify(idsOf(res).sort()),
        });
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
    holds(t, {
      rule: 'event-management/queries/event-types-non-sortable-400',
      ok: sorted.status === 200 && ids.length >= 2 && ids.every((v, i) => i === 0 || ids[i - 1] >= v),
      failure: 'sort on id (a filter field) refused or not applied',
      expected: 'HTTP 200, ids descending',
      received: seen(sorted, 160),
    });
  },
  { readOnly: true, budget: 8 },
);
