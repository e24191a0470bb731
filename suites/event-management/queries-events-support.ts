// What the queries-events spec files share.
import fc from 'fast-check';
import {
  after,
  and,
  before,
  eq,
  isIn,
  ne,
  or,
  startsWith,
  where,
  between,
  type FilterExpr,
} from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { defaultDialect } from '../engine/filter-dialect.ts';
import { EVENTS_QUERY_SIZE, body, eventually, fixtures, send, embedded, type EmQuery } from './em-client.ts';
import { DATASET_SIZE, GROUPS, type Dataset } from './em-dataset.ts';

export const eventsOf = (res: HttpResponse) => embedded(res, 'events');
export const idsOf = (res: HttpResponse) => eventsOf(res).map((e) => String(e.id));

export function getEvents(t: RuleContext, query: EmQuery) {
  return send(t, { method: 'GET', path: '/events', query });
}

/** Waits until the dataset is complete in queries (new events may take 100 ms to show); the tests judge what they then get. */
export async function datasetVisible(t: RuleContext, d: Dataset): Promise<void> {
  await eventually(
    () => getEvents(t, { size: EVENTS_QUERY_SIZE, filter: where({ typeId: d.typeId }) }),
    (res) =>
      eventsOf(res).length === DATASET_SIZE || (res.status === 200 && !Array.isArray(body(res)._embedded?.events)),
  );
}

// ---------------------------------------------------------------- filters
export /** Atoms over the dataset's filterable fields, within the documented restrictions. */
function atom(d: Dataset): fc.Arbitrary<FilterExpr> {
  const times = d.events.map((e) => Date.parse(e.timestamp));
  const lo = Math.min(...times) - 30_000;
  const hi = Math.max(...times) + 30_000;
  // not a contract bound: half a second past a whole one
  const instant = fc.integer({ min: lo, max: hi }).map((ms) => new Date(ms - (ms % 1000) + 500).toISOString());
  return fc.oneof(
    fc.integer({ min: -2, max: DATASET_SIZE + 2 }).map((n) => eq('n', n)),
    fc
      .uniqueArray(fc.integer({ min: 0, max: DATASET_SIZE }), { minLength: 1, maxLength: 6 })
      .map((values) => isIn('n', values)),
    fc.integer({ min: 0, max: DATASET_SIZE }).map((n) => ne('n', n)),
    fc.constantFrom(...GROUPS, 'z').map((grp) => eq('grp', grp)),
    fc.boolean().map((flag) => eq('flag', flag)),
    fc.nat(2).map((i) => eq('entityId', d.events.find((_, k) => k % 3 === i)?.entityId ?? d.events[0].entityId)),
    fc.nat(DATASET_SIZE - 1).map((i) => eq('correlationId', d.events[i].correlationId)),
    // A custom TIMESTAMP field, by equality with the value as it was written.
    fc.nat(DATASET_SIZE - 1).map((i) => eq('seen', d.events[i].seen)),
    instant.map((ts) => after('timestamp', ts)),
    instant.map((ts) => before('timestamp', ts)),
  );
}

/** One forbidden filter: the rule it breaks and why. */
export interface Forbidden {
  rule: string;
  what: string;
  /** An expression, or the text to send (the filter-json rules: text that is no JSON object). */
  filter: (t: RuleContext, typeId: string) => FilterExpr | string;
}

export const FORBIDDEN: Forbidden[] = [
  {
    rule: 'event-management/queries/events-non-filterable-400',
    what: 'a filter on description (not filterable)',
    filter: () => where({ description: 'x' }),
  },
  {
    rule: 'event-management/queries/events-non-filterable-400',
    what: 'a filter on a custom field declared filterable false',
    filter: (_t, id) => where({ typeId: id, note: 'note 1' }),
  },
  {
    rule: 'event-management/queries/events-non-filterable-400',
    what: 'a filter on an unknown field',
    filter: () => where({ nosuchfield: 1 }),
  },
  {
    rule: 'event-management/queries/type-id-single-expression',
    what: 'two typeId expressions',
    filter: (t, id) => and(eq('typeId', id), and(eq('typeId', fixtures(t).standardEventTypeId))),
  },
  {
    rule: 'event-management/queries/type-id-no-negation',
    what: 'a negated typeId',
    filter: (_t, id) => ne('typeId', id),
  },
  {
    rule: 'event-management/queries/type-id-equality-only',
    what: 'typeId with in',
    filter: (_t, id) => isIn('typeId', [id]),
  },
  {
    rule: 'event-management/queries/type-id-equality-only',
    what: 'typeId with startsWith',
    filter: (t) => startsWith('typeId', t.prefix),
  },
  {
    rule: 'event-management/queries/type-id-equality-only',
    what: 'typeId under or',
    filter: (t, id) => or(eq('typeId', id), eq('code', 'x')),
  },
  {
    rule: 'event-management/queries/base-event-type-id-400',
    what: 'typeId BaseEvent',
    filter: (t) => eq('typeId', fixtures(t).baseEventTypeId),
  },
  {
    rule: 'event-management/queries/asset-type-id-in-max-5',
    what: 'assetTypeId in with 6 values',
    filter: (t) => isIn('assetTypeId', [...(fixtures(t).assetTypeIds ?? []), 'a', 'b', 'c', 'd', 'e', 'f'].slice(0, 6)),
  },
  {
    rule: 'event-management/queries/asset-type-id-no-negation',
    what: 'a negated assetTypeId',
    filter: (t) => ne('assetTypeId', fixtures(t).assetTypeIds?.[0] ?? 'x'),
  },
  {
    rule: 'event-management/queries/asset-type-id-equality-or-in',
    what: 'assetTypeId with startsWith',
    filter: () => startsWith('assetTypeId', 'a'),
  },
  {
    rule: 'event-management/queries/parent-asset-id-no-negation',
    what: 'a negated parentAssetId',
    filter: (t) => ne('parentAssetId', fixtures(t).parentAssetId ?? 'x'),
  },
  {
    rule: 'event-management/queries/parent-asset-id-equality-only',
    what: 'parentAssetId with in',
    filter: (t) => isIn('parentAssetId', [fixtures(t).parentAssetId ?? 'x']),
  },
  {
    rule: 'event-management/queries/filter-json',
    what: 'a filter that is not valid JSON',
    filter: () => '{"typeId": ',
  },
  { rule: 'event-management/queries/filter-json', what: 'a filter that is a JSON array', filter: () => '[]' },
  // "filter | string, JSON-encoded": a JSON value that is not an object is no filter either.
  { rule: 'event-management/queries/filter-json', what: 'a filter that is a JSON number', filter: () => '42' },
  { rule: 'event-management/queries/filter-json', what: 'a filter that is JSON null', filter: () => 'null' },
  { rule: 'event-management/queries/filter-json', what: 'a filter that is a JSON string', filter: () => '"typeId"' },
];

/**
 * A timestamp `between` the deployment takes. In the suite's default dialect it is tried on
 * GET /events for `typeId` as the interval text `[from,to)` (the contract's grammar), else as
 * the array `[from, to]`: the document names between without its syntax, so the test judges the
 * probe (`taken`, the reading between-interval-text), and the range it selects stays a document
 * check. A declared dialect is the deployment's own word on the spelling: its between is taken as it is.
 */
export async function betweenRange(
  t: RuleContext,
  typeId: string,
  from: string,
  to: string,
  taken: (probe: HttpResponse, what: string) => boolean,
): Promise<FilterExpr> {
  const range = between('timestamp', from, to);
  if ((await t.session.filterDialect) !== defaultDialect) return range;
  const probe = await send(t, {
    method: 'GET',
    path: '/events',
    query: { filter: where({ typeId }, range), size: 1 },
  });
  return taken(probe, `timestamp between written as "[${from},${to})"`) ? range : between('timestamp', from, to, true);
}
