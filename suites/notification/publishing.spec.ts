import {
  holds,
  accepted,
  formatted,
  hasMembers,
  listed,
  matchesSchema,
  notListed,
  refused,
  served,
  storedAsSent,
  everyItem,
  UNKNOWN_REFUSAL,
  withCode,
} from '../engine/checks/index.ts';
import { awaitAuditEntry, entriesOf, inAudit, lists, searchAudit } from './audit-search.ts';
import {
  UNKNOWN_ID,
  addressType,
  channelId,
  exampleEmail,
  hasOtherTenant,
  homeTenant,
  isAuditTime,
  notificationTest as test,
  seen,
  send,
  NO_OTHER,
  auditTime,
  poll,
} from './notification-client.ts';
import { createCategory, createRecipient, createTemplateSet, templateOf } from './notification-resources.ts';
import { HOUR, message, publish, filtered, REQUIRED_WITHOUT_CATEGORY } from './publishing-support.ts';
import { fieldValues } from '../engine/resources/index.ts';

test(
  [
    'notification/publish/success-204',
    'notification/publish/success-204-body-contradiction',
    'notification/publish/placeholder-keys',
    'notification/publish/from-charset',
    'notification/publish/priority-values',
    'notification/publish/email-only-without-category',
    'notification/audit/search-range',
    'notification/audit/response-fields',
    'notification/audit/response-time-format',
    'notification/audit/status-values',
    'notification/audit/filter-status',
    'notification/audit/filter-from-app',
    'notification/audit/filter-from-user',
  ],
  'a publish without a category answers 204 and its audit entry is found, filtered and shaped as documented',
  async (t) => {
    const to = exampleEmail(t, 'audit');
    const res = await publish(
      t,
      message(t, {
        recipientsTo: to,
        from: `${t.prefix}_sender.x-y`,
        priority: 1,
        body: { message: 'Hello {{name}}', name: 'Ada', orderNo: '42' },
      }),
    );
    for (const [rule, what] of [
      ['notification/publish/placeholder-keys', 'a publish with body keys besides message'],
      ['notification/publish/from-charset', 'a publish with a from of letters, digits, _, . and -'],
      ['notification/publish/priority-values', 'a publish with priority 1'],
    ] as const)
      served(t, { rule, res, what, statuses: [204], soft: true });
    accepted(t, {
      rule: 'notification/publish/success-204',
      res,
      what: 'a valid publish',
      statuses: [204],
    });
    t.observe(
      'notification/publish/success-204-body-contradiction',
      res.text ? `204 with a body (${res.contentType}): ${res.text.slice(0, 80)}` : '204 with no body',
    );

    const { entry, res: search } = await awaitAuditEntry(t, to);
    listed(t, {
      rule: 'notification/audit/search-range',
      res: search,
      what: 'the published message, in the range',
      items: [to],
      holds: inAudit(),
    });
    // endTime may be given only once sending ends (the states move on their own): waited for.
    const e =
      typeof entry!.endTime === 'string'
        ? entry!
        : ((await poll(
            async () => (await awaitAuditEntry(t, to)).entry,
            (x) => typeof x?.endTime === 'string',
          )) ?? entry!);
    await matchesSchema(t, 'notification/audit/response-fields', e, 'AuditResponse', 'the audit entry');
    const tenant = await homeTenant(t);
    const arrays = ['emails', 'smses', 'pushNotifications', 'bouncedEmails'] as const;
    const texts = ['startTime', 'endTime', 'status', 'fromUser', 'fromApp', 'tenant'] as const;
    const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
    hasMembers(t, {
      rule: 'notification/audit/response-fields',
      what: 'the AuditResponse',
      value: e,
      members: {
        messageCategoryId: 'integer',
        ...Object.fromEntries(texts.map((k) => [k, 'string' as const])),
        ...Object.fromEntries(arrays.map((k) => [k, strings])),
      },
      ...(tenant ? { values: { tenant } } : {}),
      soft: true,
    });
    formatted(t, {
      rule: 'notification/audit/response-time-format',
      what: 'the audit times',
      values: [e.startTime, e.endTime],
      format: 'yyyy-MM-dd HH:mm:ss',
      is: isAuditTime,
      soft: true,
    });
    const none = (v: unknown) => Array.isArray(v) && v.length === 0;
    storedAsSent(t, {
      rule: 'notification/publish/email-only-without-category',
      what: 'a message without category, by email only',
      stored: e,
      sent: { emails: () => lists(e, 'emails', to), smses: none, pushNotifications: none },
      soft: true,
    });
    t.observe('notification/audit/status-values', `status of a delivered message: ${JSON.stringify(e.status)}`);

    // A range before the message, and ranges that end before it or start after it (15 hours off,
    // beyond any time zone the deployment may read the times in), so that a search ignoring one
    // bound still finds it.
    const now = Date.now();
    for (const [what, range] of [
      ['a range before it', { startTimeRange: '2000-01-01 00:00:00', endTimeRange: '2000-01-02 00:00:00' }],
      [
        'a range starting 15 hours after the message',
        { startTimeRange: auditTime(now + 15 * HOUR), endTimeRange: auditTime(now + 72 * HOUR) },
      ],
      [
        'a range ending 15 hours before the message',
        { startTimeRange: auditTime(now - 72 * HOUR), endTimeRange: auditTime(now - 15 * HOUR) },
      ],
    ] as const) {
      const res = await send(t, { method: 'POST', path: '/audit/searchauditstatus', json: range });
      notListed(t, {
        rule: 'notification/audit/search-range',
        res,
        what: `the message, in ${what} (${range.startTimeRange} to ${range.endTimeRange})`,
        items: [to],
        holds: inAudit(),
        soft: true,
      });
    }
    if (hasOtherTenant(t)) {
      const other = await searchAudit(t, {}, 'otherTenant');
      notListed(t, {
        rule: 'notification/audit/search-range',
        res: other,
        what: "the message, to another tenant's search",
        items: [to],
        holds: inAudit(),
        severity: 'critical',
        soft: true,
      });
    } else t.notExercised('notification/audit/search-range', NO_OTHER);
    for (const [field, rule] of [
      ['status', 'notification/audit/filter-status'],
      ['fromApp', 'notification/audit/filter-from-app'],
      ['fromUser', 'notification/audit/filter-from-user'],
    ] as const) {
      let value = e[field];
      let hit = await searchAudit(t, { [field]: value });
      let { all, found } = filtered(entriesOf(hit), (x) => x[field] === value, to);
      // A delivery status moves on its own ("Transitions: not shown"): when ours is not found, filter
      // again by the status it has now; only a status that stood still between the two requests is judged.
      for (let attempt = 0; field === 'status' && hit.status === 200 && all && !found && attempt < 3; attempt++) {
        const now = (await awaitAuditEntry(t, to)).entry?.status;
        if (now === value || now === undefined) break;
        value = now;
        hit = await searchAudit(t, { [field]: value });
        ({ all, found } = filtered(entriesOf(hit), (x) => x[field] === value, to));
      }
      // Ours missing is judged only when its status stood still across the filtered search: the
      // filter may have met it in another state than the one read before or after.
      const moved = field === 'status' && !found && (await awaitAuditEntry(t, to)).entry?.status !== value;
      everyItem(t, {
        rule,
        res: hit,
        what: `an entry with ${field} ${JSON.stringify(value)}, filtered by it`,
        items: entriesOf(hit),
        is: (x) => x[field] === value,
        expected: `only entries with ${field} ${JSON.stringify(value)}`,
        soft: true,
      });
      if (!moved)
        listed(t, {
          rule,
          res: hit,
          what: `the message, filtered by its ${field}`,
          items: [to],
          holds: inAudit(),
          soft: true,
        });
      const miss = await searchAudit(t, { [field]: `${t.prefix}nosuch${field}` });
      notListed(t, {
        rule,
        res: miss,
        what: `the message, filtered by ${field} ${t.prefix}nosuch${field}`,
        items: [to],
        holds: inAudit(),
        soft: true,
      });
    }
  },
  { budget: 40 },
);

test(
  [
    'notification/publish/category-takes-over',
    'notification/publish/category-adds-recipients',
    'notification/publish/priority-values',
    'notification/audit/filter-message-category',
    'notification/errors/code-no-match',
  ],
  "a publish with a category needs no from or message, reaches the category's recipients and recipientsTo, and is filtered by category",
  async (t) => {
    const r = await createRecipient(t);
    const { id } = await createCategory(t, { recipients: [{ position: 'TO', recipientId: r.id }] });
    const extra = exampleEmail(t, 'extra');
    const res = await publish(t, {
      messageCategoryId: id,
      body: {},
      recipientsTo: extra,
      subject: 'CategoryPublish',
      priority: 3,
    });
    served(t, {
      rule: 'notification/publish/priority-values',
      res,
      what: 'a publish with priority 3',
      statuses: [204],
      soft: true,
    });
    accepted(t, {
      rule: 'notification/publish/category-takes-over',
      res,
      what: 'a category publish without from and message',
      statuses: [204],
    });
    const { entry, res: search } = await awaitAuditEntry(t, extra, { messageCategoryId: id });
    listed(t, {
      rule: 'notification/publish/category-adds-recipients',
      res: search,
      what: "the category's recipient and recipientsTo, in the message's audit entry",
      items: [r.email, extra],
      holds: (_, a) => !!entry && lists(entry, 'emails', String(a)),
      anyStatus: true,
    });
    everyItem(t, {
      rule: 'notification/audit/filter-message-category',
      what: `an entry of category ${id}, filtered by it`,
      items: entriesOf(search),
      is: (x) => x.messageCategoryId === id,
      expected: `only entries of category ${id}`,
    });
    notListed(t, {
      rule: 'notification/audit/filter-message-category',
      res: await searchAudit(t, { messageCategoryId: UNKNOWN_ID }),
      what: `the message, filtered by category ${UNKNOWN_ID}`,
      items: [extra],
      holds: inAudit(),
    });
    // Complete otherwise (recipient, from, message): only the unknown category can make it fail.
    const unknown = await publish(t, message(t, { messageCategoryId: UNKNOWN_ID, subject: 'CategoryPublish' }));
    refused(t, {
      rule: 'notification/publish/category-takes-over',
      res: unknown,
      what: `a publish with messageCategoryId ${UNKNOWN_ID}, no category of the tenant`,
      ...UNKNOWN_REFUSAL,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 14 },
);

test(
  ['notification/publish/category-reaches-sms-and-push'],
  "a publish with a category of Email, SMS and Push Notification templates reaches its recipient's email, phone and push addresses",
  async (t) => {
    const [email, sms, push] = [channelId(t, 'email'), channelId(t, 'sms'), channelId(t, 'push')];
    const set = await createTemplateSet(t, { channels: [email, sms, push] });
    const address = exampleEmail(t, 'chan');
    // Not an India-region number: SMS is suspended for those.
    const phone = `+4930${String(Date.now()).slice(-7)}`;
    const pushConfig = JSON.stringify({ token: `${t.prefix}${String(Date.now()).slice(-6)}`, platform: 'android' });
    const r = await createRecipient(t, {
      email: address,
      details: [
        { address, addresstypeid: addressType(t, 'email') },
        { address: phone, addresstypeid: addressType(t, 'phone') },
        { address: pushConfig, addresstypeid: addressType(t, 'push') },
      ],
    });
    const { id } = await createCategory(t, {
      recipients: [{ position: 'TO', recipientId: r.id }],
      templates: [
        { commChannelName: 'Email', templateId: templateOf(t, set, email).templateId, templatesetId: set.id },
        { commChannelName: 'SMS', templateId: templateOf(t, set, sms).templateId, templatesetId: set.id },
        {
          commChannelName: 'Push Notification',
          templateId: templateOf(t, set, push).templateId,
          templatesetId: set.id,
        },
      ],
    });
    const res = await publish(t, { messageCategoryId: id, body: {}, subject: 'AllChannels' });
    if (res.status !== 204)
      t.skip(`the category publish was refused (${seen(res, 120)}); judged by publish/category-takes-over`);
    const { entry, res: search } = await awaitAuditEntry(t, address, { messageCategoryId: id });
    const shown = () =>
      entry
        ? JSON.stringify({ emails: entry.emails, smses: entry.smses, pushNotifications: entry.pushNotifications })
        : seen(search);
    const some = (v: unknown) => Array.isArray(v) && v.length > 0;
    storedAsSent(t, {
      rule: 'notification/publish/category-reaches-sms-and-push',
      what: 'a category publish by SMS and push (its audit entry)',
      stored: entry,
      sent: { smses: some, pushNotifications: some },
    });
    // AuditResponse's smses and pushNotifications are "array of string": that they hold the phone
    // number and the push configuration reached (not message IDs or device references) is our reading.
    holds(t, {
      rule: 'notification/publish/category-reaches-sms-and-push',
      ok: !!entry && lists(entry, 'smses', phone) && lists(entry, 'pushNotifications', pushConfig),
      failure: 'the audit entry does not name the SMS and push addresses reached',
      expected: `smses holding ${phone} and pushNotifications holding ${pushConfig}`,
      received: shown,
      reading: 'audit-lists-addresses',
    });
    // A category of one channel that is not email: the message goes to that channel alone, so a
    // recipient's phone or push address is recipient enough.
    for (const [channel, name, template, field, to] of [
      [sms, 'SMS', templateOf(t, set, sms), 'smses', phone],
      [push, 'Push Notification', templateOf(t, set, push), 'pushNotifications', pushConfig],
    ] as const) {
      const one = await createCategory(t, {
        recipients: [{ position: 'TO', recipientId: r.id }],
        templates: [{ commChannelName: name, templateId: template.templateId, templatesetId: set.id }],
      });
      const sent = await publish(t, { messageCategoryId: one.id, body: {}, subject: 'OneChannel' });
      const found =
        sent.status === 204 ? await awaitAuditEntry(t, to, { messageCategoryId: one.id }, field) : undefined;
      accepted(t, {
        rule: 'notification/publish/category-reaches-sms-and-push',
        res: sent,
        what: `a publish with a category of ${name} templates alone`,
        statuses: [204],
      });
      // The entry is looked for by the address in its list: our reading of what the list holds.
      holds(t, {
        rule: 'notification/publish/category-reaches-sms-and-push',
        ok: !!found?.entry,
        failure: `a publish with a category of ${name} templates alone did not reach the ${name} address`,
        expected: `an audit entry of category ${one.id} with ${field} holding ${to} (channel ${channel})`,
        received: found?.entry ? JSON.stringify(found.entry) : found ? seen(found.res) : seen(sent),
        reading: 'audit-lists-addresses',
      });
    }
  },
  {
    needs: [
      'fixtures.notification.addressTypes.email',
      'fixtures.notification.addressTypes.phone',
      'fixtures.notification.addressTypes.push',
      'fixtures.notification.channels.email',
      'fixtures.notification.channels.push',
      'fixtures.notification.channels.sms',
    ],
    budget: 24,
  },
);

test(
  [
    'notification/publish/body-required',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-invalid-request-body-property',
  ],
  'a publish without body, or with a body that is not an object, is refused',
  async (t) => {
    const without = message(t);
    delete without.body;
    await fieldValues(t, {
      rule: 'notification/publish/body-required',
      field: 'body',
      cases: [
        { value: without, valid: false, what: 'a publish without body' },
        ...['Hello', ['Hello'], 42].map((body) => ({
          value: message(t, { body }),
          valid: false,
          what: `body ${JSON.stringify(body)}`,
        })),
      ],
      send: (c) => publish(t, c.value),
      refusal: (c) => withCode(c.value === without ? 'missingRequestBodyProperty' : 'invalidRequestBodyProperty'),
    });
  },
  { budget: 4 },
);

test(
  [...Object.values(REQUIRED_WITHOUT_CATEGORY), 'notification/errors/code-missing-request-body-property'],
  'without a category, a publish lacking recipients, from, subject or message is refused',
  async (t) => {
    // Each of the four fields absent, blank, and absent with messageCategoryId 0.
    const fields = Object.keys(REQUIRED_WITHOUT_CATEGORY) as Array<keyof typeof REQUIRED_WITHOUT_CATEGORY>;
    for (const how of ['absent', 'blank', 'category 0'] as const) {
      for (const field of fields) {
        const m = message(t);
        const body = { ...(m.body as Record<string, unknown>) };
        if (how === 'blank') {
          if (field === 'message') body.message = '';
          else m[field] = field === 'recipientsTo' ? ' ; ' : '';
        } else if (field === 'message') delete body.message;
        else delete m[field];
        m.body = body;
        if (how === 'category 0') m.messageCategoryId = 0;
        const res = await publish(t, m);
        // An empty from, subject or message is "missing" by our reading (a recipient list of ' ; ' names nobody).
        if (how === 'blank' && field !== 'recipientsTo') {
          refused(t, {
            rule: REQUIRED_WITHOUT_CATEGORY[field],
            res,
            what: `a publish without a category whose ${field} is empty`,
            reading: 'blank-is-missing',
          });
          continue;
        }
        refused(t, {
          rule: REQUIRED_WITHOUT_CATEGORY[field],
          res,
          what: `a publish without a category whose ${field} is ${how === 'blank' ? 'blank' : 'missing'}${how === 'category 0' ? ' (messageCategoryId 0)' : ''}`,
          ...withCode(how === 'blank' ? undefined : 'missingRequestBodyProperty'),
        });
      }
    }
  },
  { budget: 12 },
);
