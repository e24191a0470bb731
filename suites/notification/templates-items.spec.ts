import {
  holds,
  accepted,
  listed,
  notListed,
  refused,
  storedAsSent,
  unchanged,
  answeredByReading,
  genericCode,
  withCode,
} from '../engine/checks/index.ts';
import {
  UNKNOWN_ID,
  channelId,
  notificationTest as test,
  paramTypeId,
  seen,
  send,
  templateForm,
} from './notification-client.ts';
import { createTemplateSet, postTemplateSet, setName, templateOf } from './notification-resources.ts';
import { putSet, idList, file, info, param } from './templates-support.ts';

test(
  ['notification/templates/channel-id'],
  'communicationChannel is taken as a channel ID of GET /communicationchannel/',
  async (t) => {
    const push = channelId(t, 'push');
    const set = await createTemplateSet(t, { channels: [push] });
    storedAsSent(t, {
      rule: 'notification/templates/channel-id',
      what: `a template of channel ${push} (push)`,
      stored: { channels: set.templates.map((x) => x.commChannelId) },
      sent: { channels: (c: unknown) => Array.isArray(c) && c.includes(push) },
    });
    // A channel that is not a listed ID, wherever its item stands: templates-lists.spec.ts.
  },
  { needs: ['fixtures.notification.channels.push'], budget: 1 },
);

test(
  ['notification/templates/create-operation-add-only'],
  'on create an item without operation is taken as ADD',
  async (t) => {
    const email = channelId(t, 'email');
    const f = file();
    const ok = await postTemplateSet(
      t,
      templateForm(
        { templatesetName: setName(t), templateChannelAndFile: [{ communicationChannel: email, fileName: f.name }] },
        [f],
      ),
    );
    storedAsSent(t, {
      rule: 'notification/templates/create-operation-add-only',
      res: ok,
      statuses: [201],
      what: 'an item without operation, taken as ADD (one template)',
      stored: ok.json as object | undefined,
      sent: { templateList: (l: unknown) => Array.isArray(l) && l.length === 1 },
    });
    // Another operation, wherever its item stands: templates-lists.spec.ts.
  },
  { needs: ['fixtures.notification.channels.email'], budget: 1 },
);

test(
  ['notification/templates/create-new-set-only', 'notification/errors/code-conflict'],
  'POST /template/ with the name of an existing set leaves that set unchanged (and is refused, by our reading)',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    const before = await idList(t, set.id);
    const f = file();
    const res = await postTemplateSet(t, templateForm(info(set.name, [[channelId(t, 'sms'), f.name]]), [f]));
    const what = `a second set named "${set.name}"`;
    // Set names are never said to be unique: a create taken as a new set of the same name is allowed;
    // adding to the existing set is not. That the name is refused is our reading.
    if (res.status === 201)
      storedAsSent(t, {
        rule: 'notification/templates/create-new-set-only',
        res,
        statuses: [201],
        what: `${what}, created as a new set (a templatesetId other than ${set.id})`,
        stored: res.json as object | undefined,
        sent: { templatesetId: (id: unknown) => id !== undefined && id !== set.id },
      });
    else refused(t, { rule: 'notification/templates/create-new-set-only', res, what, statuses: [409, 400] });
    refused(t, {
      rule: 'notification/templates/create-new-set-only',
      res,
      what,
      statuses: [409, 400],
      reading: 'set-name-unique',
    });
    genericCode(t, res, 'conflict');
    const after = await idList(t, set.id);
    unchanged(t, {
      rule: 'notification/templates/create-new-set-only',
      res: after,
      intact: after.status === 200 && after.text === before.text,
      what: `${what} (the existing set's template IDs)`,
      expected: seen(before, 120),
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 5 },
);

test(
  ['notification/templates/update-add-needs-file-name'],
  "a DELETE item without fileName removes the channel's template",
  async (t) => {
    const email = channelId(t, 'email');
    const sms = channelId(t, 'sms');
    const set = await createTemplateSet(t, { channels: [email, sms] });
    const smsTemplate = templateOf(t, set, sms);
    const emailTemplate = templateOf(t, set, email);
    // An ADD item without fileName, wherever it stands: templates-lists.spec.ts.
    const del = await putSet(
      t,
      set.id,
      templateForm(
        { templatesetName: set.name, templateChannelAndFile: [{ communicationChannel: sms, operation: 'DELETE' }] },
        [],
      ),
    );
    accepted(t, {
      rule: 'notification/templates/update-add-needs-file-name',
      res: del,
      what: 'a DELETE item without fileName',
      statuses: [200],
    });
    const ids = await idList(t, set.id);
    listed(t, {
      rule: 'notification/templates/update-add-needs-file-name',
      res: ids,
      what: "the set's templates after a DELETE without fileName",
      items: [emailTemplate.templateId],
      anyStatus: true,
    });
    notListed(t, {
      rule: 'notification/templates/update-add-needs-file-name',
      res: ids,
      what: "the set's templates after a DELETE without fileName",
      items: [smsTemplate.templateId],
      anyStatus: true,
    });
  },
  {
    needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'],
    budget: 3,
  },
);

test(
  ['notification/templates/params-add-only'],
  "templateParam items of PUT /template/{id} are added to the set's parameters",
  async (t) => {
    const p1 = param(t);
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')], params: [p1] });
    const p2 = param(t);
    const res = await putSet(t, set.id, templateForm({ templatesetName: set.name, templateParam: [p2] }, []));
    const params = await send(t, { method: 'GET', path: `/templateparam/${set.id}` });
    accepted(t, {
      rule: 'notification/templates/params-add-only',
      res,
      what: 'an update adding a parameter',
      statuses: [200],
    });
    listed(t, {
      rule: 'notification/templates/params-add-only',
      res: params,
      what: 'the first parameter and the one added',
      items: [p1.paramName as string, p2.paramName as string],
      anyStatus: true,
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 4 },
);

test(
  ['notification/templates/param-type-id'],
  'a paramTypeId of GET /paramtype/ is taken',
  async (t) => {
    const email = channelId(t, 'email');
    // A type ID the listing does not hold, wherever its parameter stands: templates-lists.spec.ts.
    const f = file();
    accepted(t, {
      rule: 'notification/templates/param-type-id',
      res: await postTemplateSet(
        t,
        templateForm(info(setName(t), [[email, f.name]], { templateParam: [param(t)] }), [f]),
      ),
      what: `paramTypeId ${paramTypeId(t)}`,
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 1 },
);

test(
  ['notification/templates/content-text-plain', 'notification/errors/code-no-match'],
  'GET /template/templatecontent/{templateId} answers the uploaded file as text/plain; unknown 404',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    const tpl = templateOf(t, set, email);
    const res = await send(t, { method: 'GET', path: `/template/templatecontent/${tpl.templateId}` });
    // "200 text/plain string" of the template: its content, naming what the file names. That it is the
    // file byte for byte (not stored processed) is our reading.
    const label = `${set.name} channel ${email}`;
    listed(t, {
      rule: 'notification/templates/content-text-plain',
      res,
      what: 'the template content, as text/plain',
      items: [label],
      holds: (r, l) => r.contentType === 'text/plain' && r.text.includes(String(l)),
    });
    holds(t, {
      rule: 'notification/templates/content-text-plain',
      ok: res.text === set.contents.get(email),
      failure: 'template content not answered as uploaded',
      expected: String(set.contents.get(email)),
      received: seen(res),
      reading: 'content-as-uploaded',
    });
    refused(t, {
      rule: 'notification/templates/content-text-plain',
      res: await send(t, { method: 'GET', path: `/template/templatecontent/${UNKNOWN_ID}` }),
      what: `unknown template ${UNKNOWN_ID}`,
      ...withCode('noMatch'),
      statuses: [404],
    });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
);

test(
  ['notification/templates/id-list', 'notification/errors/code-no-match'],
  'GET /template/templateidlist/{id} answers the template IDs of the set; unknown 404',
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email'), channelId(t, 'push')] });
    const res = await idList(t, set.id);
    listed(t, {
      rule: 'notification/templates/id-list',
      res,
      what: 'the template IDs of the set',
      items: set.templates.map((x) => x.templateId),
      nonEmpty: true,
    });
    // A set ID naming no set: 404 noMatch, or the set's (empty) list of template IDs; the document gives
    // this listing no not-found answer. 404 is our reading.
    answeredByReading(t, {
      rule: 'notification/templates/id-list',
      res: await idList(t, UNKNOWN_ID),
      what: `unknown set ${UNKNOWN_ID}`,
      reading: 'unknown-set-404',
      allowed: [200, 404],
      wanted: 404,
      ...withCode('noMatch'),
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 4 },
);
