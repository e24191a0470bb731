import { operationScopes, requiredMembers } from '../contracts/facts.ts';
import type { ServiceName } from '../contracts/services.ts';
import { RESPONSE_CHECKS } from '../suites/engine/checks/response-checks.ts';
import type { ResponseCheck } from '../suites/engine/checks/response-check.ts';
import type { RecordedExchange } from './recorded-exchange.ts';

/** What a passive check found about one rule on one exchange. */
export interface PassiveVerdict {
  rule: string;
  ok: boolean;
  title: string;
  expected: string;
  received: string;
  /** The catalog reading the verdict rests on: when it does not hold, the rule gets a warning. */
  reading?: string;
}

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

function seen(x: RecordedExchange, max = 160): string {
  const body = x.text.length > max ? `${x.text.slice(0, max)}…` : x.text;
  return `HTTP ${x.status}${x.contentType ? ` ${x.contentType}` : ''}${body ? ` ${body}` : ''}`;
}

function where(x: RecordedExchange): string {
  return `${x.method} ${x.path}${x.testName ? ` (recorded in "${x.testName}")` : ''}`;
}

function verdict(rule: string, ok: boolean, x: RecordedExchange, title: string, expected: string): PassiveVerdict {
  return { rule, ok, title: `${title}: ${where(x)}`, expected, received: ok ? '' : seen(x) };
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
      return check
        .check({
          service: x.service,
          method: x.method,
          path: x.path,
          status: x.status,
          contentType: x.contentType,
          text: x.text,
          json: x.json,
          truncated: x.truncated,
        })
        .map((f) => ({ ...f, title: `${f.title}: ${where(x)}` }));
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
    if (x.service === 'technical-token-manager') {
      if (id === 'getUserTenantsByHost' && !x.hasAuthorization)
        return [
          verdict(
            'technical-token-manager/auth/user-tenants-token-required',
            x.status >= 400 && x.status < 500 && !/"userTenants"/.test(x.text),
            x,
            'GET /userTenants without Authorization was not refused',
            'a 4xx status and no tenant list',
          ),
        ];
      if ((id === 'getToken' || id === 'getOauthTokens') && x.requestHeaders['x-space-auth-key'] === undefined)
        return [
          verdict(
            'technical-token-manager/auth/space-auth-key-required',
            x.status >= 400 && x.status < 500 && !/"access_token"/.test(x.text),
            x,
            'token operation without X-SPACE-AUTH-KEY was not refused',
            'a 4xx status and no token',
          ),
        ];
      return [];
    }
    const auth = x.requestHeaders.authorization;
    if (auth !== undefined && auth.trim() !== 'Bearer' && auth.trim() !== '') return [];
    if (x.service === 'event-management')
      return [
        verdict('event-management/auth/unauthorized-401', x.status === 401, x, 'no token was not refused', 'HTTP 401'),
      ];
    return [verdict('notification/auth/token-required', x.status === 401, x, 'no token was not refused', 'HTTP 401')];
  },
};

interface ScopeRule {
  rule: string;
  ops: readonly string[];
  /** The token lacks the scope the rule names (any one of them, or with `all` every one). */
  lacks: readonly string[];
  all?: boolean;
  statuses: (s: number) => boolean;
  /** Scopes the operation must not ask for: a token with `lacks` but without these is not refused. */
  notRequired?: readonly string[];
}

const is403 = (s: number) => s === 403;
const is4xx = (s: number) => s >= 400 && s < 500; // not a contract bound: an HTTP status class

/**
 * An event management operation's scope rule is judged on the scopes the catalog names for it: the
 * first the contract lists, and a job operation's own create scope ("without em.d or without
 * em.dej.c"); the event type scope an event operation also lists is not.
 */
const emScopesJudged = (operationId: string) =>
  operationScopes('event-management', operationId).filter((s, i) => i === 0 || /^em\.(dej|cej)\.c$/.test(s));

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
  statuses: is403,
  ...more,
});

const SCOPE_RULES: ScopeRule[] = [
  ...Object.entries(EM_SCOPE_OPERATIONS).map(([slug, op]): ScopeRule => ({
    rule: `event-management/auth/${slug}`,
    ops: [op],
    lacks: emScopesJudged(op),
    statuses: is403,
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
  listedScopes('technical-token-manager/auth/user-tenants-scope', ['getUserTenantsByHost'], { statuses: is4xx }),
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
    const out: PassiveVerdict[] = [];
    for (const r of rules) {
      const lacking = r.all ? r.lacks.every((s) => !scopes.has(s)) : r.lacks.some((s) => !scopes.has(s));
      const without = r.notRequired?.filter((s) => !scopes.has(s)) ?? [];
      if (!lacking && without.length) {
        out.push(
          verdict(
            r.rule,
            x.status !== 403 && x.status !== 401,
            x,
            `a token without ${without.join(', ')} (which the operation does not need) was refused`,
            'neither 401 nor 403',
          ),
        );
        continue;
      }
      if (!lacking) continue;
      const missing = r.lacks.filter((s) => !scopes.has(s)).join(', ');
      out.push(
        verdict(
          r.rule,
          r.statuses(x.status),
          x,
          `token without ${missing} was not refused`,
          r.statuses === is403 ? 'HTTP 403' : 'a 4xx status',
        ),
      );
      if (x.service === 'event-management')
        out.push(
          verdict(
            'event-management/auth/forbidden-403',
            x.status === 403 && (x.truncated || Array.isArray(x.json)),
            x,
            `token without ${missing} was not refused with 403 and the error body`,
            'HTTP 403 with the error body (an array)',
          ),
        );
    }
    return out;
  },
};

// ---------------------------------------------------------------- event management responses

const EVENT_FIELDS = requiredMembers('event-management', '#/components/schemas/EventResponse');
const TYPE_FIELDS = requiredMembers('event-management', '#/components/schemas/EventTypeResponse');

function missingFields(item: unknown, fields: readonly string[]): string[] {
  if (!item || typeof item !== 'object') return [...fields];
  return fields.filter((f) => !(f in item));
}

const emRequiredFields: PassiveCheck = {
  name: 'events and event types carry their required fields',
  rules: ['event-management/events/response-required-fields', 'event-management/event-types/response-required-fields'],
  judge(x) {
    const id = op(x);
    if (x.service !== 'event-management' || x.status < 200 || x.status > 201 || x.json === undefined) return [];
    const check = (rule: string, items: unknown[], fields: readonly string[]) =>
      items.map((item) => {
        const missing = missingFields(item, fields);
        return verdict(
          rule,
          missing.length === 0,
          x,
          `response item lacks ${missing.join(', ')}`,
          `every item with ${fields.join(', ')}`,
        );
      });
    const embedded = (key: string) => {
      const e = (x.json as { _embedded?: Record<string, unknown> })._embedded?.[key];
      return Array.isArray(e) ? (e as unknown[]) : [];
    };
    if (id === 'createEvent' || id === 'getEvent' || id === 'updateEvent')
      return check('event-management/events/response-required-fields', [x.json], EVENT_FIELDS);
    if (id === 'queryEvents')
      return check('event-management/events/response-required-fields', embedded('events'), EVENT_FIELDS);
    if (id === 'createEventType' || id === 'getEventType' || id === 'patchEventType')
      return check('event-management/event-types/response-required-fields', [x.json], TYPE_FIELDS);
    if (id === 'queryEventTypes')
      return check('event-management/event-types/response-required-fields', embedded('eventTypes'), TYPE_FIELDS);
    return [];
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
    return [
      verdict(
        IF_MATCH_RULES[id],
        x.status === 400,
        x,
        `a write with ${ifMatch === undefined ? 'no If-Match' : `If-Match ${ifMatch}`} was not rejected`,
        'HTTP 400',
      ),
    ];
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
    const out: PassiveVerdict[] = [];
    const isWrite = id === 'updateEvent' || id === 'patchEventType' || id === 'deleteEventType';
    if (isWrite) noteWrite(x, state);
    const list = writesOf(state).get(key) ?? [];
    // Another write of the same resource overlapping this exchange: the order is not known.
    const overlapped = list.some((w) => w.index !== x.index && w.start <= x.endedAt && w.end >= x.startedAt);
    const bodyEtag = (x.json as { etag?: unknown } | undefined)?.etag;
    const current = typeof bodyEtag === 'number' ? bodyEtag : etagValue(x.responseHeaders.etag);
    const ifMatch = etagValue(x.requestHeaders['if-match']);
    if (isWrite && ifMatch !== undefined && last && last.at <= x.startedAt && !overlapped && ifMatch !== last.etag) {
      const rule =
        id === 'updateEvent'
          ? 'event-management/etags/update-event-stale-412'
          : id === 'patchEventType'
            ? 'event-management/etags/patch-event-type-stale-412'
            : 'event-management/etags/delete-event-type-stale-409';
      const expected = id === 'deleteEventType' ? 409 : 412;
      if (x.status !== 401 && x.status !== 403 && x.status !== 404)
        out.push(
          verdict(
            rule,
            x.status === expected,
            x,
            `If-Match ${ifMatch} differs from the current etag ${last.etag} and was not refused`,
            `HTTP ${expected}`,
          ),
        );
    }
    if (x.status >= 200 && x.status < 300 && x.json !== undefined && id !== 'deleteEventType')
      out.push(
        verdict(
          isEvent ? 'event-management/events/etag-counter' : 'event-management/etags/event-type-etag-counter',
          Number.isInteger(bodyEtag),
          x,
          `etag ${JSON.stringify(bodyEtag)} is not an integer`,
          'an integer etag',
        ),
      );
    if (
      (id === 'updateEvent' || id === 'patchEventType') &&
      x.status === 200 &&
      current !== undefined &&
      last &&
      !overlapped
    ) {
      out.push(
        verdict(
          id === 'updateEvent'
            ? 'event-management/events/etag-counter'
            : 'event-management/etags/event-type-etag-counter',
          current > last.etag,
          x,
          `a successful change did not increase the etag (was ${last.etag}, now ${current})`,
          `an etag greater than ${last.etag}`,
        ),
      );
    }
    // A change whose order among overlapping writes is unknown leaves the current etag unknown.
    if (x.status >= 200 && x.status < 300 && isWrite && overlapped) state.delete(key);
    else if (x.status >= 200 && x.status < 300 && current !== undefined && !overlapped)
      state.set(key, { etag: current, at: x.endedAt });
    if (id === 'deleteEventType' && x.status < 300) state.delete(key);
    return out;
  },
};

// ---------------------------------------------------------------- jobs and pages

const FINAL = new Set(['FINISHED', 'FINISHED_WITH_ERROR']);

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
    const out: PassiveVerdict[] = [];
    const ended = state.get(key) as (Seen & { state: string }) | undefined;
    if (ended && ended.at <= x.startedAt)
      out.push(
        verdict(
          'event-management/jobs/final-state-kept',
          job.state === ended.state,
          x,
          `a job seen ${ended.state} was later read as ${job.state}`,
          `state ${ended.state}`,
        ),
      );
    if (FINAL.has(job.state)) {
      out.push(
        verdict(
          'event-management/jobs/details-in-final-states',
          job.details !== undefined && job.details !== null,
          x,
          `a ${job.state} job without details`,
          'details',
        ),
      );
      if (!ended) state.set(key, { etag: 0, at: x.endedAt, state: job.state });
    }
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
    if (!page)
      return [verdict('event-management/queries/page-object', false, x, 'query answer without page', 'a page object')];
    const ints = ['size', 'totalElements', 'totalPages', 'number'].every((k) => Number.isInteger(page[k]));
    const size = Number(page.size);
    const total = Number(page.totalElements);
    const coherent =
      ints &&
      (x.query.get('size') === null || Number(x.query.get('size')) === size) &&
      (x.query.get('page') === null || Number(x.query.get('page')) === page.number) &&
      (size > 0 ? Number(page.totalPages) === Math.ceil(total / size) : true);
    return [
      verdict(
        'event-management/queries/page-object',
        coherent,
        x,
        `page ${JSON.stringify(page)} does not describe the query`,
        'integer size (as requested), totalElements, totalPages = ceil(totalElements/size), number (as requested)',
      ),
    ];
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
    return [
      verdict(
        'technical-token-manager/page/field-types',
        ok,
        x,
        'page fields are not non-negative integers',
        'page {size, totalElements, totalPages, number} as non-negative integers',
      ),
    ];
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
