import { and, between, describeFilter, eq, where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { session } from '../engine/session.ts';
import {
  DAY_MS,
  SERVICE,
  VISIBILITY_DEADLINE_MS,
  backgroundSender,
  body,
  entity,
  eventually,
  fixtures,
  homeTenant,
  iso,
  pollJob,
  seen,
  senderOf,
  tag,
  type As,
  type Sender,
  onceVisible,
} from './em-client.ts';

/** A field of an event type as the suite sends it. */
export interface FieldSpec {
  name: string;
  type?: string;
  filterable?: boolean;
  required?: boolean;
  updatable?: boolean;
  values?: unknown;
}

/** A field definition. */
export const field = (name: string, type: string, extra: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  type,
  ...extra,
});

/** An event type ID unique to the run, in the documented `<tenant>.<alphanumeric>` form (bare when the tenant is unknown). */
export function typeId(t: RuleContext, label = 'et'): string {
  const local = `${t.prefix}${label}${tag()}`;
  const tenant = homeTenant(t);
  return tenant ? `${tenant}.${local}` : local;
}

/** A type name unique to the run. */
export const typeName = (t: RuleContext, label = 'type') => `${t.prefix} ${label} ${tag()}`;

/** A valid EventType body: a run-unique id and name, no fields unless given. */
export function typeBody(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: typeId(t), name: typeName(t), fields: [], ...over };
}

/** Deletes an event type for the ledger: its events first (a delete job), then the type, tolerating lag. */
export async function removeType(send: Sender, id: string, as?: As, createdAt = Date.now()): Promise<void> {
  const started = Date.now();
  const path = `/eventTypes/${encodeURIComponent(id)}`;
  let jobs = 0;
  let refused = 0;
  for (let attempt = 0; attempt < 40; attempt++) {
    const got = await send({ method: 'GET', path, as });
    if (got.status === 404) {
      // A type not visible yet is still there; one that stays unseen is gone.
      if (Date.now() - createdAt > VISIBILITY_DEADLINE_MS) return;
      await sleep(50);
      continue;
    }
    if (got.status !== 200) throw new Error(`cannot read event type ${id} to delete it: ${seen(got, 120)}`);
    const etag = body(got).etag;
    const res = await send({ method: 'DELETE', path, headers: { 'If-Match': String(etag) }, as });
    if (res.status === 204 || res.status === 404) return;
    if (res.status === 409 && Date.now() - started < VISIBILITY_DEADLINE_MS) {
      // A stale etag read within the visibility delay.
      await sleep(50);
      continue;
    }
    if (res.status === 400 && ++refused <= 3) {
      // Events remain: delete them, the second time over every timestamp; then allow the deletion time to show.
      if (jobs < 2) {
        jobs++;
        const filter =
          jobs > 1
            ? and(eq('typeId', id), between('timestamp', '1970-01-01T00:00:00Z', '2200-01-01T00:00:00Z'))
            : eq('typeId', id);
        await runDeleteJob(send, filter, as);
      } else await sleep(300);
      continue;
    }
    throw new Error(`event type ${id} could not be deleted: ${seen(res, 160)}`);
  }
  throw new Error(`event type ${id} could not be deleted`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a delete job to a final state, retrying one that failed (e.g. a concurrent deletion). */
export async function runDeleteJob(send: Sender, filter: FilterExpr, as?: As): Promise<string> {
  const shown = describeFilter(filter);
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await send({ method: 'POST', path: '/deleteEventsJobs', json: { filter }, as });
    if (res.status !== 202 || typeof body(res).id !== 'string')
      throw new Error(`delete job refused for ${shown}: ${seen(res, 160)}`);
    const trace = await pollJob(send, 'delete', body(res).id, as);
    if (trace.final?.state === 'FINISHED') return String(trace.final.details?.resultDescription ?? '');
    // A state outside the documented ones will not turn into FINISHED by trying again.
    if (trace.undocumented)
      throw new Error(
        `delete job for ${shown} ended in undocumented state ${JSON.stringify(trace.undocumented.state)}`,
      );
    if (!trace.final && trace.last.status !== 200)
      throw new Error(`delete job for ${shown} cannot be read: ${seen(trace.last, 160)}`);
    last = trace.final ? JSON.stringify(trace.final) : seen(trace.last, 160);
    await sleep(100 * (attempt + 1));
  }
  throw new Error(`delete job for ${shown} did not finish: ${last}`);
}

const releases = new Map<string, () => void>();

/** Records an event type for deletion after the test (or after the file, for a `fileScope`). */
export function trackType(t: RuleContext, id: string, as?: As, fileScope?: string): () => void {
  const createdAt = Date.now();
  const resource = {
    kind: 'event type',
    id,
    label: as ? `of ${as}` : undefined,
    cleanup: () => removeType(backgroundSender(), id, as, createdAt),
  };
  const release = fileScope ? session().ledger.track(fileScope, { service: SERVICE, ...resource }) : t.track(resource);
  releases.set(id, release);
  return release;
}

/** Marks an event type the test deleted itself. */
export function typeDeleted(id: string): void {
  releases.get(id)?.();
  releases.delete(id);
}

/** POST /eventTypes as it is; a created type is tracked. */
export async function postType(
  t: RuleContext,
  json: unknown,
  opts: { as?: As; query?: Record<string, string>; fileScope?: string } = {},
): Promise<HttpResponse> {
  const res = await senderOf(t)({ method: 'POST', path: '/eventTypes', json, query: opts.query, as: opts.as });
  if (res.status === 201 && typeof body(res).id === 'string') trackType(t, body(res).id, opts.as, opts.fileScope);
  return res;
}

/** Creates an event type a test needs; a refusal skips the test (creation is judged by event-types/create-201). */
export async function createType(
  t: RuleContext,
  over: Record<string, unknown> = {},
  opts: { as?: As; fileScope?: string } = {},
): Promise<Record<string, any>> {
  const res = await postType(t, typeBody(t, over), opts);
  if (res.status !== 201 || typeof body(res).id !== 'string')
    t.skip(`could not create an event type (${seen(res, 200)}); judged by event-types/create-201`);
  return body(res);
}

/** Records events another principal created in a type, deleted (before the type) after the test. */
export function trackForeignEvents(t: RuleContext, id: string, as: As): () => void {
  return t.track({
    kind: 'events',
    id: `typeId=${id}`,
    label: `of ${as}`,
    cleanup: async () => void (await runDeleteJob(backgroundSender(), eq('typeId', id), as)),
  });
}

// ---------------------------------------------------------------- standard events

/**
 * Standard events carry the run's marker as `source`; they are deleted by one delete job per file
 * on the standard type filtered by that marker. Events whose source a test set otherwise are
 * given the marker back first.
 */
const touched = new Set<string>();
let sweepPending = false;
let lastStandardWrite = 0;

/** The marker every standard event of the run carries in `source`. */
export const marker = (t: RuleContext) => t.prefix;

/** Notes a standard event whose source may not be the marker (restored before the sweep). */
export function touchStandard(id: string): void {
  touched.add(id);
}

/** Registers the sweep of the run's standard events (once per file). */
export function registerStandardSweep(t: RuleContext): void {
  lastStandardWrite = Date.now();
  if (sweepPending) return;
  sweepPending = true;
  const standard = fixtures(t).standardEventTypeId;
  const prefix = t.prefix;
  session().ledger.track('em-standard-events', {
    service: SERVICE,
    kind: 'standard events',
    id: `source=${prefix}`,
    cleanup: async () => {
      sweepPending = false;
      await sweepStandardEvents(standard, prefix);
    },
  });
}

async function sweepStandardEvents(standard: string, prefix: string): Promise<void> {
  const send = backgroundSender();
  // Writes may take the documented 100 ms to be seen by the deletion.
  const wait = lastStandardWrite + 200 - Date.now();
  if (wait > 0) await sleep(wait);
  // Each event is given the marker back on its own (they are independent): all at once.
  const ids = [...touched];
  touched.clear();
  const marked = await Promise.allSettled(ids.map((id) => markStandard(send, id, prefix)));
  // One not marked yet is tried again by the cleanup's next pass.
  marked.forEach((m, i) => m.status === 'rejected' && touched.add(ids[i]));
  const failed = marked.find((m) => m.status === 'rejected');
  if (failed) throw failed.reason;
  await runDeleteJob(send, where({ typeId: standard, source: prefix }));
}

/** Gives a standard event the run's marker back as its source (it is then deleted by marker). */
async function markStandard(send: ReturnType<typeof backgroundSender>, id: string, prefix: string): Promise<void> {
  const done = await eventually(
    async () => {
      const got = await send({ method: 'GET', path: `/events/${id}` });
      if (got.status !== 200) return got.status;
      const e = body(got);
      if (e.source === prefix) return 200;
      const { id: _id, etag, _links: _l, sharing: _s, ...rest } = e;
      const put = await send({
        method: 'PUT',
        path: `/events/${id}`,
        headers: { 'If-Match': String(etag) },
        json: { ...rest, source: prefix },
      });
      return put.status === 200 ? 200 : put.status;
    },
    (s) => s === 200 || s === 404,
  );
  if (!done.ok) throw new Error(`standard event ${id} could not be given the marker source (HTTP ${done.value})`);
}

/** A valid standard event body carrying the run's marker. */
export function standardBody(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: iso(-60_000 - Math.floor(Math.random() * 60_000)),
    entityId: entity(t),
    source: marker(t),
    ...over,
  };
}

/** Whether a body is one of a standard event. */
function isStandard(t: RuleContext, json: unknown): boolean {
  const typeIdValue = (json as Record<string, unknown> | undefined)?.typeId;
  return typeIdValue === undefined || typeIdValue === null || typeIdValue === fixtures(t).standardEventTypeId;
}

/** Notes whatever a write of events created or changed, so that it is deleted after the run. */
export function noteEventWrite(t: RuleContext, json: unknown, res: HttpResponse): void {
  if (res.status >= 300) return;
  const id = body(res).id;
  // Deleted in bulk (by type, or the standard events by marker): noted, so a failure naming it says so.
  if (typeof id === 'string') t.session.ledger.noteCreated({ service: SERVICE, kind: 'event', id });
  if (!isStandard(t, json)) return;
  registerStandardSweep(t);
  const b = body(res);
  if (typeof b.id === 'string' && b.source !== marker(t)) touchStandard(b.id);
}

/** POST /events as it is; what it creates is cleaned up. */
export async function postEvent(
  t: RuleContext,
  json: unknown,
  opts: { as?: As; query?: Record<string, string> } = {},
): Promise<HttpResponse> {
  if (isStandard(t, json)) registerStandardSweep(t);
  const res = await senderOf(t)({ method: 'POST', path: '/events', json, query: opts.query, as: opts.as });
  noteEventWrite(t, json, res);
  return res;
}

/** PUT /events/{id} as it is; a standard event it changes is given its marker back later. */
export async function putEvent(
  t: RuleContext,
  id: string,
  ifMatch: string | undefined,
  json: unknown,
  opts: { as?: As; query?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const res = await senderOf(t)({
    method: 'PUT',
    path: `/events/${encodeURIComponent(id)}`,
    json,
    query: opts.query,
    headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch },
    as: opts.as,
  });
  if (res.status === 200 && isStandard(t, json) && body(res).source !== marker(t)) {
    registerStandardSweep(t);
    touchStandard(id);
  }
  return res;
}

/**
 * Creates an event a test needs, waiting out a type that is not visible yet; a refusal skips the
 * test (creation is judged by events/create-201).
 */
export async function createEvent(t: RuleContext, json: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await onceVisible(() => postEvent(t, json));
  if (res.status !== 201 || typeof body(res).id !== 'string')
    t.skip(`could not create an event (${seen(res, 200)}); judged by events/create-201`);
  return body(res);
}

/** The request form of an event response (what a PUT sends back). */
export function asRequest(e: Record<string, any>): Record<string, unknown> {
  const { id: _id, etag: _etag, _links, sharing: _sharing, ...rest } = e;
  return rest;
}

/** Starts a create job; standard events in it are swept after the file. */
export async function postCreateJob(t: RuleContext, events: unknown, opts: { as?: As } = {}): Promise<HttpResponse> {
  if (Array.isArray(events) && events.some((e) => isStandard(t, e))) registerStandardSweep(t);
  return senderOf(t)({ method: 'POST', path: '/createEventsJobs', json: { events }, as: opts.as });
}

/** Notes the standard events a finished create job made whose source is not the marker. */
export function noteCreateJobResults(t: RuleContext, details: unknown): void {
  const items = (details as { resultDescription?: unknown } | undefined)?.resultDescription;
  if (!Array.isArray(items)) return;
  for (const item of items) {
    const e = (item as { event?: Record<string, unknown> })?.event;
    if (e && typeof e.id === 'string' && isStandard(t, e) && e.source !== marker(t)) touchStandard(e.id);
  }
}

/** Creates events of a type through one create job (at most 50) and returns them in input order; skips when that fails. */
export async function createEventsInBulk(
  t: RuleContext,
  events: Array<Record<string, unknown>>,
): Promise<Array<Record<string, any>>> {
  const res = await postCreateJob(t, events);
  if (res.status !== 202 || typeof body(res).id !== 'string')
    t.skip(`could not start a create job (${seen(res, 200)}); judged by jobs/create-job-202`);
  const trace = await pollJob(senderOf(t), 'create', body(res).id);
  noteCreateJobResults(t, trace.final?.details);
  const items = trace.final?.details?.resultDescription;
  if (
    !Array.isArray(items) ||
    items.length !== events.length ||
    items.some((i: any) => String(i?.resultCode) !== '201' || typeof i?.event?.id !== 'string')
  ) {
    t.skip(
      `the create job did not create every event (${trace.final ? JSON.stringify(trace.final).slice(0, 200) : seen(trace.last, 160)}); judged by jobs/create-details`,
    );
  }
  return items.map((i: any) => i.event as Record<string, any>);
}

/** Timestamp `days` days before now (negative: in the future). */
export const daysAgo = (days: number) => iso(-days * DAY_MS);
