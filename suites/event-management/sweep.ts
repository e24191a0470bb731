import { after, and, between, eq, startsWith, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { Sweeper, SweepContext } from '../engine/leftovers.ts';
import { EVENT_TYPES_PAGE, EVENTS_PAGE } from './em-bounds.ts';

type Json = Record<string, any>;

/** The documented states before a job's end; any other state ends the wait. */
const NON_FINAL = ['ACCEPTED', 'IN_PROGRESS'];

/** Every instant an event can have (a delete job searches no default window). */
const everyTimestamp = between('timestamp', '1970-01-01T00:00:00Z', '2200-01-01T00:00:00Z');

/** Runs a delete job and waits (bounded) for a final state. */
async function deleteEvents(ctx: SweepContext, expr: FilterExpr): Promise<void> {
  const filter = ctx.dialect.encodeFilter(expr);
  const job = await ctx.send('event-management', { method: 'POST', path: '/deleteEventsJobs', json: { filter } });
  const id = (job.json as Json | undefined)?.id;
  if (job.status !== 202 || typeof id !== 'string') return;
  // not a contract bound: polls of a delete job
  for (let i = 0; i < 100; i++) {
    const s = await ctx.send('event-management', { method: 'GET', path: `/deleteEventsJobs/${id}` });
    if (s.status !== 200 || !NON_FINAL.includes((s.json as Json | undefined)?.state)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function embedded(res: HttpResponse, key: string): Json[] {
  const list = (res.json as Json | undefined)?._embedded?.[key];
  return Array.isArray(list) ? list : [];
}

/**
 * Deletes what crashed runs left in the event management service: the events of their event
 * types, then the types themselves (children first), then the standard events that carry a
 * crashed run's marker as `source`.
 */
const sweep: Sweeper = async (ctx) => {
  let n = 0;
  const standard = String(
    (ctx.fixtures.eventManagement as Json | undefined)?.standardEventTypeId ?? 'PlatformStandardEvent',
  );
  const filter = JSON.stringify(
    ctx.dialect.encodeFilter(and(startsWith('source', 'cfz'), after('timestamp', '1970-01-01T00:00:00Z'))),
  );
  // The standard events are read while the event types are (their deletion comes last).
  const standardEvents = ctx.send('event-management', {
    method: 'GET',
    path: '/events',
    query: { size: EVENTS_PAGE.max, history: true, filter },
  });
  standardEvents.catch(() => {});
  const types: Json[] = [];
  const pagesSeen = new Set<string>();
  // not a contract bound: a cap on the pages read
  for (let page = 0; page < 50; page++) {
    const res = await ctx.send('event-management', {
      method: 'GET',
      path: '/eventTypes',
      query: { size: EVENT_TYPES_PAGE.max, page },
    });
    const list = embedded(res, 'eventTypes');
    // A target that answers the same page again would be followed to the page cap for nothing.
    const key = JSON.stringify(list.map((t) => t.id));
    if (pagesSeen.has(key)) break;
    pagesSeen.add(key);
    types.push(...list.filter((t) => ctx.isLeftover(t.id) || ctx.isLeftover(t.name)));
    if (list.length < EVENT_TYPES_PAGE.max) break;
  }
  // Children before parents: a type with child types cannot be deleted.
  const depth = (t: Json): number =>
    types.some((p) => p.id === t.parentId) ? 1 + depth(types.find((p) => p.id === t.parentId)!) : 0;
  for (const type of [...types].sort((a, b) => depth(b) - depth(a))) {
    await deleteEvents(ctx, and(eq('typeId', type.id), everyTimestamp));
    const current = await ctx.send('event-management', {
      method: 'GET',
      path: `/eventTypes/${encodeURIComponent(type.id)}`,
    });
    const etag = (current.json as Json | undefined)?.etag;
    const del = await ctx.send('event-management', {
      method: 'DELETE',
      path: `/eventTypes/${encodeURIComponent(type.id)}`,
      headers: { 'If-Match': String(etag ?? type.etag) },
    });
    if (del.status < 300) n++;
  }
  const res = await standardEvents;
  const sources = [
    ...new Set(
      embedded(res, 'events')
        .map((e) => e.source)
        .filter((s) => ctx.isLeftover(s)),
    ),
  ];
  for (const source of sources) {
    await deleteEvents(ctx, and(eq('typeId', standard), eq('source', source), everyTimestamp));
    n++;
  }
  return n;
};

export default sweep;
