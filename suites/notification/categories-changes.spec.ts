import fc from 'fast-check';
import {
  holds,
  applied,
  matchesSchema,
  refused,
  served,
  storedAsSent,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import {
  addressType,
  exampleEmail,
  channelId,
  fixturesOf,
  homeTenant,
  notificationTest as test,
  send,
} from './notification-client.ts';
import {
  createCategory,
  createGroup,
  createRecipient,
  createTemplateSet,
  templateOf,
} from './notification-resources.ts';
import {
  getCategory,
  putCategory,
  view,
  listIn,
  AddRecipient,
  DeleteRecipient,
  type Position,
  type Members,
  type Real,
} from './categories-support.ts';

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
    served(t, {
      rule: 'notification/categories/get-fields',
      res: got,
      what: 'GET of the category',
    });
    await matchesSchema(t, 'notification/categories/get-fields', got.json, 'GetCommunicationCategory', 'the category');
    const tenant = await homeTenant(t);
    storedAsSent(t, {
      rule: 'notification/categories/get-fields',
      what: `the top-level fields of category ${id} (createdby ${tenant ?? 'the tenant'})`,
      stored: v,
      sent: {
        createdby: (c: unknown) => typeof c === 'string' && (!tenant || c === tenant),
        from: (f: unknown) => typeof f === 'string',
        msgCategoryId: id,
        msgCategoryName: body.msgCategoryName,
        priority: 1,
        subject: body.subject,
      },
      soft: true,
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
      storedAsSent(t, {
        rule: 'notification/categories/get-fields',
        what: `recipient ${who.id} of the category, its details [{address ${who.email}, commChannelName Email, recipientAddressTypeName, recipientId}]`,
        stored: rec,
        sent: { position, recipientName: who.name, recipientDetails: () => detailOk },
        soft: true,
      });
    }
    for (const [tid, s] of [
      [e.templateId, set],
      [e2.templateId, set2],
    ] as const) {
      const tpl = (Array.isArray(v.templates) ? v.templates : []).find((x) => x.templateId === tid);
      storedAsSent(t, {
        rule: 'notification/categories/get-fields',
        what: `template ${tid} of the category`,
        stored: tpl,
        sent: { commChannelName: 'Email', templatesetId: s.id, templatesetName: s.name },
        soft: true,
      });
    }
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 7 },
);

test(
  ['notification/categories/get-recipient-groups', 'notification/errors/code-invalid-parameter'],
  "GET /communicationcategories/{id}?recGroup=true lists the category's groups; another recGroup is refused",
  async (t) => {
    const g = await createGroup(t);
    const { id } = await createCategory(t, { recipients: [{ position: 'BCC', recipientGroupId: g.id }] });
    const got = await getCategory(t, id, { recGroup: 'true' });
    const item = listIn(got, 'recipientGroups').find((x) => x.recipientGroupId === g.id);
    storedAsSent(t, {
      rule: 'notification/categories/get-recipient-groups',
      res: got,
      what: `recipient group ${g.id} of the category, with recGroup=true`,
      stored: item,
      sent: { recipientGroupName: g.name, position: 'BCC' },
    });
    // "recGroup (string true/false, optional, ...)": false is one of the two values.
    const without = await getCategory(t, id, { recGroup: 'false' });
    served(t, {
      rule: 'notification/categories/get-recipient-groups',
      res: without,
      what: 'recGroup=false (one of the values true/false)',
    });
    // A value other than true/false may be refused or read as false: refusing it is our reading.
    answeredByReading(t, {
      rule: 'notification/categories/get-recipient-groups',
      res: await getCategory(t, id, { recGroup: 'yes' }),
      what: 'recGroup=yes',
      reading: 'recgroup-value-checked',
      allowed: [200, ...CLIENT_ERRORS],
      wanted: 400,
      ...withCode('invalidParameter'),
    });
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
    storedAsSent(t, {
      rule: 'notification/categories/get-fields',
      res: got,
      what: "each address's channel, in recipientDetails",
      stored: Object.fromEntries(want.map(([a], i) => [a, named[i]])),
      sent: Object.fromEntries(want),
    });
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
    refused(t, {
      rule: 'notification/categories/delete-ids-required',
      res: await send(t, { method: 'DELETE', path: '/communicationcategories/' }),
      what: 'a DELETE without categoryIds',
      ...withCode('missingParameter'),
    });
  },
  { budget: 1 },
);

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
    applied(t, {
      rule: 'notification/categories/update-add-merges',
      res: merge,
      what: 'ADD of a recipient the category has, merged (listed once, at BCC)',
      want: ['BCC'],
      got: merged,
    });
    const drop = await putCategory(t, id, {
      recipients: [{ operation: 'DELETE', position: 'BCC', recipientId: r.id }],
    });
    const held = listIn(await getCategory(t, id), 'recipients');
    const left = held.filter((x) => x.recipientId === r.id).length;
    const kept = held.filter((x) => x.recipientId === r2.id).length;
    applied(t, {
      rule: 'notification/categories/update-delete-removes',
      res: drop,
      what: `recipient DELETE of ${r.id} alone (times each is listed)`,
      want: { [r.id]: 0, [r2.id]: 1 },
      got: { [r.id]: left, [r2.id]: kept },
    });
    const item = { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id };
    const templateIds = async () => listIn(await getCategory(t, id), 'templates').map((x) => x.templateId);
    for (const round of [1, 2]) {
      const res = await putCategory(t, id, { templates: [{ ...item, operation: 'ADD' }] });
      const held = await templateIds();
      const n = held.filter((x) => x === e.templateId).length;
      applied(t, {
        rule: 'notification/categories/update-add-merges',
        res,
        what: `template ADD #${round}, held once (times listed)`,
        want: 1,
        got: n,
      });
      // "ADD supports new or merge" does not say what an ADD merges with: that a second Email
      // template is added beside the first, not merged with it, is our reading.
      if (round === 1)
        holds(t, {
          rule: 'notification/categories/update-add-merges',
          ok: held.includes(e2.templateId),
          failure: 'ADD of a second Email template replaced the Email template the category held',
          expected: `templates ${e2.templateId} and ${e.templateId}`,
          received: JSON.stringify(held),
          reading: 'template-added-beside-same-channel',
        });
    }
    // DELETE removes the template it names and no other: judged against the templates held just before it.
    const before = await templateIds();
    const del = await putCategory(t, id, { templates: [{ ...item, operation: 'DELETE' }] });
    const after = await templateIds();
    applied(t, {
      rule: 'notification/categories/update-delete-removes',
      res: del,
      what: `template DELETE of ${e.templateId} (whether it is still listed)`,
      want: false,
      got: after.includes(e.templateId),
    });
    applied(t, {
      rule: 'notification/categories/update-delete-removes',
      what: `template DELETE of ${e.templateId}, the others kept (those lost)`,
      want: [],
      got: before.filter((x) => x !== e.templateId && !after.includes(x)),
    });
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.channels.email'], budget: 18 },
);
