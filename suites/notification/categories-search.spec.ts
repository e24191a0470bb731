import {
  holds,
  accepted,
  applied,
  listed,
  refused,
  storedAsSent,
  UNKNOWN_REFUSAL,
  withCode,
} from '../engine/checks/index.ts';
import { UNKNOWN_ID, channelId, fixturesOf, notificationTest as test, send, tag } from './notification-client.ts';
import {
  createCategory,
  createGroup,
  createRecipient,
  createTemplateSet,
  groupName,
  postGroup,
  templateOf,
} from './notification-resources.ts';
import { getCategory, putCategory, view, listIn } from './categories-support.ts';

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
      applied(t, {
        rule: 'notification/categories/update-add-merges',
        res,
        what: `group ADD at ${position}, held once at ${position} (GET ?recGroup=true)`,
        want: [position],
        got: held,
      });
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
    applied(t, {
      rule: 'notification/categories/update-add-merges',
      res: added,
      what: 'ADD of a second recipient group, beside the first (GET ?recGroup=true)',
      want,
      got: both,
    });
    const del = await putCategory(t, id, {
      recipients: [{ operation: 'DELETE', position: 'BCC', recipientGroupId: g.id }],
    });
    const after = await groupsOf();
    const left = after.filter((x) => x.recipientGroupId === g.id).map((x) => x.position);
    const kept = after.some((x) => x.recipientGroupId === other.id);
    applied(t, {
      rule: 'notification/categories/update-delete-removes',
      res: del,
      what: `recipient group DELETE of ${g.id} alone, ${other.id} kept (GET ?recGroup=true)`,
      want: { [g.id]: [], [other.id]: 'held' },
      got: { [g.id]: left, [other.id]: kept ? 'held' : 'gone' },
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
    accepted(t, { rule: 'notification/categories/update-204', res, what: 'a valid update', statuses: [204] });
    t.observe(
      'notification/categories/update-204-body-contradiction',
      res.text ? `204 with a body (${res.contentType}): ${res.text.slice(0, 80)}` : '204 with no body',
    );
    const got = await getCategory(t, id);
    // The change is the fields given: msgCategoryName and from, not given, stay as they were.
    storedAsSent(t, {
      rule: 'notification/categories/update-204',
      what: 'the updated category (the fields not given kept)',
      stored: view(got),
      sent: { subject: 'ChangedSubject', priority: 5, msgCategoryName: body.msgCategoryName, from: before.from },
    });
    // "Same fields as CreateCommunicationCategory": the name and the application name are updated too.
    const name = `${t.prefix}renamed${tag()}`;
    const app = `${t.prefix}newapp`;
    accepted(t, {
      rule: 'notification/categories/update-204',
      res: await putCategory(t, id, { msgCategoryName: name, from: app }),
      what: 'an update of msgCategoryName and from',
      statuses: [204],
    });
    const renamed = await getCategory(t, id);
    storedAsSent(t, {
      rule: 'notification/categories/update-204',
      what: `the category renamed, its from built of ${app} (the fields not given kept)`,
      stored: view(renamed),
      sent: {
        msgCategoryName: name,
        from: (v: unknown) => typeof v === 'string' && v.includes(app),
        subject: 'ChangedSubject',
        priority: 5,
      },
    });
    refused(t, {
      rule: 'notification/categories/update-204',
      res: await putCategory(t, UNKNOWN_ID, { subject: 'Whatever' }),
      what: `an update of category ${UNKNOWN_ID}`,
      ...withCode('noMatch'),
      statuses: [404],
    });
  },
  { budget: 8 },
);

test(
  ['notification/categories/search-fields-required', 'notification/errors/code-missing-parameter'],
  'GET /communicationcategories/search/ needs fields, and takes recipient_count and channels',
  async (t) => {
    refused(t, {
      rule: 'notification/categories/search-fields-required',
      res: await send(t, { method: 'GET', path: '/communicationcategories/search/' }),
      what: 'a search without fields',
      ...withCode('missingParameter'),
    });
    // Other names in fields, wherever they stand: categories-lists.spec.ts.
    for (const fields of ['recipient_count', 'channels']) {
      accepted(t, {
        rule: 'notification/categories/search-fields-required',
        res: await send(t, { method: 'GET', path: '/communicationcategories/search/', query: { fields } }),
        what: `fields=${fields}`,
        statuses: [200],
      });
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
    listed(t, {
      rule: 'notification/categories/search-result',
      res,
      what: `category ${id}, in the search result`,
      items: [id],
      holds: () => !!item,
    });
    const names = Array.isArray(item!.channelNames) ? (item!.channelNames as unknown[]) : [];
    const groups = group.id === undefined ? 0 : 1;
    // Whether the recipients of the category's groups count is our reading: either count is a count of recipients.
    const counts = groups ? [2, 4] : [2];
    storedAsSent(t, {
      rule: 'notification/categories/search-result',
      what: `category ${id}, as the search shows it`,
      stored: item,
      sent: {
        msgCategoryName: body.msgCategoryName,
        recipientCount: (v: unknown) => counts.includes(v as number),
        recipientGroupCount: groups,
        channelNames: () =>
          ['email', ...more.map(([, , listed]) => listed)].every((n) => names.includes(n)) &&
          names.every((n) => ['email', 'SMS', 'push notification'].includes(n as string)),
      },
    });
    holds(t, {
      rule: 'notification/categories/search-result',
      ok: item!.recipientCount === 2,
      failure: 'recipientCount counts the members of the groups too',
      expected: 'recipientCount 2 (the recipients named directly; the group is counted in recipientGroupCount)',
      received: `recipientCount ${JSON.stringify(item!.recipientCount)}`,
      reading: 'recipient-count-direct',
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
    accepted(t, {
      rule: 'notification/categories/unsubscribe',
      res,
      what: 'unsubscribing one recipient',
      statuses: [200],
    });
    // "recipients (array of objects with recipientId int64)": a bare ID is not such an object.
    refused(t, {
      rule: 'notification/categories/unsubscribe',
      res: await send(t, { method: 'POST', path, json: { msgCategoryId: id, recipients: [r2.id] } }),
      what: `recipients [${r2.id}] (an ID, not an object with recipientId)`,
    });
    const got = await getCategory(t, id);
    const ids = listIn(got, 'recipients').map((x) => x.recipientId);
    applied(t, {
      rule: 'notification/categories/unsubscribe',
      what: `unsubscribe of ${r1.id}, ${r2.id} kept`,
      want: { [r1.id]: false, [r2.id]: true },
      got: { [r1.id]: ids.includes(r1.id), [r2.id]: ids.includes(r2.id) },
    });
    refused(t, {
      rule: 'notification/categories/unsubscribe',
      res: await send(t, {
        method: 'POST',
        path,
        json: { msgCategoryId: UNKNOWN_ID, recipients: [{ recipientId: r2.id }] },
      }),
      what: `msgCategoryId ${UNKNOWN_ID}`,
      ...UNKNOWN_REFUSAL,
    });
    // The document lists the two fields without marking them required: a 400 without either is our reading.
    const noRecipients = await send(t, { method: 'POST', path, json: { msgCategoryId: id } });
    refused(t, {
      rule: 'notification/categories/unsubscribe',
      res: noRecipients,
      what: 'an unsubscribe without recipients',
      reading: 'unsubscribe-fields-required',
    });
    const noCategory = await send(t, { method: 'POST', path, json: { recipients: [{ recipientId: r2.id }] } });
    refused(t, {
      rule: 'notification/categories/unsubscribe',
      res: noCategory,
      what: 'an unsubscribe without msgCategoryId',
      statusReading: 'unsubscribe-fields-required',
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 10 },
);
