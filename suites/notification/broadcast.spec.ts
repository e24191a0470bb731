import { accepted, refused, responseSchema } from '../engine/checks/index.ts';
import type { FormPart } from '../engine/http-client.ts';
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
  unknownRefused,
  UNKNOWN_ID,
  verifyCode,
} from './notification-client.ts';
import { createCategory, createRecipient } from './notification-resources.ts';

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

function broadcast(
  t: RuleContext,
  form: FormPart[],
  query: Record<string, string | undefined> = { broadcastType: 'tenantAdminsOnly' },
) {
  return send(t, { method: 'POST', path: '/broadcastEmails', query, form });
}

function messageData(value: unknown): FormPart[] {
  return [{ name: 'messageData', value: typeof value === 'string' ? value : JSON.stringify(value) }];
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
    t.verify(
      'notification/broadcast/send-response-status',
      ['queued', 'sending', 'sent', 'failed'].includes(body.status as string),
      {
        title: 'status not of the enum',
        expected: 'queued, sending, sent or failed',
        received: JSON.stringify(body.status),
      },
    );
    t.verify('notification/broadcast/queued', ['queued', 'sending', 'sent'].includes(body.status as string), {
      title: 'a successful broadcast is not queued',
      expected: 'queued (or sending, sent)',
      received: JSON.stringify(body.status),
    });
    t.verify('notification/broadcast/send-response-start-time', isSendTime(body.startTime), {
      title: 'startTime not HH:mm:ss-dd-MM-yyyy',
      expected: 'HH:mm:ss-dd-MM-yyyy',
      received: JSON.stringify(body.startTime),
    });
    const search = await poll(
      () => searchAudit(t, { messageCategoryId: id }),
      (s) => s.status !== 200 || entriesOf(s).some((e) => e.messageCategoryId === id),
    );
    const entry = entriesOf(search).find((e) => e.messageCategoryId === id);
    t.observe(
      'notification/broadcast/status-transitions',
      `SendResponse status ${JSON.stringify(body.status)}; audit entry status ${JSON.stringify(entry?.status)}`,
    );
    t.check('notification/broadcast/tenant-from-token', !!entry, {
      title: 'the broadcast left no audit entry of its category',
      expected: `an AuditResponse with messageCategoryId ${id}`,
      received: seen(search),
    });
    const tenant = await homeTenant(t);
    if (!tenant)
      t.notExercised(
        'notification/broadcast/tenant-from-token',
        'the token names no tenant (static token without a ten claim): the broadcast tenant could not be compared',
      );
    else
      t.verify('notification/broadcast/tenant-from-token', entry!.tenant === tenant, {
        title: "broadcast not in the token's tenant",
        expected: `tenant ${tenant}`,
        received: JSON.stringify(entry!.tenant),
      });
    // "Broadcast success means the message is queued for dispatch via email": no SMS, no push.
    t.check(
      'notification/broadcast/queued',
      Array.isArray(entry!.smses) &&
        entry!.smses.length === 0 &&
        Array.isArray(entry!.pushNotifications) &&
        entry!.pushNotifications.length === 0,
      {
        title: 'a broadcast was not dispatched via email only',
        expected: 'no smses and no pushNotifications in its audit entry',
        received: JSON.stringify({ smses: entry!.smses, pushNotifications: entry!.pushNotifications }),
      },
    );
    const emails = Array.isArray(entry!.emails) ? (entry!.emails as unknown[]) : [];
    // tenantAdminsOnly addresses the tenant's admins, whom only the configuration can name.
    const admins = (t.fixtures.notification as { tenantAdminEmails?: unknown } | undefined)?.tenantAdminEmails;
    if (Array.isArray(admins) && admins.length && admins.every((a) => typeof a === 'string')) {
      const want = new Set(admins.map((a: string) => a.toLowerCase()));
      const addressed = (x?: AuditEntry) =>
        new Set(
          (Array.isArray(x?.emails) ? (x.emails as unknown[]) : [])
            .filter((e): e is string => typeof e === 'string')
            .map((e) => e.toLowerCase()),
        );
      // The entry may list its addresses as they are sent (the broadcast is only queued): every
      // admin is waited for; an address too many stays one.
      const later = await poll(
        async () => entriesOf(await searchAudit(t, { messageCategoryId: id })).find((e) => e.messageCategoryId === id),
        (x) => [...want].every((a) => addressed(x).has(a)),
      );
      const got = addressed(later ?? entry);
      t.verify(
        'notification/broadcast/tenant-admins-only',
        want.size === got.size && [...want].every((a) => got.has(a)),
        {
          title: 'a tenantAdminsOnly broadcast did not address exactly the tenant admins',
          expected: JSON.stringify([...want].sort()),
          received: JSON.stringify([...got].sort()),
        },
      );
    } else
      t.notExercised(
        'notification/broadcast/tenant-admins-only',
        'the configuration names no tenant admins (fixtures.notification.tenantAdminEmails), so whom the broadcast addressed could not be judged',
      );
    t.verify(
      'notification/broadcast/category-recipients-ignored',
      !emails.some((e) => typeof e === 'string' && e.toLowerCase() === r.email.toLowerCase()),
      {
        title: 'the broadcast reached a recipient configured in the category',
        expected: `no ${r.email}`,
        received: JSON.stringify(emails),
      },
    );
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
      code: 'missingRequestBodyProperty',
      verifyCode,
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
    for (const text of ['not json', '[1,2]', '"text"', '{"body":']) {
      refused(t, {
        rule: 'notification/broadcast/message-data-required',
        res: await broadcast(t, messageData(text)),
        what: `messageData ${JSON.stringify(text)}`,
        code: 'invalidRequestBodyProperty',
        verifyCode,
      });
    }
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
    const cases: Array<[string, Record<string, unknown>]> = [
      [
        'no body',
        (() => {
          const c = content(t);
          delete c.body;
          return c;
        })(),
      ],
      [
        'no from',
        (() => {
          const c = content(t);
          delete c.from;
          return c;
        })(),
      ],
      [
        'no subject',
        (() => {
          const c = content(t);
          delete c.subject;
          return c;
        })(),
      ],
      ['no body.message', content(t, { body: { name: 'x' } })],
    ];
    for (const [what, c] of cases)
      refused(t, {
        rule: 'notification/broadcast/content-like-publish',
        res: await broadcast(t, messageData(c)),
        what: `messageData with ${what}`,
        code: 'missingRequestBodyProperty',
        verifyCode,
      });
    // Complete otherwise (from, subject, message): only the unknown category can make it fail.
    unknownRefused(
      t,
      'notification/broadcast/content-like-publish',
      await broadcast(t, messageData(content(t, { messageCategoryId: UNKNOWN_ID }))),
      `messageData with messageCategoryId ${UNKNOWN_ID}, no category of the tenant`,
    );
  },
  { budget: 5 },
);

test(
  ['notification/broadcast/type-required', 'notification/errors/code-missing-parameter'],
  'a broadcast without broadcastType is refused',
  async (t) => {
    refused(t, {
      rule: 'notification/broadcast/type-required',
      res: await broadcast(t, messageData(content(t)), {}),
      what: 'a broadcast without broadcastType',
      code: 'missingParameter',
      verifyCode,
    });
  },
  { budget: 1 },
);

test(
  ['notification/broadcast/type-values', 'notification/errors/code-invalid-parameter'],
  'a broadcastType other than the four documented values is refused',
  async (t) => {
    for (const broadcastType of ['everyone', 'tenantadminsonly', 'tenantMembers', 'ALL']) {
      refused(t, {
        rule: 'notification/broadcast/type-values',
        res: await broadcast(t, messageData(content(t)), { broadcastType }),
        what: `broadcastType=${broadcastType}`,
        code: 'invalidParameter',
        verifyCode,
      });
    }
  },
  { budget: 4 },
);

test(
  ['notification/broadcast/sub-tenant-id-required', 'notification/errors/code-missing-parameter'],
  'broadcastType=subTenantMembersOnly without subTenantId is refused',
  async (t) => {
    refused(t, {
      rule: 'notification/broadcast/sub-tenant-id-required',
      res: await broadcast(t, messageData(content(t)), { broadcastType: 'subTenantMembersOnly' }),
      what: 'subTenantMembersOnly without subTenantId',
      code: 'missingParameter',
      verifyCode,
    });
  },
  { budget: 1 },
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
    t.check(
      'notification/broadcast/queued',
      res.status === 200 && ['queued', 'sending', 'sent'].includes(status as string),
      {
        title: 'a broadcast to a configured sub-tenant without a category was not queued',
        expected: `HTTP 200 with a queued SendResponse (subTenantId ${f.subTenantId!}, no messageCategoryId)`,
        received: seen(res),
      },
    );
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
    const search = await poll(
      () => searchAudit(t, { messageCategoryId: id }),
      (s) => s.status !== 200 || entriesOf(s).some((e) => e.messageCategoryId === id),
    );
    const entry = entriesOf(search).find((e) => e.messageCategoryId === id);
    t.check('notification/broadcast/all', !!entry, {
      title: 'the broadcast to all left no audit entry of its category',
      expected: `an AuditResponse with messageCategoryId ${id}`,
      received: seen(search),
      response: search,
    });
    const got = new Set(
      (Array.isArray(entry!.emails) ? (entry!.emails as unknown[]) : [])
        .filter((e): e is string => typeof e === 'string')
        .map((e) => e.toLowerCase()),
    );
    const missing = (admins as string[]).filter((a) => !got.has(a.toLowerCase()));
    t.verify('notification/broadcast/all', missing.length === 0, {
      title: 'a broadcast to all did not address every admin of the tenant',
      expected: `emails including ${JSON.stringify(admins)}`,
      received: `${JSON.stringify([...got].sort())} (missing ${JSON.stringify(missing)})`,
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
    t.check(
      'notification/broadcast/invalid-sub-tenant',
      (res.status >= 400 && res.status < 500) || (res.status >= 200 && res.status < 300),
      {
        title: 'an invalid subTenantId made the request fail',
        expected: 'a 4xx refusal or a 2xx (discarded)',
        received: seen(res),
      },
    );
  },
  { budget: 1 },
);
