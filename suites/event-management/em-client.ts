import { SERVICE_INFO } from '../../contracts/services.ts';
import { describeResponse } from '../engine/checks/index.ts';
import { UnsupportedFilter, type FilterDialect } from '../engine/filter-dialect.ts';
import { probeDialect, refusedOperators, type DialectVerdict } from '../engine/filter-dialect-probe.ts';
import {
  describeFilter,
  isFilterExpr,
  operatorsOf,
  type FilterExpr,
  type SortExpr,
} from '../engine/filter-expression.ts';
import type { HttpResponse, QueryValue } from '../engine/http-client.ts';
import { serviceTest, type RuleContext, type SendOptions } from '../engine/rule-test.ts';
import type { ResourceIo } from '../engine/resources/index.ts';
import { session, type Session } from '../engine/session.ts';
import { TokenError } from '../engine/token-error.ts';
import { PrincipalUnavailable, Unjudged } from '../engine/unjudged.ts';

export const SERVICE = 'event-management' as const;
export const BASE_PATH = SERVICE_INFO[SERVICE].basePath;

/** Longest lag the suite waits out for a write to become visible (the document allows 100 ms). */
export const VISIBILITY_DEADLINE_MS = 2_000;

/**
 * The page size of the suite's own event queries: a page that holds every event one test makes,
 * below the contract's maximum (EVENTS_PAGE.max of em-bounds.ts), which some targets serve slowly.
 */
export const EVENTS_QUERY_SIZE = 100; // not a contract bound: a page that holds one test's events
/** Longest wait for a job to reach a final state. */
export const JOB_DEADLINE_MS = 15_000;
export const FINAL_STATES = ['FINISHED', 'FINISHED_WITH_ERROR'] as const;
/** The documented states a job passes through: polling goes on only while a job shows one of them. */
export const NON_FINAL_STATES = ['ACCEPTED', 'IN_PROGRESS'] as const;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DAY_MS = 86_400_000;

/** Declares an Event Management rule test (`emTest.each`: one per row of a table). */
export const emTest = serviceTest(SERVICE);

export type As = SendOptions['as'];

/**
 * Query parameters; `filter` and `sort` are given as expressions (encoded in the run's filter
 * dialect) or, for the rules on malformed filters, as the text to send.
 */
export type EmQuery = Record<string, QueryValue | FilterExpr | SortExpr>;

/** One request to the service; `path` is relative to its base path. */
export interface EmRequest {
  method: string;
  path: string;
  query?: EmQuery;
  /** A body; a `filter` member that is an expression is encoded in the run's filter dialect. */
  json?: unknown;
  /** Raw body (sent as application/json unless a header says otherwise). */
  body?: string;
  headers?: Record<string, string | undefined>;
  as?: As;
  tenant?: string;
}

/** Something that sends requests to the service: a test, or the background sender of cleanups. */
export type Sender = (req: EmRequest) => Promise<HttpResponse>;

const isSortExpr = (v: unknown): v is SortExpr =>
  !!v && typeof v === 'object' && typeof (v as SortExpr).field === 'string' && 'direction' in v;

/** The operators of a request's filter and sort expressions ('sort' for a sort); none when it states none. */
function expressionOperators(req: Omit<EmRequest, 'as' | 'tenant'>): string[] {
  const q = req.query ?? {};
  const body = (req.json as { filter?: unknown } | undefined)?.filter;
  return [
    ...(isFilterExpr(q.filter) ? operatorsOf(q.filter) : []),
    ...(isFilterExpr(body) ? operatorsOf(body) : []),
    ...(isSortExpr(q.sort) ? ['sort'] : []),
  ];
}

/** Whether a request states a filter or sort as an expression. */
function carriesExpressions(req: Omit<EmRequest, 'as' | 'tenant'>): boolean {
  return expressionOperators(req).length > 0;
}

/** The request with its filter and sort expressions written in `dialect` (UnsupportedFilter when it cannot). */
function encoded(req: Omit<EmRequest, 'as' | 'tenant'>, dialect: FilterDialect) {
  const query: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (k === 'filter' && isFilterExpr(v)) query[k] = JSON.stringify(dialect.encodeFilter(v));
    else if (k === 'sort' && isSortExpr(v)) query[k] = dialect.encodeSort(v);
    else query[k] = v as QueryValue;
  }
  const json = req.json as Record<string, unknown> | undefined;
  return {
    ...req,
    query: req.query ? query : undefined,
    json: isFilterExpr(json?.filter) ? { ...json, filter: dialect.encodeFilter(json.filter) } : req.json,
  };
}

/** Why a dialect did not write a filter: what it cannot express (UnsupportedFilter, by name), or its error. */
function cannotWrite(dialect: FilterDialect, expr: FilterExpr | undefined, e: unknown): string {
  const what = e instanceof Error && e.name === UnsupportedFilter.name ? e.message : undefined;
  if (what) return `the filter dialect "${dialect.name}" cannot write ${what}`;
  const msg = e instanceof Error ? e.message : String(e);
  return `the filter dialect "${dialect.name}" threw on ${expr ? describeFilter(expr) : 'a filter or sort'}: ${msg} (filterDialect)`;
}

/** Whether the deployment understands the run's filter dialect (probed once per run, on GET /events). */
export function dialectVerdict(s: Session = session()): Promise<DialectVerdict> {
  s.dialectVerdict ??= (async () => {
    const dialect = await s.filterDialect;
    const entities = (s.context.config.fixtures?.eventManagement as { entityIds?: unknown } | undefined)?.entityIds;
    const entityId = Array.isArray(entities) && typeof entities[0] === 'string' ? entities[0] : undefined;
    const get = backgroundSender();
    return probeDialect(dialect, (query) => get({ method: 'GET', path: '/events', query }), entityId);
  })();
  return s.dialectVerdict;
}

/**
 * Why a filter or sort using `operators` cannot be judged in this run: the deployment refused
 * the dialect's spelling of them when probed (an operator no probe tried counts as refused then).
 */
export async function dialectRefusal(
  t: RuleContext,
  operators: Iterable<string> = ['eq', 'in', 'before', 'after', 'sort'],
): Promise<string | undefined> {
  const verdict = await dialectVerdict(t.session);
  const refused = refusedOperators(verdict, operators);
  if (!refused.length) return undefined;
  return `declare the deployment's filter dialect: ${verdict.summary} (this test writes ${refused.join(', ')}; set "filterDialect" in the run configuration, see the README)`;
}

/** A filter the run's dialect cannot carry leaves its rules unjudged: the configuration's `filterDialect`, never a verdict. */
export function dialectUnjudged(reason: string): Unjudged {
  return new Unjudged('configuration', 'skipped', reason, 'filterDialect');
}

/**
 * A filter written in the run's dialect, to be sent without the dialect check: for requests
 * whose rule does not rest on the filter (a refusal for a missing scope).
 */
export async function writtenFilter(t: RuleContext, expr: FilterExpr): Promise<unknown> {
  return (await t.session.filterDialect).encodeFilter(expr);
}

/** Why `expr` cannot be written in the run's dialect, or undefined when it can. */
export async function inexpressible(t: RuleContext, expr: FilterExpr): Promise<string | undefined> {
  const dialect = await t.session.filterDialect;
  try {
    dialect.encodeFilter(expr);
    return undefined;
  } catch (e) {
    return cannotWrite(dialect, expr, e);
  }
}

/**
 * The sender of a test: every exchange is kept as the test's evidence. A request with a filter
 * or sort expression ends the test as skipped when the deployment refuses the run's dialect, or
 * when the dialect cannot write the expression: a grammar is no semantic rule's failure.
 */
export function senderOf(t: RuleContext): Sender {
  return async ({ as, tenant, ...req }) => {
    const operators = expressionOperators(req);
    if (!operators.length) return t.send(req as Parameters<RuleContext['send']>[0], { as, tenant });
    const refusal = await dialectRefusal(t, operators);
    if (refusal) throw t.unjudged(dialectUnjudged(refusal));
    const dialect = await t.session.filterDialect;
    let out: ReturnType<typeof encoded>;
    try {
      out = encoded(req, dialect);
    } catch (e) {
      // What a dialect cannot write (or a dialect module that throws) is configuration, never a verdict.
      throw t.unjudged(dialectUnjudged(cannotWrite(dialect, undefined, e)));
    }
    return t.send(out, { as, tenant });
  };
}

/** A sender outside any test (cleanups after a test or a file). */
export function backgroundSender(): Sender {
  return async ({ as, tenant, ...req }) => {
    const s = session();
    const headers = { ...(req.headers ?? {}) };
    const who = as === undefined ? 'full' : as;
    if (who !== null) headers.authorization = await s.tokens.authorization(who, tenant);
    const out = carriesExpressions(req) ? encoded(req, await s.filterDialect) : req;
    return s.http.send({
      ...(out as Parameters<Session['http']['send']>[0]),
      path: `${BASE_PATH}${req.path}`,
      headers,
    });
  };
}

/** Sends one request as a test. */
export function send(t: RuleContext, req: EmRequest): Promise<HttpResponse> {
  return senderOf(t)(req);
}

/** How the generic resource tests (suites/engine/resources/) reach the service. */
export const EM_IO: ResourceIo = {
  send: (t, req) => send(t, req as EmRequest),
  eventually: (probe, done) => eventually(probe, done),
  servicePath: (t, href) => servicePath(t, href),
  listed: (res, key) => embedded(res, key),
};

/** A short description of a response for Expected/Received. */
export const seen = (res: HttpResponse, chars = 240) => describeResponse(res, chars);

/** The JSON body as an object (empty when it is none). */
export function body(res: HttpResponse): Record<string, any> {
  return res.json && typeof res.json === 'object' && !Array.isArray(res.json) ? (res.json as Record<string, any>) : {};
}

/**
 * The `_embedded[key]` list of an answer: an empty list when it is not an array, and `{}` for an
 * item that is not an object, so that a malformed answer fails the checks rather than the suite.
 */
export function embedded(res: HttpResponse, key: string): Array<Record<string, any>> {
  const list: unknown = body(res)._embedded?.[key];
  return Array.isArray(list)
    ? list.map((x: unknown) => (x && typeof x === 'object' ? (x as Record<string, any>) : {}))
    : [];
}

/** A filter in the suite's neutral notation, for titles and Expected/Received. */
/** Whether a query answer's page carries its four integers ("Page: size, totalElements, totalPages, number (integers)"). */
export function pageIntegers(page: unknown): boolean {
  const pg = (page ?? {}) as Record<string, unknown>;
  return ['size', 'totalElements', 'totalPages', 'number'].every((k) => Number.isInteger(pg[k]));
}

export const shown = (f: FilterExpr) => describeFilter(f);

/** 4 → `4th`, 101 → `101st`: how a message counts a bound's items. */
export const ordinal = (n: number) =>
  `${n}${Math.floor(n / 10) % 10 === 1 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** An ISO UTC timestamp `offsetMs` from now. */
export const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

let tagCounter = 0;
/** A short alphanumeric tag unique within the run. */
export function tag(): string {
  // not a contract bound: base-36 digits
  return `${(tagCounter++).toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
}

/** `n` distinct timestamps within the last hour, newest first, at least `stepMs` apart. */
export function timestamps(n: number, stepMs = 1_000, startOffsetMs = -60_000): string[] {
  const start = Date.now() + startOffsetMs - Math.floor(Math.random() * 1_000);
  return Array.from({ length: n }, (_, i) => new Date(start - i * stepMs).toISOString());
}

/** The seeded data of the deployment the run configuration names (`fixtures.eventManagement`). */
export interface EmFixtures {
  standardEventTypeId: string;
  baseEventTypeId: string;
  entityIds?: string[];
  parentAssetId?: string;
  assetTypeIds?: string[];
  sharedEntityId?: string;
  otherTenantEntityId?: string;
  subTenantEntityIds?: Record<string, string>;
  sharedEventTypeId?: string;
  sharedEventTypeOwner?: string;
  globalEventTypeId?: string;
  bigEventTypeId?: string;
  bigEventTypeEventCount?: number;
  limitEventTypeId?: string;
  limitEventTypeEventCount?: number;
  sharedEventId?: string;
}

/** The configured fixtures, with the documented names of the two core types as defaults. */
export function fixtures(t: RuleContext): EmFixtures {
  const raw = (t.fixtures.eventManagement ?? {}) as Partial<EmFixtures>;
  return { standardEventTypeId: 'PlatformStandardEvent', baseEventTypeId: 'BaseEvent', ...raw };
}

/**
 * The first configured sub-tenant, once the run has a token of its users (a skip naming what is
 * missing otherwise).
 */
export async function subTenantUser(t: RuleContext): Promise<string> {
  t.need('fixtures.subTenantIds');
  const subs = (t.fixtures.subTenantIds as string[] | undefined) ?? Object.keys(fixtures(t).subTenantEntityIds ?? {});
  if (!subs.length)
    t.needsConfiguration('fixtures.subTenantIds', 'no sub-tenant is configured (fixtures.subTenantIds)');
  const sub = subs[0];
  try {
    await t.session.tokens.authorization('full', sub);
  } catch (e) {
    // The token endpoint refusing the sub-tenant (400 unprovisioned, 401, 403) is the configuration's
    // sub-tenant not being one of the application's; a target gone is not.
    if (!(e instanceof TokenError) && !(e instanceof PrincipalUnavailable)) throw e;
    t.needsConfiguration(
      'fixtures.subTenantIds',
      `no token for sub-tenant ${sub}: ${e.message} (the application is not provisioned for it)`,
    );
  }
  return sub;
}

/** A configured fixture, or a skip naming the missing key. */
export function fixture<K extends keyof EmFixtures>(
  t: RuleContext,
  key: K,
  why = 'this rule',
): NonNullable<EmFixtures[K]> {
  t.need(`fixtures.eventManagement.${String(key)}`);
  const v = fixtures(t)[key];
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0))
    t.needsConfiguration(
      `fixtures.eventManagement.${String(key)}`,
      `fixtures.eventManagement.${String(key)} is not configured; ${why} needs it`,
    );
  return v;
}

/** The i-th entity events of the test may name (not the site when avoidable). */
export function entity(t: RuleContext, i = 0): string {
  const all = fixture(t, 'entityIds', 'creating events');
  const site = fixtures(t).parentAssetId;
  const devices = all.filter((e) => e !== site);
  const list = devices.length ? devices : all;
  return list[i % list.length];
}

/** The tenant the suite works in, when the configuration shows it. */
export function homeTenant(t: RuleContext): string | undefined {
  return t.session.tokens.homeTenant();
}

/** Milliseconds to wait before the next poll (quick at first, then at most every 100 ms). */
export function pollDelay(attempt: number): number {
  return [0, 5, 10, 20, 30, 50, 80][attempt] ?? 100; // not a contract bound: milliseconds
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Repeats a read until `done` holds or the deadline passes (eventual consistency: the document
 * allows 100 ms); returns the last value and whether it held.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  deadlineMs = VISIBILITY_DEADLINE_MS,
): Promise<{ value: T; ok: boolean; elapsedMs: number }> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const value = await probe();
    if (done(value)) return { value, ok: true, elapsedMs: Date.now() - started };
    if (Date.now() - started >= deadlineMs) return { value, ok: false, elapsedMs: Date.now() - started };
    await sleep(pollDelay(attempt + 1));
  }
}

/**
 * The answer to a request naming something just made, sent again while it answers 404 (not
 * visible yet) up to the visibility deadline.
 */
export async function onceVisible(request: () => Promise<HttpResponse>): Promise<HttpResponse> {
  return (await eventually(request, (r) => r.status !== 404)).value;
}

/** A job as its status resource shows it. */
export interface JobView {
  id?: unknown;
  state?: unknown;
  details?: any;
}

/** Every status a job showed while polled, and the final one (if it got there before the deadline). */
export interface JobTrace {
  seen: Array<{ status: number; job: JobView }>;
  final?: JobView;
  /** The job as last read when it showed a state outside the documented four (polling ends there). */
  undocumented?: JobView;
  last: HttpResponse;
  /** A create job's results gave `event` as JSON text (decoded in place; see decodeResultEvents). */
  eventsAsText?: boolean;
}

/**
 * The document gives a create job result's `event` as "created event, or the input event on
 * failure" without saying whether it is an object or its JSON text: text that parses to an object
 * is replaced by the object, so every check reads the event the same way. Returns whether any was text.
 */
export function decodeResultEvents(job: unknown): boolean {
  const items = (job as { details?: { resultDescription?: unknown } } | undefined)?.details?.resultDescription;
  if (!Array.isArray(items)) return false;
  let text = decodedFromText.has(items);
  for (const item of items as Array<Record<string, unknown>>) {
    if (!item || typeof item !== 'object' || typeof item.event !== 'string') continue;
    try {
      const parsed: unknown = JSON.parse(item.event);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        item.event = parsed;
        text = true;
      }
    } catch {
      // Not JSON text: left as it is, for the checks to judge.
    }
  }
  if (text) decodedFromText.add(items);
  return text;
}

/** Result lists whose events were decoded from JSON text (a second decoding still says so). */
const decodedFromText = new WeakSet<object>();

/**
 * Polls a job's status until it is final or the deadline passes. A state outside the documented
 * ones ends the wait at once: nothing says it will ever change (the state rules judge it).
 */
export async function pollJob(
  sendFn: Sender,
  kind: 'create' | 'delete',
  id: string,
  as?: As,
  deadlineMs = session().context.jobDeadlineMs ?? JOB_DEADLINE_MS,
): Promise<JobTrace> {
  const path = `/${kind === 'create' ? 'createEventsJobs' : 'deleteEventsJobs'}/${encodeURIComponent(id)}`;
  const trace: JobTrace = { seen: [], last: undefined as unknown as HttpResponse };
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const res = await sendFn({ method: 'GET', path, as });
    trace.last = res;
    const job = body(res) as JobView;
    trace.seen.push({ status: res.status, job });
    if (res.status === 200 && (FINAL_STATES as readonly unknown[]).includes(job.state)) {
      if (kind === 'create' && decodeResultEvents(job)) trace.eventsAsText = true;
      trace.final = job;
      return trace;
    }
    if (res.status === 200 && !(NON_FINAL_STATES as readonly unknown[]).includes(job.state)) {
      trace.undocumented = job;
      return trace;
    }
    // A job not found yet may be a job not visible yet (for a while); anything else ends the wait.
    if (res.status !== 200 && (res.status !== 404 || Date.now() - started > VISIBILITY_DEADLINE_MS)) return trace;
    if (Date.now() - started >= deadlineMs) return trace;
    await sleep(Math.min(10 + attempt * 10, 100));
  }
}

/** Why the other-tenant half of a rule was not tried: the run has no principal of another tenant. */
export const NO_OTHER = 'the otherTenant principal is not configured, so the other-tenant case was not tried';

/**
 * The path (relative to the service's base path) a link points to, resolved against the target;
 * undefined when it is missing or points outside the service.
 */
export function servicePath(t: RuleContext, href: string | undefined): string | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, t.session.context.config.target);
  } catch {
    return undefined;
  }
  const base = SERVICE_INFO[SERVICE].basePath;
  const at = url.pathname.indexOf(base);
  return at < 0 ? undefined : `${url.pathname.slice(at + base.length)}${url.search}`;
}
