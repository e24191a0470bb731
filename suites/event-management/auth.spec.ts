import { randomUUID } from 'node:crypto';
import { contractNode, judgedScopes, operationScopes } from '../../contracts/facts.ts';
import { holds, LISTED_SCOPE_NEEDED, missingScopeRejected, refused } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import type { ConfigKey } from '../engine/config-needs.ts';
import { eq } from '../engine/filter-expression.ts';
import { emTest, send, seen, writtenFilter, type As } from './em-client.ts';
import { postCreateJob, postEvent, postType, putEvent, standardBody, typeBody } from './em-resources.ts';

/** One operation of the Endpoints table; `scopesOf` gives the scopes the contract lists for it. */
type Operation = {
  rule: string;
  operationId: string;
  /** The fixtures its request needs (the entities an event names). */
  needs?: ConfigKey[];
} & (
  | {
      /** A GET: the path it reads. */
      read: () => string;
    }
  | {
      /** Any other: sends it as a principal; creating operations go through the tracking helpers. */
      write: (t: RuleContext, as: As) => Promise<HttpResponse>;
    }
);

const unknownId = () => randomUUID();

/** The scopes an operation needs, in the contract's order (the document's Authentication table). */
const scopesOf = (op: Operation) => operationScopes('event-management', op.operationId);

/** How the contract names an operation: its method and path (`GET /events/{eventId}`). */
function nameOf(op: Operation): string {
  for (const [path, item] of Object.entries(contractNode('event-management', '#/paths')))
    for (const [method, o] of Object.entries(item as Record<string, { operationId?: string }>))
      if (o.operationId === op.operationId) return `${method.toUpperCase()} ${path}`;
  throw new Error(`the event-management contract has no operation ${op.operationId}`);
}

/** Sends an operation as a principal. */
const call = (t: RuleContext, op: Operation, as: As) =>
  'read' in op ? send(t, { method: 'GET', path: op.read(), as }) : op.write(t, as);

const OPERATIONS: Operation[] = [
  {
    rule: 'event-management/auth/scopes-get-info',
    operationId: 'getInfo',
    read: () => '/',
  },
  {
    needs: ['fixtures.eventManagement.entityIds'],
    rule: 'event-management/auth/scopes-create-event',
    operationId: 'createEvent',
    write: (t, as) => postEvent(t, standardBody(t), { as }),
  },
  {
    rule: 'event-management/auth/scopes-query-events',
    operationId: 'queryEvents',
    read: () => '/events',
  },
  {
    rule: 'event-management/auth/scopes-get-event',
    operationId: 'getEvent',
    read: () => `/events/${unknownId()}`,
  },
  {
    needs: ['fixtures.eventManagement.entityIds'],
    rule: 'event-management/auth/scopes-update-event',
    operationId: 'updateEvent',
    write: (t, as) => putEvent(t, unknownId(), '0', standardBody(t, { correlationId: unknownId() }), { as }),
  },
  {
    rule: 'event-management/auth/scopes-create-event-type',
    operationId: 'createEventType',
    write: (t, as) => postType(t, typeBody(t), { as }),
  },
  {
    rule: 'event-management/auth/scopes-query-event-types',
    operationId: 'queryEventTypes',
    read: () => '/eventTypes',
  },
  {
    rule: 'event-management/auth/scopes-get-event-type',
    operationId: 'getEventType',
    read: () => '/eventTypes/PlatformStandardEvent',
  },
  {
    rule: 'event-management/auth/scopes-patch-event-type',
    operationId: 'patchEventType',
    write: (t, as) =>
      send(t, {
        method: 'PATCH',
        path: `/eventTypes/${t.prefix}missing${unknownId().slice(0, 8)}`,
        headers: { 'If-Match': '0' },
        json: { op: 'replace', path: '/ttl', value: 30 },
        as,
      }),
  },
  {
    rule: 'event-management/auth/scopes-delete-event-type',
    operationId: 'deleteEventType',
    write: (t, as) =>
      send(t, {
        method: 'DELETE',
        path: `/eventTypes/${t.prefix}missing${unknownId().slice(0, 8)}`,
        headers: { 'If-Match': '0' },
        as,
      }),
  },
  {
    rule: 'event-management/auth/scopes-create-delete-job',
    operationId: 'createDeleteEventsJob',
    write: async (t, as) =>
      send(t, {
        method: 'POST',
        path: '/deleteEventsJobs',
        json: { filter: await writtenFilter(t, eq('typeId', `${t.prefix}nosuchtype`)) },
        as,
      }),
  },
  {
    rule: 'event-management/auth/scopes-get-delete-job',
    operationId: 'getDeleteEventsJob',
    read: () => `/deleteEventsJobs/${unknownId()}`,
  },
  {
    needs: ['fixtures.eventManagement.entityIds'],
    rule: 'event-management/auth/scopes-create-create-job',
    operationId: 'createCreateEventsJob',
    write: (t, as) => postCreateJob(t, [standardBody(t)], { as }),
  },
  {
    rule: 'event-management/auth/scopes-get-create-job',
    operationId: 'getCreateEventsJob',
    read: () => `/createEventsJobs/${unknownId()}`,
  },
];

/**
 * Scopes whose absence is tried: those the operation's scope rule judges (`judgedScopes`). Where an
 * operation lists one scope, its absence must be refused; where it lists several, the document
 * leaves open whether all are needed or any one suffices, so a refusal is our reading
 * (listed-scope-needed), and the remaining listed scopes are only observed.
 */
const enforced = (op: Operation) => judgedScopes(op.operationId);

emTest(
  ['event-management/auth/unauthorized-401'],
  'every operation answers 401 with the error body without a token and with a token that is not valid',
  async (t) => {
    for (const op of OPERATIONS) {
      const res = await call(t, op, null);
      refused(t, {
        rule: 'event-management/auth/unauthorized-401',
        res,
        what: `${nameOf(op)} without a token`,
        statuses: [401],
      });
    }
    for (const path of OPERATIONS.flatMap((op) => ('read' in op ? [op.read()] : []))) {
      const bogus = await t.send(
        { method: 'GET', path, headers: { authorization: 'Bearer not.a.valid-token' } },
        { as: null },
      );
      refused(t, {
        rule: 'event-management/auth/unauthorized-401',
        res: bogus,
        what: `GET ${path} with a malformed bearer token`,
        statuses: [401],
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 24 },
);

emTest(
  ['event-management/auth/forbidden-403'],
  'every operation answers 403 with the error body to a token granted none of the scopes',
  async (t) => {
    if (!t.session.tokens.has('noScopes'))
      t.needsPrincipal('principals.noScopes', 'principals.noScopes is not configured');
    for (const op of OPERATIONS) {
      const res = await call(t, op, 'noScopes');
      refused(t, {
        rule: 'event-management/auth/forbidden-403',
        res,
        what: `${nameOf(op)} to a token without scopes`,
        statuses: [403],
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds', 'principals.noScopes'], budget: 14 },
);

for (const op of OPERATIONS) {
  for (const scope of enforced(op)) {
    emTest(
      [op.rule, 'event-management/auth/forbidden-403'],
      `${nameOf(op)} answers 403 to a token without ${scope}`,
      async (t) => {
        const who = `without:${scope}` as const;
        if (!t.session.tokens.has(who))
          t.needsPrincipal(
            `principals.withoutScope["${scope}"]`,
            `principals.withoutScope["${scope}"] is not configured`,
          );
        const res = await call(t, op, who);
        // One scope listed alone is settled by the table; where several are listed, the document leaves
        // open whether any one suffices, so a refusal without one of them rests on our reading.
        const several = scopesOf(op).length > 1;
        missingScopeRejected(t, op.rule, res, `${scope} (${nameOf(op)})`, several ? LISTED_SCOPE_NEEDED : undefined);
        if (several && res.status !== 403) {
          // Served without it: then any one listed scope must suffice, so a token holding it but
          // lacking another listed scope is served too. A scope listed for the operation that is
          // neither needed nor enough breaks the table on every reading.
          const other = scopesOf(op)
            .filter((s) => s !== scope)
            .at(-1)!;
          const without = `without:${other}` as const;
          if (!t.session.tokens.has(without)) return;
          const res2 = await call(t, op, without);
          holds(t, {
            rule: op.rule,
            ok: res2.status !== 403 && res2.status !== 401,
            failure: `${nameOf(op)}: ${scope} is neither needed nor enough (served without it, refused with it but without ${other})`,
            expected: `HTTP 403 without ${scope}, or any listed scope enough`,
            received: `without ${scope}: HTTP ${res.status}; without ${other}: ${seen(res2)}`,
          });
          return;
        }
        holds(t, {
          rule: 'event-management/auth/forbidden-403',
          ok: Array.isArray(res.json),
          failure: `${nameOf(op)}: 403 without the error body`,
          expected: 'the error body',
          received: seen(res),
        });
      },
      {
        needs: [`principals.withoutScope["${scope}"]`, ...(op.needs ?? [])],
        budget: scopesOf(op).length > 1 ? 2 : 1,
        readOnly: 'read' in op,
      },
    );
  }
}

emTest(
  ['event-management/auth/all-scopes-required'],
  'whether an operation listing several scopes needs all of them (not documented)',
  async (t) => {
    const seenText: string[] = [];
    for (const op of OPERATIONS.filter((o) => scopesOf(o).length > 1)) {
      for (const scope of scopesOf(op).filter((s) => !enforced(op).includes(s))) {
        const who = `without:${scope}` as const;
        if (!t.session.tokens.has(who)) {
          seenText.push(`${nameOf(op)} without ${scope}: no such principal configured`);
          continue;
        }
        const res = await call(t, op, who);
        seenText.push(
          `${nameOf(op)} without ${scope}: HTTP ${res.status}${res.status === 403 ? ' (all listed scopes required)' : ' (not required)'}`,
        );
      }
    }
    t.observe('event-management/auth/all-scopes-required', seenText.join('; '));
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 6 },
);
