import { judgedScopes, operationScopes } from '../contracts/facts.ts';
import type { ServiceName } from '../contracts/services.ts';
import {
  authAccepted,
  IF_MATCH_MISSING,
  LISTED_SCOPE_NEEDED,
  hasMembers,
  hasRequiredMembers,
  holds,
  jobProgressed,
  missingCredentialsRejected,
  missingScopeRejected,
  refused,
  RESPONSE_CHECKS,
} from '../suites/engine/checks/index.ts';
import { findingsOf } from '../suites/engine/checks/findings-of.ts';
import { answerOf, type Finding, type ResponseCheck } from '../suites/engine/checks/response-check.ts';
import type { RuleContext } from '../suites/engine/rule-test.ts';
import { responseOf, type RecordedExchange } from './recorded-exchange.ts';

/**
 * What a passive check found about one rule on one exchange: a finding, as the response checks and
 * the words give it (its reading, its severity), its title naming the exchange.
 */
export type PassiveVerdict = Finding;

/**
 * A check judged on recorded traffic alone: it sees every exchange in the order they were sent
 * and keeps what it needs of the sequence (ETags, job states) in its own `state`.
 */
export interface PassiveCheck {
  name: string;
  rules: readonly string[];
  judge(x: RecordedExchange, state: Map<string, unknown>): PassiveVerdict[];
  /** Sees every exchange before the first is judged, when the whole traffic is at hand (a HAR file). */
  prescan?(x: RecordedExchange, state: Map<string, unknown>): void;
}

function where(x: RecordedExchange): string {
  return `${x.method} ${x.path}${x.testName ? ` (recorded in "${x.testName}")` : ''}`;
}

/** Findings on `x` as verdicts, each title naming the exchange. */
function at(x: RecordedExchange, found: readonly PassiveVerdict[]): PassiveVerdict[] {
  return found.map((f) => ({ ...f, title: `${f.title}: ${where(x)}` }));
}

/**
 * What words of the check vocabulary judged on `x`: the audit judges a rule with the words the
 * suites judge it with, wherever it is the same judgement.
 */
function judgedBy(x: RecordedExchange, call: (t: RuleContext) => unknown): PassiveVerdict[] {
  return at(x, findingsOf(call));
}

/** Answered by the service (not a transport error, not throttled). */
function answered(x: RecordedExchange): boolean {
  return x.status > 0 && x.status !== 429 && !x.error;
}

function op(x: RecordedExchange): string | undefined {
  return x.op?.operationId;
}

/** An integer entity tag (`"3"`, `3`, `W/"3"`), or undefined. */
function etagValue(value: string | undefined): number | undefined {
  const m = /^\s*(?:W\/)?"?(-?\d+)"?\s*$/.exec(value ?? '');
  return m ? Number(m[1]) : undefined;
}

/**
 * A check of the suites' registry that judges one response on its own, run on a recorded exchange:
 * the same function judges the traffic a run sends and the traffic an audit reads.
 */
function fromRegistry(check: ResponseCheck): PassiveCheck {
  return {
    name: check.title,
    rules: check.rules,
    judge(x) {
      if (x.status === 0 || x.error) return [];
      const { service, method, path, status, contentType, text, json, truncated } = x;
      const found = check.check({ service, method, path, status, contentType, text, json, truncated });
      return at(x, found).map((v) => ({ ...v, severity: check.severity }));
    },
  };
}

// ---------------------------------------------------------------- credentials and scopes

const noCredentials: PassiveCheck = {
  name: 'request without credentials is refused',
  rules: [
    'event-management/auth/unauthorized-401',
    'notification/auth/token-required',
    'technical-token-manager/auth/user-tenants-token-required',
    'technical-token-manager/auth/space-auth-key-required',
  ],
  judge(x) {
    if (!answered(x) || !x.op) return [];
    const id = x.op.operationId;
    const res = responseOf(x);
    if (x.service === 'technical-token-manager') {
      if (id === 'getUserTenantsByHost' && !x.hasAuthorization)
        return judgedBy(x, (t) =>
          refused(t, {
            rule: 'technical-token-manager/auth/user-tenants-token-required',
            res,
            what: 'GET /userTenants without Authorization',
            anyClientError: true,
            withheld: (r) => (/"userTenants"/.test(r.text) ? 'a tenant list' : undefined),
          }),
        );
      // Credentials in another header (Authorization: Basic) are an open point the suites only observe.
      if (
        (id === 'getToken' || id === 'getOauthTokens') &&
        x.requestHeaders['x-space-auth-key'] === undefined &&
        !x.hasAuthorization
      )
        return judgedBy(x, (t) =>
          refused(t, {
            rule: 'technical-token-manager/auth/space-auth-key-required',
            res,
            what: 'a token operation without X-SPACE-AUTH-KEY',
            anyClientError: true,
            withheld: (r) => (/"access_token"/.test(r.text) ? 'a token' : undefined),
          }),
        );
      return [];
    }
    const auth = x.requestHeaders.authorization;
    if (auth !== undefined && auth.trim() !== 'Bearer' && auth.trim() !== '') return [];
    if (x.service === 'event-management')
      return judgedBy(x, (t) => missingCredentialsRejected(t, 'event-management/auth/unauthorized-401', res));
    return judgedBy(x, (t) => missingCredentialsRejected(t, 'notification/auth/token-required', res));
  },
};

interface ScopeRule {
  rule: string;
  ops: readonly string[];
  /** The token lacks the scope the rule names (any one of them, or with `all` every one). */
  lacks: readonly string[];
  all?: boolean;
  /** Any 4xx refuses it (403 unless told). */
  anyClientError?: boolean;
  /** Scopes the operation must not ask for: a token with `lacks` but without these is not refused. */
  notRequired?: readonly string[];
}

/** The operations of event management's Authentication table, by the slug of their scope rule. */
const EM_SCOPE_OPERATIONS: Record<string, string> = {
  'scopes-get-info': 'getInfo',
  'scopes-create-event': 'createEvent',
  'scopes-query-events': 'queryEvents',
  'scopes-get-event': 'getEvent',
  'scopes-update-event': 'updateEvent',
  'scopes-create-event-type': 'createEventType',
  'scopes-query-event-types': 'queryEventTypes',
  'scopes-get-event-type': 'getEventType',
  'scopes-patch-event-type': 'patchEventType',
  'scopes-delete-event-type': 'deleteEventType',
  'scopes-create-delete-job': 'createDeleteEventsJob',
  'scopes-get-delete-job': 'getDeleteEventsJob',
  'scopes-create-create-job': 'createCreateEventsJob',
  'scopes-get-create-job': 'getCreateEventsJob',
};

/** A rule on the scopes the contract lists for its operations (the first operation's). */
const listedScopes = (rule: string, ops: string[], more: Partial<ScopeRule> = {}): ScopeRule => ({
  rule,
  ops,
  lacks: operationScopes(rule.split('/')[0] as ServiceName, ops[0]),
  ...more,
});

const SCOPE_RULES: ScopeRule[] = [
  ...Object.entries(EM_SCOPE_OPERATIONS).map(([slug, op]): ScopeRule => ({
    rule: `event-management/auth/${slug}`,
    ops: [op],
    lacks: judgedScopes(op),
  })),
  listedScopes('notification/auth/scope-send', ['publishMessage', 'broadcastEmail']),
  // "DELETE lists nose.ac only": a token without nose.se is not refused for it.
  listedScopes('notification/auth/scope-delete-bounced', ['deleteBouncedEmails'], { notRequired: ['nose.se'] }),
  listedScopes(
    'notification/auth/scope-both-listed',
    ['getCommunicationCategory', 'listBouncedEmails', 'updateCertificate'],
    {
      all: true,
    },
  ),
  listedScopes('technical-token-manager/auth/user-tenants-scope', ['getUserTenantsByHost'], { anyClientError: true }),
];

// Every other notification operation asks for nose.ac (the scopes table's last row: scope-admin).
const NOTIFICATION_NAMED = new Set(SCOPE_RULES.filter((r) => r.rule.startsWith('notification/')).flatMap((r) => r.ops));

const missingScope: PassiveCheck = {
  name: 'token without the operation scope is refused',
  rules: [...SCOPE_RULES.map((r) => r.rule), 'notification/auth/scope-admin', 'event-management/auth/forbidden-403'],
  judge(x) {
    if (!answered(x) || !x.op || !x.scopes) return [];
    // An expired token may be refused with 401 before its scopes are looked at.
    const exp = x.claims?.exp;
    if (x.status === 401 && typeof exp === 'number' && exp * 1000 < x.startedAt) return [];
    const id = x.op.operationId;
    const scopes = x.scopes;
    const rules = SCOPE_RULES.filter((r) => r.ops.includes(id));
    if (x.service === 'notification' && !NOTIFICATION_NAMED.has(id))
      rules.push(listedScopes('notification/auth/scope-admin', [id]));
    const res = responseOf(x);
    return judgedBy(x, (t) => {
      for (const r of rules) {
        const lacking = r.all ? r.lacks.every((s) => !scopes.has(s)) : r.lacks.some((s) => !scopes.has(s));
        const without = r.notRequired?.filter((s) => !scopes.has(s)) ?? [];
        if (!lacking && without.length)
          authAccepted(t, {
            rule: r.rule,
            res,
            what: `a token without ${without.join(', ')}, which the operation does not need`,
          });
        if (!lacking) continue;
        const missing = r.lacks.filter((s) => !scopes.has(s)).join(', ');
        // Where an event management operation lists several scopes, a refusal without one of them
        // rests on a reading, and a 403's body is judged only where it was refused, as in the suites.
        const several = x.service === 'event-management' && operationScopes(x.service, id).length > 1;
        if (r.anyClientError)
          refused(t, { rule: r.rule, res, what: `a token without ${missing}`, anyClientError: true });
        else missingScopeRejected(t, r.rule, res, missing, several ? LISTED_SCOPE_NEEDED : undefined);
        if (x.service === 'event-management' && (!several || x.status === 403))
          holds(t, {
            rule: 'event-management/auth/forbidden-403',
            ok: x.status === 403 && (x.truncated || Array.isArray(x.json)),
            failure: `token without ${missing} was not refused with 403 and the error body`,
            expected: 'HTTP 403 with the error body (an array)',
            received: () => answerOf(x),
          });
      }
    });
  },
};

// ---------------------------------------------------------------- event management responses

/** What events and event types answered carry, judged with the members their schema requires. */
const ANSWERED_ITEMS = {
  event: {
    rule: 'event-management/events/response-required-fields',
    schema: '#/components/schemas/EventResponse',
    what: 'an event answered',
    embedded: 'events',
  },
  eventType: {
    rule: 'event-management/event-types/response-required-fields',
    schema: '#/components/schemas/EventTypeResponse',
    what: 'an event type answered',
    embedded: 'eventTypes',
  },
} as const;

/** The operations that answer one event or event type, or (`query`) a page of them. */
const ITEMS_OF: Record<string, { kind: keyof typeof ANSWERED_ITEMS; query?: true }> = {
  createEvent: { kind: 'event' },
  getEvent: { kind: 'event' },
  updateEvent: { kind: 'event' },
  queryEvents: { kind: 'event', query: true },
  createEventType: { kind: 'eventType' },
  getEventType: { kind: 'eventType' },
  patchEventType: { kind: 'eventType' },
  queryEventTypes: { kind: 'eventType', query: true },
};

const emRequiredFields: PassiveCheck = {
  name: 'events and event types carry their required fields',
  rules: ['event-management/events/response-required-fields', 'event-management/event-types/response-required-fields'],
  judge(x) {
    const of = ITEMS_OF[op(x) ?? ''];
    if (x.service !== 'event-management' || x.status < 200 || x.status > 201 || x.json === undefined || !of) return [];
    const { embedded, ...judged } = ANSWERED_ITEMS[of.kind];
    const listed = of.query && (x.json as { _embedded?: Record<string, unknown> })._embedded?.[embedded];
    const items = !of.query ? [x.json] : Array.isArray(listed) ? (listed as unknown[]) : [];
    // The audit judges that each member is there, a null one too.
    return judgedBy(x, (t) => {
      for (const value of items)
        hasRequiredMembers(t, {
          ...judged,
          service: 'event-management',
          value: value as Record<string, unknown> | undefined,
          nullIsPresent: true,
        });
    });
  },
};

const IF_MATCH_RULES: Record<string, string> = {
  updateEvent: 'event-management/etags/update-event-if-match-required',
  patchEventType: 'event-management/etags/patch-event-type-if-match-required',
  deleteEventType: 'event-management/etags/delete-event-type-if-match-required',
};

const ifMatchRequired: PassiveCheck = {
  name: 'a write without an integer If-Match is rejected with 400',
  rules: Object.values(IF_MATCH_RULES),
  judge(x) {
    const id = op(x);
    if (x.service !== 'event-management' || !id || !IF_MATCH_RULES[id] || !answered(x)) return [];
    if (x.status === 401 || x.status === 403) return [];
    const ifMatch = x.requestHeaders['if-match'];
    if (ifMatch !== undefined && etagValue(ifMatch) !== undefined) return [];
    return judgedBy(x, (t) =>
      refused(t, {
        rule: IF_MATCH_RULES[id],
        res: responseOf(x),
        what: `a write with ${ifMatch === undefined ? 'no If-Match' : `If-Match ${ifMatch}`}`,
        ...IF_MATCH_MISSING,
      }),
    );
  },
};

interface Seen {
  etag: number;
  at: number;
}

/**
 * What the traffic shows of each event's and event type's etag: the latest value seen in an
 * answer, and when it was seen. A write that overlaps another write of the same resource is not
 * judged (the order the service applied them in is not in the traffic).
 */
function writesOf(state: Map<string, unknown>): Map<string, Array<{ start: number; end: number; index: number }>> {
  let w = state.get('writes') as Map<string, Array<{ start: number; end: number; index: number }>> | undefined;
  if (!w) state.set('writes', (w = new Map()));
  return w;
}

function noteWrite(x: RecordedExchange, state: Map<string, unknown>): void {
  const key = `${x.op?.operationId === 'updateEvent' ? 'event' : 'type'}|${x.pathParams.eventId ?? x.pathParams.eventTypeId ?? ''}`;
  const list = writesOf(state).get(key) ?? [];
  if (!list.some((w) => w.index === x.index)) list.push({ start: x.startedAt, end: x.endedAt, index: x.index });
  writesOf(state).set(key, list);
}

const etagSequence: PassiveCheck = {
  prescan(x, state) {
    const id = op(x);
    if (
      x.service === 'event-management' &&
      (id === 'updateEvent' || id === 'patchEventType' || id === 'deleteEventType')
    )
      noteWrite(x, state);
  },
  name: 'ETags change only on a successful change; a stale If-Match is refused',
  rules: [
    'event-management/events/etag-counter',
    'event-management/etags/event-type-etag-counter',
    'event-management/etags/update-event-stale-412',
    'event-management/etags/patch-event-type-stale-412',
    'event-management/etags/delete-event-type-stale-409',
  ],
  judge(x, state) {
    const id = op(x);
    if (x.service !== 'event-management' || !id || !answered(x)) return [];
    const isEvent = ['createEvent', 'getEvent', 'updateEvent'].includes(id);
    const isType = ['createEventType', 'getEventType', 'patchEventType', 'deleteEventType'].includes(id);
    if (!isEvent && !isType) return [];
    const rid =
      id === 'createEvent' || id === 'createEventType'
        ? (((x.json as { id?: unknown } | undefined)?.id as string | undefined) ?? '')
        : (x.pathParams.eventId ?? x.pathParams.eventTypeId ?? '');
    if (!rid) return [];
    const key = `${isEvent ? 'event' : 'type'}|${rid}`;
    const last = state.get(key) as Seen | undefined;
    const isWrite = id === 'updateEvent' || id === 'patchEventType' || id === 'deleteEventType';
    if (isWrite) noteWrite(x, state);
    const list = writesOf(state).get(key) ?? [];
    // Another write of the same resource overlapping this exchange: the order is not known.
    const overlapped = list.some((w) => w.index !== x.index && w.start <= x.endedAt && w.end >= x.startedAt);
    const bodyEtag = (x.json as { etag?: unknown } | undefined)?.etag;
    const current = typeof bodyEtag === 'number' ? bodyEtag : etagValue(x.responseHeaders.etag);
    const ifMatch = etagValue(x.requestHeaders['if-match']);
    const counter = isEvent ? 'event-management/events/etag-counter' : 'event-management/etags/event-type-etag-counter';
    const out = judgedBy(x, (t) => {
      if (isWrite && ifMatch !== undefined && last && last.at <= x.startedAt && !overlapped && ifMatch !== last.etag) {
        const rule =
          id === 'updateEvent'
            ? 'event-management/etags/update-event-stale-412'
            : id === 'patchEventType'
              ? 'event-management/etags/patch-event-type-stale-412'
              : 'event-management/etags/delete-event-type-stale-409';
        if (x.status !== 401 && x.status !== 403 && x.status !== 404)
          refused(t, {
            rule,
            res: responseOf(x),
            what: `If-Match ${ifMatch}, other than the current etag ${last.etag}`,
            statuses: [id === 'deleteEventType' ? 409 : 412],
          });
      }
      if (x.status >= 200 && x.status < 300 && x.json !== undefined && id !== 'deleteEventType')
        hasMembers(t, {
          rule: counter,
          what: isEvent ? 'an event answered' : 'an event type answered',
          value: x.json,
          members: { etag: Number.isInteger },
        });
      if (
        (id === 'updateEvent' || id === 'patchEventType') &&
        x.status === 200 &&
        current !== undefined &&
        last &&
        !overlapped
      )
        holds(t, {
          rule: counter,
          ok: current > last.etag,
          failure: `a successful change did not increase the etag (was ${last.etag}, now ${current})`,
          expected: `an etag greater than ${last.etag}`,
          received: () => answerOf(x),
        });
    });
    // A change whose order among overlapping writes is unknown leaves the current etag unknown.
    if (x.status >= 200 && x.status < 300 && isWrite && overlapped) state.delete(key);
    else if (x.status >= 200 && x.status < 300 && current !== undefined && !overlapped)
      state.set(key, { etag: current, at: x.endedAt });
    if (id === 'deleteEventType' && x.status < 300) state.delete(key);
    return out;
  },
};

// ---------------------------------------------------------------- jobs and pages

const FINAL = ['FINISHED', 'FINISHED_WITH_ERROR'];

const jobStates: PassiveCheck = {
  name: 'a job that has ended stays ended, with details',
  rules: ['event-management/jobs/final-state-kept', 'event-management/jobs/details-in-final-states'],
  judge(x, state) {
    const id = op(x);
    if (x.service !== 'event-management' || x.status !== 200) return [];
    if (id !== 'getCreateEventsJob' && id !== 'getDeleteEventsJob') return [];
    const job = x.json as { id?: string; state?: string; details?: unknown } | undefined;
    if (!job || typeof job.state !== 'string') return [];
    const key = `${id}|${x.pathParams.id ?? job.id ?? ''}`;
    const ended = state.get(key) as (Seen & { state: string }) | undefined;
    // Only the first final state read is kept: what the traffic shows of the job before it is not
    // its whole history, so the states' order is not judged.
    const out = judgedBy(x, (t) =>
      jobProgressed(t, {
        finalRule: 'event-management/jobs/final-state-kept',
        detailsRule: 'event-management/jobs/details-in-final-states',
        what: 'a job',
        states: FINAL,
        final: FINAL,
        before: ended && ended.at <= x.startedAt ? [ended.state] : [],
        job,
      }),
    );
    if (FINAL.includes(job.state) && !ended) state.set(key, { etag: 0, at: x.endedAt, state: job.state });
    return out;
  },
};

const emPageObject: PassiveCheck = {
  name: 'query page object describes the answer',
  rules: ['event-management/queries/page-object'],
  judge(x) {
    const id = op(x);
    if (x.service !== 'event-management' || x.status !== 200) return [];
    if (id !== 'queryEvents' && id !== 'queryEventTypes') return [];
    if (x.truncated || x.json === undefined) return [];
    const page = (x.json as { page?: Record<string, unknown> } | undefined)?.page;
    const pg = page ?? {};
    const ints = ['size', 'totalElements', 'totalPages', 'number'].every((k) => Number.isInteger(pg[k]));
    const size = Number(pg.size);
    const total = Number(pg.totalElements);
    const coherent =
      ints &&
      (x.query.get('size') === null || Number(x.query.get('size')) === size) &&
      (x.query.get('page') === null || Number(x.query.get('page')) === pg.number) &&
      (size > 0 ? Number(pg.totalPages) === Math.ceil(total / size) : true);
    return judgedBy(x, (t) =>
      holds(t, {
        rule: 'event-management/queries/page-object',
        ok: !!page && coherent,
        failure: page ? `page ${JSON.stringify(page)} does not describe the query` : 'query answer without page',
        expected:
          'a page object: integer size (as requested), totalElements, totalPages = ceil(totalElements/size), number (as requested)',
        received: () => answerOf(x),
      }),
    );
  },
};

const ttmPageFields: PassiveCheck = {
  name: 'user tenant page fields are non-negative integers',
  rules: ['technical-token-manager/page/field-types'],
  judge(x) {
    if (op(x) !== 'getUserTenantsByHost' || x.status !== 200 || x.json === undefined) return [];
    const page = (x.json as { page?: Record<string, unknown> }).page;
    const ok =
      !!page &&
      ['size', 'totalElements', 'totalPages', 'number'].every(
        (k) => Number.isInteger(page[k]) && (page[k] as number) >= 0,
      );
    return judgedBy(x, (t) =>
      holds(t, {
        rule: 'technical-token-manager/page/field-types',
        ok,
        failure: 'page fields are not non-negative integers',
        expected: 'page {size, totalElements, totalPages, number} as non-negative integers',
        received: () => answerOf(x),
      }),
    );
  },
};

/** Every passive check, in the order they judge an exchange. */
export const PASSIVE_CHECKS: readonly PassiveCheck[] = [
  noCredentials,
  missingScope,
  ...RESPONSE_CHECKS.map(fromRegistry),
  emRequiredFields,
  ifMatchRequired,
  etagSequence,
  jobStates,
  emPageObject,
  ttmPageFields,
];

/** The rules some passive check judges. */
export function passiveRuleIds(): Set<string> {
  return new Set(PASSIVE_CHECKS.flatMap((c) => c.rules));
}
