import fc from 'fast-check';
import { boundaryValues } from '../../generators/index.ts';
import type { JsonSchema } from '../../generators/index.ts';
import { matchesSchema } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { contractOf } from '../engine/schemas.ts';
import {
  addressType,
  UNKNOWN_ID,
  accepted,
  exampleEmail,
  channelId,
  fixturesOf,
  hasOtherTenant,
  homeTenant,
  notificationTest as test,
  foreignRefused,
  refused,
  seen,
  send,
  unknownRefused,
  tag,
  NO_OTHER,
} from './notification-client.ts';
import {
  categoryBody,
  createCategory,
  createGroup,
  createRecipient,
  createTemplateSet,
  createdId,
  groupName,
  postCategory,
  postGroup,
  templateOf,
} from './notification-resources.ts';
import { answeredByReading, CLIENT_ERRORS } from './answered-by-reading.ts';

type Position = 'TO' | 'CC' | 'BCC';

interface CategoryView {
  createdby?: unknown;
  from?: unknown;
  msgCategoryId?: unknown;
  msgCategoryName?: unknown;
  priority?: unknown;
  subject?: unknown;
  recipients?: Array<{
    position?: unknown;
    recipientId?: unknown;
    recipientName?: unknown;
    recipientDetails?: unknown;
  }>;
  recipientGroups?: Array<{ position?: unknown; recipientGroupId?: unknown; recipientGroupName?: unknown }>;
  templates?: Array<{
    commChannelName?: unknown;
    templateId?: unknown;
    templatesetId?: unknown;
    templatesetName?: unknown;
  }>;
}

function getCategory(t: RuleContext, id: number | string, query?: Record<string, string>, as?: 'otherTenant') {
  return send(t, { method: 'GET', path: `/communicationcategories/${id}`, query }, as);
}

function putCategory(t: RuleContext, id: number | string, body: unknown, as?: 'otherTenant') {
  return send(t, { method: 'PUT', path: `/communicationcategories/${id}`, json: body }, as);
}

function view(res: HttpResponse): CategoryView {
  return res.json && typeof res.json === 'object' ? res.json : {};
}

/**
 * A list of a category as GET answered it: its objects, or none when the field is missing or not a
 * list (a malformed answer then fails the check that reads it, instead of stopping the test).
 */
function listIn<K extends 'recipients' | 'templates' | 'recipientGroups'>(
  res: HttpResponse,
  key: K,
): NonNullable<CategoryView[K]> {
  const v: unknown = view(res)[key];
  return (Array.isArray(v) ? v.filter((x) => x !== null && typeof x === 'object') : []) as NonNullable<CategoryView[K]>;
}

/** The documented CreateCommunicationCategory property schema of a field. */
async function propertySchema(field: string): Promise<JsonSchema> {
  const doc = await contractOf('notification');
  return ((doc.components?.schemas?.CreateCommunicationCategory as JsonSchema).properties ?? {})[field];
}

test(
  ['notification/categories/create-201-id'],
  'POST /communicationcategories/ answers 201 with the integer ID, which GET then serves',
  async (t) => {
    const body = categoryBody(t);
    const res = await postCategory(t, body);
    t.check('notification/categories/create-201-id', res.status === 201 && Number.isSafeInteger(res.json), {
      title: 'category not created with 201 and an integer ID',
      expected: 'HTTP 201 with a bare JSON integer',
      received: seen(res),
    });
    const got = await getCategory(t, res.json as number);
    t.check(
      'notification/categories/create-201-id',
      got.status === 200 && view(got).msgCategoryId === res.json && view(got).msgCategoryName === body.msgCategoryName,
      {
        title: 'the created category is not served by its ID',
        expected: `HTTP 200 with msgCategoryId ${String(res.json)}`,
        received: seen(got),
      },
    );
  },
  { budget: 3 },
);

test(
  ['notification/categories/from-application-name', 'notification/errors/code-invalid-request-body-property'],
  'a category from that is an address or not a string is refused on create and update; an application name is taken',
  async (t) => {
    const good = await postCategory(t, categoryBody(t, { from: `${t.prefix}appname1` }));
    accepted(t, 'notification/categories/from-application-name', good, 'from "<prefix>appname1"', [201]);
    const id = createdId(good)!;
    // Which signs an application name may hold is our reading: the document says only "Application name".
    const signed = await postCategory(t, categoryBody(t, { from: `${t.prefix}.app-name_1` }));
    t.reading('app-name-charset', 'notification/categories/from-application-name', signed.status === 201, {
      title: 'valid input refused: from "<prefix>.app-name_1"',
      expected: "HTTP 201 for an application name holding '.', '-' and '_'",
      received: seen(signed),
    });
    const bad: unknown[] = [`${t.prefix}@example.com`, 'noreply@example.com', 42, ['app']];
    for (const from of bad)
      refused(
        t,
        'notification/categories/from-application-name',
        await postCategory(t, categoryBody(t, { from })),
        `POST with from ${JSON.stringify(from)}`,
        'invalidRequestBodyProperty',
      );
    await t.property(
      fc.constantFrom(...bad),
      async (from) => {
        refused(
          t,
          'notification/categories/from-application-name',
          await putCategory(t, id, { from }),
          `PUT with from ${JSON.stringify(from)}`,
          'invalidRequestBodyProperty',
        );
      },
      { rule: 'notification/categories/from-application-name', runs: Math.min(t.session.context.runs, 4) },
    );
  },
  { budget: 7, budgetPerRun: 1 },
);

test(
  ['notification/categories/sender-built'],
  'GET /communicationcategories/{id} answers as from an address built of the application name and the tenant ID',
  async (t) => {
    const app = `${t.prefix}sender`;
    const { id } = await createCategory(t, { from: app });
    const got = await getCategory(t, id);
    const from = view(got).from;
    const tenant = await homeTenant(t);
    const domain = fixturesOf(t).senderDomain;
    const ok =
      typeof from === 'string' &&
      from.includes('@') &&
      from.includes(app) &&
      (!tenant || from.includes(tenant)) &&
      (!domain || from.toLowerCase().endsWith(`@${domain.toLowerCase()}`));
    t.check('notification/categories/sender-built', got.status === 200 && ok, {
      title: 'sender address not built from the application name and tenant',
      expected: `an address holding "${app}"${tenant ? `, "${tenant}"` : ''} and "@"${domain ? ` at ${domain}` : ''}`,
      received: `from ${JSON.stringify(from)} (${seen(got, 120)})`,
    });
  },
  { budget: 3 },
);

/** Alphanumeric fields: letters and digits only; a sign or another type breaks them. */
function alphanumericCase(t: RuleContext, signs: readonly string[]) {
  return fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((s) => ({ value: `${t.prefix}${s}` as unknown, valid: true })),
    fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9]{1,6}$/), fc.constantFrom(...signs))
      .map(([s, c]) => ({ value: `${t.prefix}${c}${s}` as unknown, valid: false })),
    fc.constant({ value: 42, valid: false }),
  );
}

for (const [field, rule] of [
  ['msgCategoryName', 'notification/categories/name-alphanumeric'],
  ['subject', 'notification/categories/subject-alphanumeric'],
] as const) {
  test(
    [rule, 'notification/errors/code-invalid-request-body-property'],
    `a category ${field} is taken alphanumeric only (property, create and update)`,
    async (t) => {
      const { id } = await createCategory(t);
      // The edges first: signs on create, a sign on update, an empty text, another type.
      const edges: Array<[unknown, boolean]> = [
        [`${t.prefix}-x`, false],
        [`${t.prefix} x`, false],
        ['', false],
        [42, false],
        [`${t.prefix}!x`, true],
      ];
      for (const [value, onUpdate] of edges) {
        const res = onUpdate
          ? await putCategory(t, id, { [field]: value })
          : await postCategory(t, categoryBody(t, { [field]: value }));
        // Whether an empty text is "Alphanumeric only" is our reading, not the document's.
        if (value === '') {
          t.reading('empty-not-alphanumeric', rule, res.status === 400, {
            title: `not refused: POST with an empty ${field}`,
            expected: `HTTP 400 for an empty ${field}`,
            received: seen(res),
            response: res,
          });
          continue;
        }
        // Whether a space breaks "Alphanumeric only" is our reading, not the document's.
        if (value === `${t.prefix} x`) {
          t.reading(field === 'subject' ? 'subject-space' : 'category-name-space', rule, res.status === 400, {
            title: `not refused: POST with ${field} ${JSON.stringify(value)}`,
            expected: 'HTTP 400 for a subject with a space',
            received: seen(res),
            response: res,
          });
          continue;
        }
        refused(
          t,
          rule,
          res,
          `${onUpdate ? 'PUT' : 'POST'} with ${field} ${JSON.stringify(value)}`,
          'invalidRequestBodyProperty',
        );
      }
      await t.property(
        fc.tuple(alphanumericCase(t, ['!', '<', '-', '_', '.', '&']), fc.boolean()),
        async ([{ value, valid }, onUpdate]) => {
          // Valid names get a unique tail so that no two categories of the run share one.
          const v = valid && field === 'msgCategoryName' ? `${value as string}${tag()}` : value;
          const res = onUpdate
            ? await putCategory(t, id, { [field]: v })
            : await postCategory(t, categoryBody(t, { [field]: v }));
          if (valid)
            accepted(
              t,
              rule,
              res,
              `${onUpdate ? 'PUT' : 'POST'} with ${field} ${JSON.stringify(v)}`,
              onUpdate ? [204] : [201],
            );
          else
            refused(
              t,
              rule,
              res,
              `${onUpdate ? 'PUT' : 'POST'} with ${field} ${JSON.stringify(v)}`,
              'invalidRequestBodyProperty',
            );
        },
        { rule: rule, runs: Math.min(t.session.context.runs, 10) },
      );
    },
    { budget: 6, budgetPerRun: 1 },
  );
}

test(
  ['notification/categories/priority-values', 'notification/errors/code-invalid-request-body-property'],
  'a category priority is taken as 1, 3 or 5 only (every boundary of the contract, create and update)',
  async (t) => {
    const schema = await propertySchema('priority');
    // The contract's enum gives 1, 3, 5 (valid) and 0, 2, 4, 6 (invalid); other types break it too.
    const cases = [
      ...boundaryValues(schema),
      { constraint: 'type', value: '3', valid: false },
      { constraint: 'type', value: 3.5, valid: false },
    ];
    const { id } = await createCategory(t);
    for (const onUpdate of [false, true]) {
      for (const { value, valid } of cases) {
        const res = onUpdate
          ? await putCategory(t, id, { priority: value })
          : await postCategory(t, categoryBody(t, { priority: value }));
        if (valid)
          accepted(
            t,
            'notification/categories/priority-values',
            res,
            `${onUpdate ? 'PUT' : 'POST'} with priority ${JSON.stringify(value)}`,
            onUpdate ? [204] : [201],
          );
        else
          refused(
            t,
            'notification/categories/priority-values',
            res,
            `${onUpdate ? 'PUT' : 'POST'} with priority ${JSON.stringify(value)}`,
            'invalidRequestBodyProperty',
          );
      }
    }
  },
  { budget: 20 },
);

test(
  ['notification/categories/recipient-position', 'notification/errors/code-invalid-request-body-property'],
  'category recipients are taken at TO, CC and BCC only, with integer IDs',
  async (t) => {
    const rs = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const positions: Position[] = ['TO', 'CC', 'BCC'];
    const good = await postCategory(
      t,
      categoryBody(t, { recipients: rs.map((r, i) => ({ position: positions[i], recipientId: r.id })) }),
    );
    accepted(t, 'notification/categories/recipient-position', good, 'recipients at TO, CC and BCC', [201]);
    const got = await getCategory(t, createdId(good)!);
    const listed = listIn(got, 'recipients')
      .map((x) => `${String(x.recipientId)}:${String(x.position)}`)
      .sort();
    const want = rs.map((r, i) => `${r.id}:${positions[i]}`).sort();
    t.check('notification/categories/recipient-position', JSON.stringify(listed) === JSON.stringify(want), {
      title: 'positions not kept',
      expected: want.join(', '),
      received: listed.join(', ') || seen(got),
    });
    const bad: Array<[string, Record<string, unknown>]> = [
      ['position FROM', { position: 'FROM', recipientId: rs[0].id }],
      ['position "to"', { position: 'to', recipientId: rs[0].id }],
      ['position 1', { position: 1, recipientId: rs[0].id }],
      ['recipientId as text', { position: 'TO', recipientId: String(rs[0].id) }],
      ['recipientGroupId 1.5', { position: 'CC', recipientGroupId: 1.5 }],
    ];
    // The rule holds for every item: the bad one comes after a valid one.
    const lead = { position: 'BCC', recipientId: rs[2].id };
    for (const [what, item] of bad)
      refused(
        t,
        'notification/categories/recipient-position',
        await postCategory(t, categoryBody(t, { recipients: [lead, item] })),
        `POST with ${what} (second item)`,
        'invalidRequestBodyProperty',
      );
    await t.property(
      fc.constantFrom(...bad),
      async ([what, item]) => {
        refused(
          t,
          'notification/categories/recipient-position',
          await putCategory(t, createdId(good)!, {
            recipients: [
              { ...lead, operation: 'ADD' },
              { ...item, operation: 'ADD' },
            ],
          }),
          `PUT with ${what} (second item)`,
          'invalidRequestBodyProperty',
        );
      },
      { rule: 'notification/categories/recipient-position', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 11, budgetPerRun: 1 },
);

test(
  ['notification/categories/template-channel', 'notification/errors/code-invalid-request-body-property'],
  'category templates are taken for Email, SMS and Push Notification only, with integer IDs',
  async (t) => {
    const email = channelId(t, 'email');
    const push = channelId(t, 'push');
    const set = await createTemplateSet(t, { channels: [email, push] });
    const e = templateOf(t, set, email);
    const p = templateOf(t, set, push);
    const good = await postCategory(
      t,
      categoryBody(t, {
        templates: [
          { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id },
          { commChannelName: 'Push Notification', templateId: p.templateId, templatesetId: set.id },
        ],
      }),
    );
    accepted(
      t,
      'notification/categories/template-channel',
      good,
      'templates of channels Email and Push Notification',
      [201],
    );
    const bad: Array<[string, Record<string, unknown>]> = [
      ['commChannelName Fax', { commChannelName: 'Fax', templateId: e.templateId, templatesetId: set.id }],
      ['commChannelName EMAIL', { commChannelName: 'EMAIL', templateId: e.templateId, templatesetId: set.id }],
      ['commChannelName Push', { commChannelName: 'Push', templateId: p.templateId, templatesetId: set.id }],
      ['templateId as text', { commChannelName: 'Email', templateId: String(e.templateId), templatesetId: set.id }],
      ['templatesetId 1.5', { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id + 0.5 }],
    ];
    // The rule holds for every item: the bad one comes after a valid one of the other template.
    const emailItem = { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id };
    const pushItem = { commChannelName: 'Push Notification', templateId: p.templateId, templatesetId: set.id };
    for (const [what, item] of bad) {
      const lead = String(item.templateId) === String(e.templateId) ? pushItem : emailItem;
      refused(
        t,
        'notification/categories/template-channel',
        await postCategory(t, categoryBody(t, { templates: [lead, item] })),
        `a template item with ${what} (second item)`,
        'invalidRequestBodyProperty',
      );
    }
    // UpdateCategoryTemplate items have "the create-item fields plus operation": the same enum holds
    // for an ADD and for a DELETE item.
    const id = createdId(good);
    if (id !== undefined)
      for (const operation of ['ADD', 'DELETE'])
        refused(
          t,
          'notification/categories/template-channel',
          await putCategory(t, id, {
            templates: [
              { ...pushItem, operation: 'ADD' },
              { operation, commChannelName: 'Fax', templateId: e.templateId, templatesetId: set.id },
            ],
          }),
          `a PUT template item with operation ${operation} and commChannelName Fax`,
          'invalidRequestBodyProperty',
        );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 10 },
);

test(
  ['notification/categories/list'],
  "GET /communicationcategories/ lists the tenant's categories with ID, name and priority, and none of another tenant",
  async (t) => {
    const { id, body } = await createCategory(t, { priority: 5 });
    const res = await send(t, { method: 'GET', path: '/communicationcategories/' });
    const items = Array.isArray(res.json) ? (res.json as Array<Record<string, unknown>>) : [];
    t.check('notification/categories/list', res.status === 200 && Array.isArray(res.json), {
      title: 'category list not an array',
      expected: 'HTTP 200 with a JSON array',
      received: seen(res),
    });
    for (const item of items.slice(0, 50))
      await matchesSchema(t, 'notification/categories/list', item, 'CommunicationCategory', 'a category list item');
    const malformed = items.find(
      (x) =>
        !Number.isSafeInteger(x?.msgCategoryId) ||
        typeof x?.msgCategoryName !== 'string' ||
        !Number.isInteger(x?.priority),
    );
    t.check('notification/categories/list', !malformed, {
      title: 'list item without msgCategoryId, msgCategoryName or priority',
      expected: 'every item with the three fields',
      received: JSON.stringify(malformed),
    });
    const mine = items.find((x) => x.msgCategoryId === id);
    t.check(
      'notification/categories/list',
      !!mine && mine.msgCategoryName === body.msgCategoryName && mine.priority === 5,
      {
        title: 'the created category is not listed as created',
        expected: `{msgCategoryId: ${id}, msgCategoryName: ${String(body.msgCategoryName)}, priority: 5}`,
        received: JSON.stringify(mine) ?? 'not listed',
      },
    );
    if (hasOtherTenant(t)) {
      const other = await send(t, { method: 'GET', path: '/communicationcategories/' }, 'otherTenant');
      const leaked =
        Array.isArray(other.json) &&
        (other.json as Array<Record<string, unknown>>).some((x) => x?.msgCategoryId === id);
      t.check('notification/categories/list', other.status === 200 && !leaked, {
        title: 'another tenant lists the category',
        severity: 'critical',
        expected: `no category ${id}`,
        received: seen(other),
      });
    } else t.notExercised('notification/categories/list', NO_OTHER);
  },
  { budget: 4 },
);

test(
  ['notification/categories/get-fields'],
  'GET /communicationcategories/{id} answers the documented fields, recipients and templates',
  async (t) => {
    const email = channelId(t, 'email');
    // Two recipients and two templates: the item fields are judged on every item, not the first.
    const r = await createRecipient(t);
    const r2 = await createRecipient(t);
    const set = await createTemplateSet(t, { channels: [email] });
    const set2 = await createTemplateSet(t, { channels: [email] });
    const e = templateOf(t, set, email);
    const e2 = templateOf(t, set2, email);
    const { id, body } = await createCategory(t, {
      priority: 1,
      recipients: [
        { position: 'CC', recipientId: r.id },
        { position: 'BCC', recipientId: r2.id },
      ],
      templates: [
        { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id },
        { commChannelName: 'Email', templateId: e2.templateId, templatesetId: set2.id },
      ],
    });
    const got = await getCategory(t, id);
    const v = view(got);
    t.check('notification/categories/get-fields', got.status === 200, {
      title: 'category not served',
      expected: 'HTTP 200',
      received: seen(got),
    });
    await matchesSchema(t, 'notification/categories/get-fields', got.json, 'GetCommunicationCategory', 'the category');
    const tenant = await homeTenant(t);
    const top =
      typeof v.createdby === 'string' &&
      (!tenant || v.createdby === tenant) &&
      typeof v.from === 'string' &&
      v.msgCategoryId === id &&
      v.msgCategoryName === body.msgCategoryName &&
      v.priority === 1 &&
      v.subject === body.subject;
    t.verify('notification/categories/get-fields', top, {
      title: 'top-level fields wrong',
      expected: `createdby ${tenant ?? '(the tenant)'}, from, msgCategoryId ${id}, msgCategoryName ${String(body.msgCategoryName)}, priority 1, subject ${String(body.subject)}`,
      received: JSON.stringify({
        createdby: v.createdby,
        from: v.from,
        msgCategoryId: v.msgCategoryId,
        msgCategoryName: v.msgCategoryName,
        priority: v.priority,
        subject: v.subject,
      }),
    });
    for (const [who, position] of [
      [r, 'CC'],
      [r2, 'BCC'],
    ] as const) {
      const rec = (Array.isArray(v.recipients) ? v.recipients : []).find((x) => x.recipientId === who.id);
      const details = Array.isArray(rec?.recipientDetails)
        ? (rec.recipientDetails as Array<Record<string, unknown>>)
        : [];
      const detailOk = details.some(
        (d) =>
          d.address === who.email &&
          d.commChannelName === 'Email' &&
          typeof d.recipientAddressTypeName === 'string' &&
          d.recipientId === who.id,
      );
      t.verify(
        'notification/categories/get-fields',
        !!rec && rec.position === position && rec.recipientName === who.name && detailOk,
        {
          title: 'recipient item wrong',
          expected: `{position ${position}, recipientId ${who.id}, recipientName "${who.name}", recipientDetails [{address ${who.email}, commChannelName Email, recipientAddressTypeName, recipientId}]}`,
          received: JSON.stringify(rec) ?? JSON.stringify(v.recipients),
        },
      );
    }
    for (const [tid, s] of [
      [e.templateId, set],
      [e2.templateId, set2],
    ] as const) {
      const tpl = (Array.isArray(v.templates) ? v.templates : []).find((x) => x.templateId === tid);
      t.verify(
        'notification/categories/get-fields',
        !!tpl && tpl.commChannelName === 'Email' && tpl.templatesetId === s.id && tpl.templatesetName === s.name,
        {
          title: 'template item wrong',
          expected: `{commChannelName Email, templateId ${tid}, templatesetId ${s.id}, templatesetName "${s.name}"}`,
          received: JSON.stringify(tpl) ?? JSON.stringify(v.templates),
        },
      );
    }
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 7 },
);

test(
  [
    'notification/categories/get-not-found',
    'notification/errors/code-no-match',
    'notification/errors/code-invalid-parameter',
  ],
  'GET /communicationcategories/{id}: 404 for an unknown ID, 400 for a non-integer',
  async (t) => {
    refused(
      t,
      'notification/categories/get-not-found',
      await getCategory(t, UNKNOWN_ID),
      `unknown category ${UNKNOWN_ID}`,
      'noMatch',
      [404],
    );
    // "path id (int64)": "abc" is refused; 400 rather than a 404 of routing is our reading.
    answeredByReading(
      t,
      'notification/categories/get-not-found',
      await getCategory(t, 'abc'),
      'id "abc"',
      'non-integer-id-400',
      CLIENT_ERRORS,
      400,
      'invalidParameter',
    );
  },
  { readOnly: true, budget: 2 },
);

test(
  ['notification/categories/get-recipient-groups', 'notification/errors/code-invalid-parameter'],
  "GET /communicationcategories/{id}?recGroup=true lists the category's groups; another recGroup is refused",
  async (t) => {
    const g = await createGroup(t);
    const { id } = await createCategory(t, { recipients: [{ position: 'BCC', recipientGroupId: g.id }] });
    const got = await getCategory(t, id, { recGroup: 'true' });
    const item = listIn(got, 'recipientGroups').find((x) => x.recipientGroupId === g.id);
    t.check(
      'notification/categories/get-recipient-groups',
      got.status === 200 && !!item && item.recipientGroupName === g.name && item.position === 'BCC',
      {
        title: 'recipient group not listed with recGroup=true',
        expected: `recipientGroups holding {recipientGroupId ${g.id}, recipientGroupName "${g.name}", position BCC}`,
        received: seen(got),
      },
    );
    // "recGroup (string true/false, optional, ...)": false is one of the two values.
    const without = await getCategory(t, id, { recGroup: 'false' });
    t.check('notification/categories/get-recipient-groups', without.status === 200, {
      title: 'recGroup=false refused',
      expected: 'HTTP 200 (false is one of the values true/false)',
      received: seen(without),
    });
    // A value other than true/false may be refused or read as false: refusing it is our reading.
    answeredByReading(
      t,
      'notification/categories/get-recipient-groups',
      await getCategory(t, id, { recGroup: 'yes' }),
      'recGroup=yes',
      'recgroup-value-checked',
      [200, ...CLIENT_ERRORS],
      400,
      'invalidParameter',
    );
  },
  { budget: 7 },
);

test(
  ['notification/categories/get-fields'],
  "GET /communicationcategories/{id} names each recipient address's channel: SMS for a phone, Push Notification for a push address",
  async (t) => {
    const email = exampleEmail(t, 'chan');
    const phone = `+4930${String(Date.now()).slice(-7)}`;
    const android = JSON.stringify({ token: `${t.prefix}${String(Date.now()).slice(-6)}`, platform: 'android' });
    // The iOS push type where the run configuration names it.
    const ios = fixturesOf(t).addressTypes?.iosPush;
    const iosAddress = JSON.stringify({ deviceToken: `${t.prefix}ios`, bundle: 'com.example.app' });
    const want: Array<[string, string]> = [
      [email, 'Email'],
      [phone, 'SMS'],
      [android, 'Push Notification'],
      ...(Number.isInteger(ios) ? [[iosAddress, 'Push Notification'] as [string, string]] : []),
    ];
    const r = await createRecipient(t, {
      email,
      details: [
        { address: email, addresstypeid: addressType(t, 'email') },
        { address: phone, addresstypeid: addressType(t, 'phone') },
        { address: android, addresstypeid: addressType(t, 'push') },
        ...(Number.isInteger(ios) ? [{ address: iosAddress, addresstypeid: ios }] : []),
      ],
    });
    const { id } = await createCategory(t, { recipients: [{ position: 'TO', recipientId: r.id }] });
    const got = await getCategory(t, id);
    const rec = listIn(got, 'recipients').find((x) => x.recipientId === r.id);
    const details = Array.isArray(rec?.recipientDetails)
      ? (rec.recipientDetails as Array<Record<string, unknown>>)
      : [];
    const named = want.map(([address]) => details.find((d) => d.address === address)?.commChannelName);
    // "recipientDetails (array: address string, commChannelName enum Email/SMS/Push Notification, ...)"
    t.check(
      'notification/categories/get-fields',
      got.status === 200 && want.every(([, channel], i) => named[i] === channel),
      {
        title: "an address's channel misnamed in recipientDetails",
        expected: want.map(([a, c]) => `${a}: ${c}`).join(', '),
        received: got.status === 200 ? want.map(([a], i) => `${a}: ${String(named[i])}`).join(', ') : seen(got),
      },
    );
  },
  {
    needs: [
      'fixtures.notification.addressTypes.email',
      'fixtures.notification.addressTypes.phone',
      'fixtures.notification.addressTypes.push',
    ],
    budget: 4,
  },
);

test(
  ['notification/categories/delete-ids-required', 'notification/errors/code-missing-parameter'],
  'DELETE /communicationcategories/ without categoryIds is refused with 400',
  async (t) => {
    refused(
      t,
      'notification/categories/delete-ids-required',
      await send(t, { method: 'DELETE', path: '/communicationcategories/' }),
      'a DELETE without categoryIds',
      'missingParameter',
    );
  },
  { budget: 1 },
);

test(
  [
    'notification/categories/delete-ids-format',
    'notification/errors/code-invalid-parameter',
    'notification/errors/code-no-match',
  ],
  'DELETE /communicationcategories/ refuses categoryIds that are not integer IDs (400) and unknown IDs (404)',
  async (t) => {
    const { id } = await createCategory(t);
    for (const ids of ['abc', `${id};${id}`, `${id},x`, '1.5']) {
      refused(
        t,
        'notification/categories/delete-ids-format',
        await send(t, { method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: ids } }),
        `categoryIds=${ids}`,
        'invalidParameter',
      );
    }
    unknownRefused(
      t,
      'notification/categories/delete-ids-format',
      await send(t, {
        method: 'DELETE',
        path: '/communicationcategories/',
        query: { categoryIds: String(UNKNOWN_ID) },
      }),
      `categoryIds=${UNKNOWN_ID} (unknown)`,
    );
    const still = await getCategory(t, id);
    t.check('notification/categories/delete-ids-format', still.status === 200, {
      title: 'a refused DELETE removed the category',
      expected: 'HTTP 200',
      received: seen(still),
    });
  },
  { budget: 8 },
);

test(
  ['notification/categories/delete-204'],
  'DELETE /communicationcategories/?categoryIds=a,b answers 204 and deletes both',
  async (t) => {
    const a = await createCategory(t);
    const b = await createCategory(t);
    const res = await send(t, {
      method: 'DELETE',
      path: '/communicationcategories/',
      query: { categoryIds: `${a.id},${b.id}` },
    });
    accepted(t, 'notification/categories/delete-204', res, `categoryIds=${a.id},${b.id}`, [204]);
    for (const id of [a.id, b.id]) {
      const got = await getCategory(t, id);
      t.check('notification/categories/delete-204', got.status === 404, {
        title: `category ${id} still there`,
        expected: 'HTTP 404',
        received: seen(got),
      });
    }
  },
  { budget: 5 },
);

test(
  ['notification/categories/update-operation-enum'],
  'PUT /communicationcategories/{id} refuses recipient and template items without ADD or DELETE',
  async (t) => {
    const email = channelId(t, 'email');
    const r = await createRecipient(t);
    const set = await createTemplateSet(t, { channels: [email] });
    const e = templateOf(t, set, email);
    const { id } = await createCategory(t);
    const recipient = { position: 'TO', recipientId: r.id };
    const template = { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id };
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a recipient item without operation', { recipients: [recipient] }],
      ['a recipient item with operation MERGE', { recipients: [{ ...recipient, operation: 'MERGE' }] }],
      ['a recipient item with operation "add"', { recipients: [{ ...recipient, operation: 'add' }] }],
      ['a template item without operation', { templates: [template] }],
      ['a template item with operation REPLACE', { templates: [{ ...template, operation: 'REPLACE' }] }],
    ];
    for (const [what, body] of cases)
      refused(t, 'notification/categories/update-operation-enum', await putCategory(t, id, body), what);
    const after = await getCategory(t, id);
    t.check(
      'notification/categories/update-operation-enum',
      listIn(after, 'recipients').length === 0 && listIn(after, 'templates').length === 0,
      {
        title: 'a refused update changed the category',
        expected: 'no recipients and no templates',
        received: seen(after),
      },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 10 },
);

/** The model of a category's recipients: recipient index → position. */
type Members = Map<number, Position>;
interface Real {
  t: RuleContext;
  categoryId: number;
  recipients: number[];
}

/** Compares the recipients GET answers with the model: each member once, at its position, and nobody else. */
async function compare(model: Members, real: Real, rule: string, after: string): Promise<void> {
  const got = await getCategory(real.t, real.categoryId);
  const listed = listIn(got, 'recipients')
    .map((x) => `${String(x.recipientId)}:${String(x.position)}`)
    .sort();
  const want = [...model].map(([i, p]) => `${real.recipients[i]}:${p}`).sort();
  real.t.check(rule, got.status === 200 && JSON.stringify(listed) === JSON.stringify(want), {
    title: `recipients wrong after ${after}`,
    expected: `[${want.join(', ')}]`,
    received: `[${listed.join(', ')}] (${seen(got, 100)})`,
  });
}

/** PUT with an ADD item: a new recipient is added, an existing one takes the new position. */
class AddRecipient implements fc.AsyncCommand<Members, Real> {
  /** What a failure prints (kept as data: counterexamples are stored as plain values). */
  readonly label: string;
  constructor(
    readonly index: number,
    readonly position: Position,
  ) {
    this.label = this.toString();
  }
  check(): boolean {
    return true;
  }
  async run(model: Members, real: Real): Promise<void> {
    const res = await putCategory(real.t, real.categoryId, {
      recipients: [{ operation: 'ADD', position: this.position, recipientId: real.recipients[this.index] }],
    });
    accepted(real.t, 'notification/categories/update-add-merges', res, this.toString(), [204]);
    model.set(this.index, this.position);
    await compare(model, real, 'notification/categories/update-add-merges', this.toString());
  }
  toString(): string {
    return `ADD recipient#${this.index} at ${this.position}`;
  }
}

/** PUT with a DELETE item: the recipient is removed. */
class DeleteRecipient implements fc.AsyncCommand<Members, Real> {
  readonly label: string;
  constructor(readonly index: number) {
    this.label = this.toString();
  }
  check(model: Readonly<Members>): boolean {
    return model.has(this.index);
  }
  async run(model: Members, real: Real): Promise<void> {
    const res = await putCategory(real.t, real.categoryId, {
      recipients: [{ operation: 'DELETE', position: model.get(this.index), recipientId: real.recipients[this.index] }],
    });
    accepted(real.t, 'notification/categories/update-delete-removes', res, this.toString(), [204]);
    model.delete(this.index);
    await compare(model, real, 'notification/categories/update-delete-removes', this.toString());
  }
  toString(): string {
    return `DELETE recipient#${this.index}`;
  }
}

test(
  ['notification/categories/update-add-merges', 'notification/categories/update-delete-removes'],
  'ADD items add or merge (new position, no duplicate) and DELETE items remove category recipients (model-based)',
  async (t) => {
    const recipients = [(await createRecipient(t)).id, (await createRecipient(t)).id];
    const index = fc.integer({ min: 0, max: recipients.length - 1 });
    const command = fc.oneof(
      {
        arbitrary: fc
          .tuple(index, fc.constantFrom<Position>('TO', 'CC', 'BCC'))
          .map(([i, p]): fc.AsyncCommand<Members, Real> => new AddRecipient(i, p)),
        weight: 2,
      },
      { arbitrary: index.map((i): fc.AsyncCommand<Members, Real> => new DeleteRecipient(i)), weight: 1 },
    );
    // A plain array of commands (not fc.commands, whose replay metadata is not a plain value): the
    // shrunk counterexample is the list of command labels.
    await t.property(
      fc.array(command, { minLength: 1, maxLength: 6 }),
      async (cmds) => {
        const { id } = await createCategory(t);
        await fc.asyncModelRun(() => ({ model: new Map() as Members, real: { t, categoryId: id, recipients } }), cmds);
      },
      { rule: 'notification/categories/update-add-merges', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 2, budgetPerRun: 14 },
);

test(
  ['notification/categories/update-add-merges', 'notification/categories/update-delete-removes'],
  'step by step: a recipient ADDed again takes the new position; a template ADDed twice is held once; DELETE removes that one alone',
  async (t) => {
    const email = channelId(t, 'email');
    const r = await createRecipient(t);
    const set = await createTemplateSet(t, { channels: [email] });
    const e = templateOf(t, set, email);
    // A second recipient and a second template stay through the DELETE of the first ones.
    const r2 = await createRecipient(t);
    const set2 = await createTemplateSet(t, { channels: [email] });
    const e2 = templateOf(t, set2, email);
    const { id } = await createCategory(t, {
      recipients: [
        { position: 'TO', recipientId: r.id },
        { position: 'CC', recipientId: r2.id },
      ],
      templates: [{ commChannelName: 'Email', templateId: e2.templateId, templatesetId: set2.id }],
    });
    const merge = await putCategory(t, id, { recipients: [{ operation: 'ADD', position: 'BCC', recipientId: r.id }] });
    const merged = listIn(await getCategory(t, id), 'recipients')
      .filter((x) => x.recipientId === r.id)
      .map((x) => x.position);
    t.check('notification/categories/update-add-merges', merge.status === 204 && JSON.stringify(merged) === '["BCC"]', {
      title: 'ADD of a recipient the category has did not merge',
      expected: 'HTTP 204 and the recipient listed once, at BCC',
      received: `HTTP ${merge.status}, positions ${JSON.stringify(merged)}`,
    });
    const drop = await putCategory(t, id, {
      recipients: [{ operation: 'DELETE', position: 'BCC', recipientId: r.id }],
    });
    const held = listIn(await getCategory(t, id), 'recipients');
    const left = held.filter((x) => x.recipientId === r.id).length;
    const kept = held.filter((x) => x.recipientId === r2.id).length;
    t.check('notification/categories/update-delete-removes', drop.status === 204 && left === 0 && kept === 1, {
      title: 'recipient DELETE not applied to that recipient alone',
      expected: `HTTP 204, recipient ${r.id} gone and recipient ${r2.id} still listed`,
      received: `HTTP ${drop.status}, ${r.id} listed ${left} times, ${r2.id} ${kept} times`,
    });
    const item = { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id };
    const count = async () =>
      listIn(await getCategory(t, id), 'templates').filter((x) => x.templateId === e.templateId).length;
    for (const round of [1, 2]) {
      const res = await putCategory(t, id, { templates: [{ ...item, operation: 'ADD' }] });
      const n = await count();
      t.check('notification/categories/update-add-merges', res.status === 204 && n === 1, {
        title: `template ADD #${round} not held once`,
        expected: 'HTTP 204 and the template listed once',
        received: `HTTP ${res.status}, listed ${n} times`,
      });
    }
    const del = await putCategory(t, id, { templates: [{ ...item, operation: 'DELETE' }] });
    const templates = listIn(await getCategory(t, id), 'templates');
    const n = templates.filter((x) => x.templateId === e.templateId).length;
    const other = templates.filter((x) => x.templateId === e2.templateId).length;
    t.check('notification/categories/update-delete-removes', del.status === 204 && n === 0 && other === 1, {
      title: 'template DELETE not applied to that template alone',
      expected: `HTTP 204, template ${e.templateId} gone and template ${e2.templateId} still listed`,
      received: `HTTP ${del.status}, ${e.templateId} listed ${n} times, ${e2.templateId} ${other} times`,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 17 },
);

test(
  ['notification/categories/update-add-merges', 'notification/categories/update-delete-removes'],
  'step by step: a recipient group ADDed again takes the new position, held once; a second group ADDed beside it is added; DELETE removes it',
  async (t) => {
    const g = await createGroup(t);
    const { id } = await createCategory(t);
    const groupsOf = async () => listIn(await getCategory(t, id, { recGroup: 'true' }), 'recipientGroups');
    const positions = async () => (await groupsOf()).filter((x) => x.recipientGroupId === g.id).map((x) => x.position);
    for (const position of ['TO', 'BCC']) {
      const res = await putCategory(t, id, { recipients: [{ operation: 'ADD', position, recipientGroupId: g.id }] });
      const held = await positions();
      t.check(
        'notification/categories/update-add-merges',
        res.status === 204 && JSON.stringify(held) === `["${position}"]`,
        {
          title: `group ADD at ${position} not held once at ${position}`,
          expected: `HTTP 204 and the group listed once (GET ?recGroup=true), at ${position}`,
          received: `HTTP ${res.status}, positions ${JSON.stringify(held)}`,
        },
      );
    }
    // "ADD supports new or merge": a group the category lacks is added, the group it has keeps its position.
    const other = await createGroup(t);
    const added = await putCategory(t, id, {
      recipients: [{ operation: 'ADD', position: 'CC', recipientGroupId: other.id }],
    });
    const both = (await groupsOf())
      .filter((x) => x.recipientGroupId === g.id || x.recipientGroupId === other.id)
      .map((x) => `${String(x.recipientGroupId)}:${String(x.position)}`)
      .sort();
    const want = [`${g.id}:BCC`, `${other.id}:CC`].sort();
    t.check(
      'notification/categories/update-add-merges',
      added.status === 204 && JSON.stringify(both) === JSON.stringify(want),
      {
        title: 'ADD of a second recipient group did not add it beside the first',
        expected: `HTTP 204 and the groups ${want.join(', ')} (GET ?recGroup=true)`,
        received: `HTTP ${added.status}, groups ${both.join(', ') || 'none'}`,
      },
    );
    const del = await putCategory(t, id, {
      recipients: [{ operation: 'DELETE', position: 'BCC', recipientGroupId: g.id }],
    });
    const after = await groupsOf();
    const left = after.filter((x) => x.recipientGroupId === g.id).map((x) => x.position);
    const kept = after.some((x) => x.recipientGroupId === other.id);
    t.check('notification/categories/update-delete-removes', del.status === 204 && left.length === 0 && kept, {
      title: 'recipient group DELETE not applied to that group alone',
      expected: `HTTP 204, group ${g.id} gone and group ${other.id} still held (GET ?recGroup=true)`,
      received: `HTTP ${del.status}, positions of ${g.id} ${JSON.stringify(left)}, ${other.id} ${kept ? 'held' : 'gone'}`,
    });
  },
  { budget: 14 },
);

test(
  [
    'notification/categories/update-204',
    'notification/categories/update-204-body-contradiction',
    'notification/errors/code-no-match',
  ],
  'PUT /communicationcategories/{id} answers 204 and applies the change; an unknown ID answers 404',
  async (t) => {
    const { id, body } = await createCategory(t);
    const before = view(await getCategory(t, id));
    const res = await putCategory(t, id, { subject: 'ChangedSubject', priority: 5 });
    accepted(t, 'notification/categories/update-204', res, 'a valid update', [204]);
    t.observe(
      'notification/categories/update-204-body-contradiction',
      res.text ? `204 with a body (${res.contentType}): ${res.text.slice(0, 80)}` : '204 with no body',
    );
    const got = await getCategory(t, id);
    // The change is the fields given: msgCategoryName and from, not given, stay as they were.
    t.check(
      'notification/categories/update-204',
      view(got).subject === 'ChangedSubject' &&
        view(got).priority === 5 &&
        view(got).msgCategoryName === body.msgCategoryName &&
        view(got).from === before.from,
      {
        title: 'update not applied, or a field not given changed',
        expected: `subject ChangedSubject, priority 5, msgCategoryName ${String(body.msgCategoryName)} and from ${JSON.stringify(before.from)} kept`,
        received: seen(got),
      },
    );
    // "Same fields as CreateCommunicationCategory": the name and the application name are updated too.
    const name = `${t.prefix}renamed${tag()}`;
    const app = `${t.prefix}newapp`;
    accepted(
      t,
      'notification/categories/update-204',
      await putCategory(t, id, { msgCategoryName: name, from: app }),
      'an update of msgCategoryName and from',
      [204],
    );
    const renamed = await getCategory(t, id);
    const from = view(renamed).from;
    t.check(
      'notification/categories/update-204',
      view(renamed).msgCategoryName === name &&
        typeof from === 'string' &&
        from.includes(app) &&
        view(renamed).subject === 'ChangedSubject' &&
        view(renamed).priority === 5,
      {
        title: 'update of msgCategoryName or from not applied, or a field not given changed',
        expected: `msgCategoryName ${name}, from built of ${app}, subject ChangedSubject and priority 5 kept`,
        received: seen(renamed),
      },
    );
    refused(
      t,
      'notification/categories/update-204',
      await putCategory(t, UNKNOWN_ID, { subject: 'Whatever' }),
      `an update of category ${UNKNOWN_ID}`,
      'noMatch',
      [404],
    );
  },
  { budget: 8 },
);

test(
  [
    'notification/categories/search-fields-required',
    'notification/errors/code-missing-parameter',
    'notification/errors/code-invalid-parameter',
  ],
  'GET /communicationcategories/search/ needs fields of recipient_count and channels',
  async (t) => {
    refused(
      t,
      'notification/categories/search-fields-required',
      await send(t, { method: 'GET', path: '/communicationcategories/search/' }),
      'a search without fields',
      'missingParameter',
    );
    // "supported: recipient_count, channels" lists what works: refusing other names (rather than
    // computing only the supported ones) is our reading.
    for (const fields of ['name', 'recipient_count,owner', 'RECIPIENT_COUNT']) {
      answeredByReading(
        t,
        'notification/categories/search-fields-required',
        await send(t, { method: 'GET', path: '/communicationcategories/search/', query: { fields } }),
        `fields=${fields}`,
        'unsupported-fields-refused',
        [200, ...CLIENT_ERRORS],
        400,
        'invalidParameter',
      );
    }
    for (const fields of ['recipient_count', 'channels']) {
      accepted(
        t,
        'notification/categories/search-fields-required',
        await send(t, { method: 'GET', path: '/communicationcategories/search/', query: { fields } }),
        `fields=${fields}`,
        [200],
      );
    }
  },
  { readOnly: true, budget: 6 },
);

test(
  ['notification/categories/search-result'],
  'GET /communicationcategories/search/?fields=recipient_count,channels gives counts and channel names per category',
  async (t) => {
    const email = channelId(t, 'email');
    // The SMS and push channel IDs where the run configuration gives them (email alone otherwise).
    const channels = fixturesOf(t).channels ?? {};
    const more = (
      [
        [channels.sms, 'SMS', 'SMS'],
        [channels.push, 'Push Notification', 'push notification'],
      ] as const
    ).filter(([id]) => Number.isInteger(id)) as ReadonlyArray<readonly [number, string, string]>;
    const r1 = await createRecipient(t);
    const r2 = await createRecipient(t);
    // Two members that are not recipients of the category themselves: 2 direct, 4 reached in all.
    const m1 = await createRecipient(t);
    const m2 = await createRecipient(t);
    // One template per channel: "channelNames (array of string: email, SMS, push notification)".
    const set = await createTemplateSet(t, { channels: [email, ...more.map(([id]) => id)] });
    const group = await postGroup(t, {
      groupName: groupName(t),
      recipientIds: [{ recipientId: m1.id }, { recipientId: m2.id }],
    });
    const recipients: Array<Record<string, unknown>> = [
      { position: 'TO', recipientId: r1.id },
      { position: 'CC', recipientId: r2.id },
    ];
    if (group.id !== undefined) recipients.push({ position: 'BCC', recipientGroupId: group.id });
    const { id, body } = await createCategory(t, {
      recipients,
      templates: [
        { commChannelName: 'Email', templateId: templateOf(t, set, email).templateId, templatesetId: set.id },
        ...more.map(([id, commChannelName]) => ({
          commChannelName,
          templateId: templateOf(t, set, id).templateId,
          templatesetId: set.id,
        })),
      ],
    });
    const res = await send(t, {
      method: 'GET',
      path: '/communicationcategories/search/',
      query: { fields: 'recipient_count,channels' },
    });
    const items = (Array.isArray(res.json) ? res.json : [res.json]) as Array<Record<string, unknown> | undefined>;
    const item = items.find((x) => x?.msgCategoryId === id);
    t.check('notification/categories/search-result', res.status === 200 && !!item, {
      title: 'category not in the search result',
      expected: `HTTP 200 with msgCategoryId ${id}`,
      received: seen(res),
    });
    const names = Array.isArray(item!.channelNames) ? (item!.channelNames as unknown[]) : [];
    const groups = group.id === undefined ? 0 : 1;
    // Whether the recipients of the category's groups count is our reading: either count is a count of recipients.
    const counts = groups ? [2, 4] : [2];
    t.check(
      'notification/categories/search-result',
      item!.msgCategoryName === body.msgCategoryName &&
        counts.includes(item!.recipientCount as number) &&
        item!.recipientGroupCount === groups &&
        ['email', ...more.map(([, , listed]) => listed)].every((n) => names.includes(n)) &&
        names.every((n) => ['email', 'SMS', 'push notification'].includes(n as string)),
      {
        title: 'search item wrong',
        expected: `msgCategoryName ${String(body.msgCategoryName)}, recipientCount ${counts.join(' or ')}, recipientGroupCount ${groups}, channelNames [${['email', ...more.map(([, , listed]) => listed)].join(', ')}]`,
        received: JSON.stringify(item),
      },
    );
    t.reading('recipient-count-direct', 'notification/categories/search-result', item!.recipientCount === 2, {
      title: 'recipientCount counts the members of the groups too',
      expected: 'recipientCount 2 (the recipients named directly; the group is counted in recipientGroupCount)',
      received: `recipientCount ${JSON.stringify(item!.recipientCount)}`,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 12 },
);

test(
  ['notification/categories/unsubscribe', 'notification/errors/code-no-match'],
  'POST /communicationcategories/unsubscribe/recipients removes the recipients from the category',
  async (t) => {
    const r1 = await createRecipient(t);
    const r2 = await createRecipient(t);
    const { id } = await createCategory(t, {
      recipients: [
        { position: 'TO', recipientId: r1.id },
        { position: 'CC', recipientId: r2.id },
      ],
    });
    const path = '/communicationcategories/unsubscribe/recipients';
    const res = await send(t, {
      method: 'POST',
      path,
      json: { msgCategoryId: id, recipients: [{ recipientId: r1.id }] },
    });
    accepted(t, 'notification/categories/unsubscribe', res, 'unsubscribing one recipient', [200]);
    // "recipients (array of objects with recipientId int64)": a bare ID is not such an object.
    refused(
      t,
      'notification/categories/unsubscribe',
      await send(t, { method: 'POST', path, json: { msgCategoryId: id, recipients: [r2.id] } }),
      `recipients [${r2.id}] (an ID, not an object with recipientId)`,
    );
    const got = await getCategory(t, id);
    const ids = listIn(got, 'recipients').map((x) => x.recipientId);
    t.check('notification/categories/unsubscribe', !ids.includes(r1.id) && ids.includes(r2.id), {
      title: 'unsubscribe not applied',
      expected: `recipients without ${r1.id}, with ${r2.id}`,
      received: JSON.stringify(ids),
    });
    unknownRefused(
      t,
      'notification/categories/unsubscribe',
      await send(t, {
        method: 'POST',
        path,
        json: { msgCategoryId: UNKNOWN_ID, recipients: [{ recipientId: r2.id }] },
      }),
      `msgCategoryId ${UNKNOWN_ID}`,
    );
    // The document lists the two fields without marking them required: a 400 without either is our reading.
    const noRecipients = await send(t, { method: 'POST', path, json: { msgCategoryId: id } });
    t.reading('unsubscribe-fields-required', 'notification/categories/unsubscribe', noRecipients.status === 400, {
      title: 'not refused: an unsubscribe without recipients',
      expected: 'HTTP 400 for an unsubscribe without recipients',
      received: seen(noRecipients),
    });
    const noCategory = await send(t, { method: 'POST', path, json: { recipients: [{ recipientId: r2.id }] } });
    t.check('notification/categories/unsubscribe', noCategory.status >= 400 && noCategory.status < 500, {
      title: 'not refused: an unsubscribe without msgCategoryId',
      expected: 'a 4xx status for an unsubscribe naming no category (400 by our reading)',
      received: seen(noCategory),
    });
    t.reading('unsubscribe-fields-required', 'notification/categories/unsubscribe', noCategory.status === 400, {
      title: 'an unsubscribe without msgCategoryId not answered 400',
      expected: 'HTTP 400 for an unsubscribe without msgCategoryId',
      received: seen(noCategory),
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 10 },
);

test(
  ['notification/categories/tenant-isolation', 'notification/errors/code-no-match'],
  'another tenant neither reads, updates, deletes nor lists a category',
  async (t) => {
    if (!hasOtherTenant(t))
      t.needsPrincipal('principals.otherTenant', 'needs the otherTenant principal (a second tenant)');
    const { id } = await createCategory(t);
    foreignRefused(
      t,
      'notification/categories/tenant-isolation',
      await getCategory(t, id, undefined, 'otherTenant'),
      "another tenant's GET",
    );
    foreignRefused(
      t,
      'notification/categories/tenant-isolation',
      await putCategory(t, id, { subject: 'Hijacked' }, 'otherTenant'),
      "another tenant's PUT",
    );
    foreignRefused(
      t,
      'notification/categories/tenant-isolation',
      await send(t, { method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: id } }, 'otherTenant'),
      "another tenant's DELETE",
    );
    const list = await send(t, { method: 'GET', path: '/communicationcategories/' }, 'otherTenant');
    const leaked =
      Array.isArray(list.json) && (list.json as Array<Record<string, unknown>>).some((x) => x?.msgCategoryId === id);
    t.check('notification/categories/tenant-isolation', !leaked, {
      title: 'another tenant lists the category',
      severity: 'critical',
      expected: `no category ${id}`,
      received: seen(list),
    });
    const still = await getCategory(t, id);
    t.check('notification/categories/tenant-isolation', still.status === 200 && view(still).subject !== 'Hijacked', {
      title: "the category changed after another tenant's requests",
      severity: 'critical',
      expected: 'HTTP 200, subject unchanged',
      received: seen(still),
    });
  },
  { needs: ['principals.otherTenant'], budget: 7 },
);
