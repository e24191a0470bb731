import {
  accepted,
  formatted,
  holds,
  listed,
  notListed,
  refused,
  responseSchema,
  storedAsSent,
  UNKNOWN_REFUSAL,
  withCode,
} from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { entriesOf, searchAudit, type AuditEntry } from './audit-search.ts';
import {
  fixturesOf,
  homeTenant,
  isSendTime,
  notificationTest as test,
  poll,
  seen,
  send,
  UNKNOWN_ID,
} from './notification-client.ts';
import { createCategory, createRecipient } from './notification-resources.ts';
import { fieldValues } from '../engine/resources/index.ts';
import { broadcast, messageData } from './publishing-support.ts';

// A broadcast that is accepted mails every member of its audience on a real deployment: the suite
// broadcasts successfully once, to the tenant's admins only, and once more to a sub-tenant's members,
// and once to all, only where the configuration allows it (fixtures.notification.subTenantBroadcast,
// fixtures.notification.allBroadcast); every other
// case is refused before anything is sent (and uses tenantAdminsOnly too, should a deployment
// wrongly accept it).

/** A valid BroadcastEmailContent without a category. */
function content(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { body: { message: 'Conformance suite broadcast' }, from: t.prefix, subject: 'ConformanceBroadcast', ...over };
}

/** The audit entry of the broadcast of category `id` (waited for), and the search that found it. */
async function broadcastEntry(t: RuleContext, id: number): Promise<{ search: HttpResponse; entry?: AuditEntry }> {
  const search = await poll(
    () => searchAudit(t, { messageCategoryId: id }),
    (s) => s.status !== 200 || entriesOf(s).some((e) => e.messageCategoryId === id),
  );
  return { search, entry: entriesOf(search).find((e) => e.messageCategoryId === id) };
}

/** The email addresses an audit entry lists, in lower case. */
function addressesOf(x?: AuditEntry): Set<string> {
  return new Set(
    (Array.isArray(x?.emails) ? (x.emails as unknown[]) : [])
      .filter((e): e is string => typeof e === 'string')
      .map((e) => e.toLowerCase()),
  );
}

test(
  [
    'notification/broadcast/queued',
    'notification/broadcast/send-response-start-time',
    'notification/broadcast/send-response-status',
    'notification/broadcast/tenant-from-token',
    'notification/broadcast/category-recipients-ignored',
    'notification/broadcast/status-transitions',
    'notification/broadcast/tenant-admins-only',
  ],
  "a broadcast with a category and no tenantId answers a queued SendResponse and addresses the token's tenant, not the category's recipients",
  async (t) => {
    const r = await createRecipient(t);
    const { id } = await createCategory(t, { recipients: [{ position: 'TO', recipientId: r.id }] });
    const res = await broadcast(t, messageData({ body: {}, messageCategoryId: id, subject: 'ConformanceBroadcast' }));
    accepted(t, {
      rule: 'notification/broadcast/queued',
      res,
      what: 'a broadcast to the tenant admins',
      statuses: [200],
    });
    await responseSchema(t, 'notification/broadcast/send-response-status', res, 'broadcastEmail');
    const body = (res.json ?? {}) as { startTime?: unknown; status?: unknown };
    formatted(t, {
      rule: 'notification/broadcast/send-response-status',
      what: 'the SendResponse status',
      values: [body.status],
      format: 'queued, sending, sent or failed',
      is: (v) => ['queued', 'sending', 'sent', 'failed'].includes(v as string),
      soft: true,
    });
    formatted(t, {
      rule: 'notification/broadcast/queued',
      what: 'the status of a successful broadcast',
      values: [body.status],
      format: 'queued (or sending, sent)',
      is: (v) => ['queued', 'sending', 'sent'].includes(v as string),
      soft: true,
    });
    formatted(t, {
      rule: 'notification/broadcast/send-response-start-time',
      what: 'startTime',
      values: [body.startTime],
      format: 'HH:mm:ss-dd-MM-yyyy',
      is: isSendTime,
      soft: true,
    });
    const { search, entry } = await broadcastEntry(t, id);
    t.observe(
      'notification/broadcast/status-transitions',
      `SendResponse status ${JSON.stringify(body.status)}; audit entry status ${JSON.stringify(entry?.status)}`,
    );
    listed(t, {
      rule: 'notification/broadcast/tenant-from-token',
      res: search,
      what: "the broadcast's audit entry, by its category",
      items: [id],
      holds: (res, c) => entriesOf(res).some((e) => e.messageCategoryId === c),
      anyStatus: true,
    });
    const tenant = await homeTenant(t);
    if (!tenant)
      t.notExercised(
        'notification/broadcast/tenant-from-token',
        'the token names no tenant (static token without a ten claim): the broadcast tenant could not be compared',
      );
    else
      storedAsSent(t, {
        rule: 'notification/broadcast/tenant-from-token',
        what: "the broadcast, in the token's tenant",
        stored: entry,
        sent: { tenant },
        soft: true,
      });
    // "Broadcast success means the message is queued for dispatch via email": no SMS, no push.
    const none = (v: unknown) => Array.isArray(v) && v.length === 0;
    storedAsSent(t, {
      rule: 'notification/broadcast/queued',
      what: 'a broadcast, dispatched via email only (its audit entry)',
      stored: entry,
      sent: { smses: none, pushNotifications: none },
    });
    const emails = Array.isArray(entry!.emails) ? (entry!.emails as unknown[]) : [];
    // tenantAdminsOnly addresses the tenant's admins, whom only the configuration can name.
    const admins = (t.fixtures.notification as { tenantAdminEmails?: unknown } | undefined)?.tenantAdminEmails;
    if (Array.isArray(admins) && admins.length && admins.every((a) => typeof a === 'string')) {
      const want = new Set(admins.map((a: string) => a.toLowerCase()));
      // The entry may list its addresses as they are sent (the broadcast is only queued): every
      // admin is waited for; an address too many stays one.
      const later = await poll(
        async () => entriesOf(await searchAudit(t, { messageCategoryId: id })).find((e) => e.messageCategoryId === id),
        (x) => [...want].every((a) => addressesOf(x).has(a)),
      );
      const got = addressesOf(later ?? entry);
      storedAsSent(t, {
        rule: 'notification/broadcast/tenant-admins-only',
        what: 'the addresses of a tenantAdminsOnly broadcast, exactly the tenant admins',
        stored: { emails: [...got].sort().join(', ') },
        sent: { emails: [...want].sort().join(', ') },
        soft: true,
      });
    } else
      t.notExercised(
        'notification/broadcast/tenant-admins-only',
        'the configuration names no tenant admins (fixtures.notification.tenantAdminEmails), so whom the broadcast addressed could not be judged',
      );
    notListed(t, {
      rule: 'notification/broadcast/category-recipients-ignored',
      res: search,
      what: "the category's recipient, among the broadcast's addresses",
      items: [r.email],
      holds: (_, a) => emails.some((e) => typeof e === 'string' && e.toLowerCase() === String(a).toLowerCase()),
      anyStatus: true,
      soft: true,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 12 },
);

test(
  [
    'notification/broadcast/message-data-required',
    'notification/errors/code-invalid-request-body-property',
    'notification/errors/code-missing-request-body-property',
  ],
  'a broadcast without messageData, with a JSON body, or with a messageData that is not a JSON object is refused',
  async (t) => {
    refused(t, {
      rule: 'notification/broadcast/message-data-required',
      res: await broadcast(t, [{ name: 'other', value: 'x' }]),
      what: 'a form without messageData',
      ...withCode('missingRequestBodyProperty'),
    });
    // A JSON body is refused (document); 400 rather than 415 for it is our reading.
    refused(t, {
      rule: 'notification/broadcast/message-data-required',
      res: await send(t, {
        method: 'POST',
        path: '/broadcastEmails',
        query: { broadcastType: 'tenantAdminsOnly' },
        json: { messageData: content(t) },
      }),
      what: 'a JSON body',
      statuses: [400],
      statusReading: 'media-type-400',
    });
    await fieldValues(t, {
      rule: 'notification/broadcast/message-data-required',
      field: 'messageData',
      cases: ['not json', '[1,2]', '"text"', '{"body":'].map((value) => ({ value, valid: false })),
      send: (c) => broadcast(t, messageData(c.value)),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  { budget: 6 },
);

test(
  [
    'notification/broadcast/content-like-publish',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-no-match',
  ],
  'messageData follows the publish rules: body is mandatory, without a category from, subject and message, and a category must be one of the tenant',
  async (t) => {
    const without = (key: string) => {
      const c = content(t);
      delete c[key];
      return { value: c, valid: false, what: `messageData with no ${key}` };
    };
    await fieldValues(t, {
      rule: 'notification/broadcast/content-like-publish',
      field: 'messageData',
      cases: [
        ...['body', 'from', 'subject'].map(without),
        { value: content(t, { body: { name: 'x' } }), valid: false, what: 'messageData with no body.message' },
      ],
      send: (c) => broadcast(t, messageData(c.value)),
      refusal: () => withCode('missingRequestBodyProperty'),
    });
    // Complete otherwise (from, subject, message): only the unknown category can make it fail.
    refused(t, {
      rule: 'notification/broadcast/content-like-publish',
      res: await broadcast(t, messageData(content(t, { messageCategoryId: UNKNOWN_ID }))),
      what: `messageData with messageCategoryId ${UNKNOWN_ID}, no category of the tenant`,
      ...UNKNOWN_REFUSAL,
    });
  },
  { budget: 5 },
);

// The query parameters a broadcast requires: broadcastType always, subTenantId with subTenantMembersOnly.
test.each(
  [
    { rule: 'notification/broadcast/type-required', what: 'a broadcast without broadcastType', query: {} },
    {
      rule: 'notification/broadcast/sub-tenant-id-required',
      what: 'subTenantMembersOnly without subTenantId',
      query: { broadcastType: 'subTenantMembersOnly' },
    },
  ] as const,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-missing-parameter'],
    name: `${r.what} is refused`,
    options: { budget: 1 },
  }),
  async (t, r) => {
    refused(t, {
      rule: r.rule,
      res: await broadcast(t, messageData(content(t)), r.query),
      what: r.what,
      ...withCode('missingParameter'),
    });
  },
);

test(
  ['notification/broadcast/type-values', 'notification/errors/code-invalid-parameter'],
  'a broadcastType other than the four documented values is refused',
  async (t) => {
    await fieldValues(t, {
      rule: 'notification/broadcast/type-values',
      field: 'broadcastType',
      cases: ['everyone', 'tenantadminsonly', 'tenantMembers', 'ALL'].map((value) => ({
        value,
        valid: false,
        what: `broadcastType=${value}`,
      })),
      send: (c) => broadcast(t, messageData(content(t)), { broadcastType: c.value }),
      refusal: () => withCode('invalidParameter'),
    });
  },
  { budget: 4 },
);

test(
  ['notification/broadcast/queued', 'notification/broadcast/send-response-status'],
  'a broadcast without a category to the members of a configured sub-tenant (subTenantMembersOnly) is queued',
  async (t) => {
    // A real broadcast mails every member of the sub-tenant: sent only where the configuration
    // allows it (fixtures.notification.subTenantBroadcast, a test sub-tenant).
    const f = fixturesOf(t);
    if (f.subTenantBroadcast !== true || !f.subTenantId)
      t.needsConfiguration(
        'fixtures.notification.subTenantBroadcast',
        'fixtures.notification.subTenantBroadcast and subTenantId are not both set: the suite broadcasts to no sub-tenant unless told it may',
      );
    // "subTenantMembersOnly (all members including admins of the sub-tenant named by subTenantId)";
    // BroadcastEmailContent is PublishEmailContent without recipientsTo, whose messageCategoryId is optional.
    const res = await broadcast(t, messageData(content(t)), {
      broadcastType: 'subTenantMembersOnly',
      subTenantId: f.subTenantId,
    });
    const status = (res.json as { status?: unknown } | undefined)?.status;
    accepted(t, {
      rule: 'notification/broadcast/queued',
      res,
      what: `a broadcast to a configured sub-tenant (subTenantId ${f.subTenantId!}, no messageCategoryId)`,
      statuses: [200],
    });
    formatted(t, {
      rule: 'notification/broadcast/queued',
      what: 'the status of a broadcast to a configured sub-tenant',
      values: [status],
      format: 'queued (or sending, sent)',
      is: (v) => ['queued', 'sending', 'sent'].includes(v as string),
    });
  },
  { needs: ['fixtures.notification.subTenantBroadcast', 'fixtures.notification.subTenantId'], budget: 1 },
);

test(
  ['notification/broadcast/all'],
  'a broadcast with broadcastType=all addresses the admins of the tenant, who are members of it',
  async (t) => {
    // A real broadcast to all mails every member of the tenant and its sub-tenants: sent only where
    // the configuration allows it and names members it must reach (the tenant's admins).
    const f = fixturesOf(t);
    const admins = (t.fixtures.notification as { tenantAdminEmails?: unknown } | undefined)?.tenantAdminEmails;
    if (f.allBroadcast !== true)
      t.needsConfiguration(
        'fixtures.notification.allBroadcast',
        'fixtures.notification.allBroadcast is not set: the suite broadcasts to all members of the tenant unless told it may',
      );
    if (!Array.isArray(admins) || !admins.length || !admins.every((a) => typeof a === 'string'))
      t.needsConfiguration(
        'fixtures.notification.tenantAdminEmails',
        'the configuration names no tenant admins (fixtures.notification.tenantAdminEmails), so whom the broadcast must reach is not known',
      );
    // "all (all members of the tenant and its sub-tenants)"; tenantMembersOnly says the tenant's
    // members include its admins ("all members including admins of the tenant").
    const { id } = await createCategory(t);
    const res = await broadcast(t, messageData({ body: {}, messageCategoryId: id, subject: 'ConformanceBroadcast' }), {
      broadcastType: 'all',
    });
    accepted(t, {
      rule: 'notification/broadcast/all',
      res,
      what: 'a broadcast to all',
      statuses: [200],
    });
    const { search, entry } = await broadcastEntry(t, id);
    listed(t, {
      rule: 'notification/broadcast/all',
      res: search,
      what: "the broadcast's audit entry, by its category",
      items: [id],
      holds: (res, c) => entriesOf(res).some((e) => e.messageCategoryId === c),
      anyStatus: true,
    });
    const got = addressesOf(entry);
    listed(t, {
      rule: 'notification/broadcast/all',
      res: search,
      what: 'every admin of the tenant, among the addresses of a broadcast to all',
      items: admins as string[],
      holds: (_, a) => got.has(String(a).toLowerCase()),
      anyStatus: true,
      soft: true,
    });
  },
  { needs: ['fixtures.notification.allBroadcast', 'fixtures.notification.tenantAdminEmails'], budget: 6 },
);

test(
  ['notification/broadcast/invalid-sub-tenant'],
  'subTenantMembersOnly with a subTenantId that is no sub-tenant is refused or discarded, never a server error',
  async (t) => {
    const known = [fixturesOf(t).subTenantId, ...((t.fixtures.subTenantIds as string[] | undefined) ?? [])];
    const bogus = `${t.prefix}nosubtenant`;
    if (known.includes(bogus)) t.skip('the generated sub-tenant ID is configured as a real one');
    const res = await broadcast(t, messageData(content(t)), {
      broadcastType: 'subTenantMembersOnly',
      subTenantId: bogus,
    });
    holds(t, {
      rule: 'notification/broadcast/invalid-sub-tenant',
      ok: (res.status >= 400 && res.status < 500) || (res.status >= 200 && res.status < 300),
      failure: 'an invalid subTenantId made the request fail',
      expected: 'a 4xx refusal or a 2xx (discarded)',
      received: seen(res),
    });
  },
  { budget: 1 },
);
