import {
  holds,
  accepted,
  applied,
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
  hasOtherTenant,
  integersIn,
  notificationTest as test,
  paramTypeId,
  seen,
  send,
  templateForm,
  NO_OTHER,
} from './notification-client.ts';
import {
  createCategory,
  createTemplateSet,
  postTemplateSet,
  setName,
  templateOf,
  type CreatedSet,
} from './notification-resources.ts';
import { putSet, idList, file, info, param, paramList, deleteItem } from './templates-support.ts';

// The sets of templates (their listing, search, update, deletion and parameters) and the items of
// templateInfo (channels, operations, parameters) as a set takes them.

/**
 * How a listing of a set answers a set ID naming no set: 404 noMatch, or an empty list; the document
 * gives these listings no not-found answer. 404 is our reading.
 */
const UNKNOWN_SET = { reading: 'unknown-set-404', allowed: [200, 404], wanted: 404, ...withCode('noMatch') } as const;

test(
  ['notification/templates/list-details'],
  'GET /template/templatelistdetails lists every set of the tenant with its templates, and none of another tenant',
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    const res = await send(t, { method: 'GET', path: '/template/templatelistdetails' });
    listed(t, {
      rule: 'notification/templates/list-details',
      res,
      what: 'the set and its templates',
      items: [set.name, ...set.templates.map((x) => x.templateId)],
    });
    if (hasOtherTenant(t)) {
      const other = await send(t, { method: 'GET', path: '/template/templatelistdetails' }, 'otherTenant');
      notListed(t, {
        rule: 'notification/templates/list-details',
        res: other,
        what: "another tenant's set",
        items: [set.name],
        severity: 'critical',
      });
    } else t.notExercised('notification/templates/list-details', NO_OTHER);
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
);

test(
  ['notification/templates/search-name-required', 'notification/errors/code-missing-parameter'],
  'GET /template/templatesets needs templatesetname and lists the matching sets',
  async (t) => {
    const email = channelId(t, 'email');
    refused(t, {
      rule: 'notification/templates/search-name-required',
      res: await send(t, { method: 'GET', path: '/template/templatesets' }),
      what: 'a search without templatesetname',
      ...withCode('missingParameter'),
    });
    const a = await createTemplateSet(t, { channels: [email], name: setName(t, 'alpha') });
    const b = await createTemplateSet(t, { channels: [email], name: setName(t, 'beta') });
    const res = await send(t, { method: 'GET', path: '/template/templatesets', query: { templatesetname: a.name } });
    const rule = 'notification/templates/search-name-required';
    listed(t, { rule, res, what: 'the set searched by name', items: [a.name] });
    notListed(t, { rule, res, what: 'a set of another name', items: [b.name] });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 6 },
);

test(
  ['notification/templates/update-200', 'notification/errors/code-no-match'],
  'PUT /template/{id} answers 200 and adds the file; an unknown set answers 404',
  async (t) => {
    const email = channelId(t, 'email');
    const push = channelId(t, 'push');
    const set: CreatedSet = await createTemplateSet(t, { channels: [email] });
    const before = integersIn((await idList(t, set.id)).json);
    const f = file();
    const res = await putSet(t, set.id, templateForm(info(set.name, [[push, f.name]]), [f]));
    accepted(t, { rule: 'notification/templates/update-200', res, what: 'adding a push template', statuses: [200] });
    const ids = await idList(t, set.id);
    const after = integersIn(ids.json);
    applied(t, {
      rule: 'notification/templates/update-200',
      res: ids,
      statuses: [200],
      what: `adding a template to the set (its IDs ${[...before].join(', ')} kept, one more)`,
      want: { kept: true, more: true },
      got: { kept: [...before].every((n) => after.has(n)), more: [...after].some((n) => !before.has(n)) },
    });
    const g = file();
    refused(t, {
      rule: 'notification/templates/update-200',
      res: await putSet(t, UNKNOWN_ID, templateForm(info(setName(t), [[push, g.name]]), [g])),
      what: `an update of set ${UNKNOWN_ID}`,
      ...withCode('noMatch'),
      statuses: [404],
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 6 },
);

test(
  ['notification/templates/delete-removes-params', 'notification/errors/code-no-match'],
  'DELETE /template/{id} removes the set with its parameters; an unknown set answers 404',
  async (t) => {
    const p = param(t);
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')], params: [p] });
    accepted(t, {
      rule: 'notification/templates/delete-removes-params',
      res: await send(t, { method: 'DELETE', path: `/template/${set.id}` }),
      what: 'deleting a set',
      statuses: [200],
    });
    // The parameters are gone either way: the set is unknown (404), or it has none (200 without them).
    const params = await paramList(t, set.id);
    if (params.status !== 404)
      notListed(t, {
        rule: 'notification/templates/delete-removes-params',
        res: params,
        what: 'a parameter of the deleted set (HTTP 404 would do too)',
        items: [String(p.paramName)],
      });
    genericCode(t, params, 'noMatch');
    refused(t, {
      rule: 'notification/templates/delete-removes-params',
      res: await send(t, { method: 'GET', path: `/template/templatesets/${set.id}` }),
      what: 'GET of the deleted set',
      ...withCode('noMatch'),
      statuses: [404],
    });
    refused(t, {
      rule: 'notification/templates/delete-removes-params',
      res: await send(t, { method: 'DELETE', path: `/template/${set.id}` }),
      what: 'deleting it a second time',
      ...withCode('noMatch'),
      statuses: [404],
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 5 },
);

test(
  ['notification/templates/params-listed', 'notification/errors/code-no-match'],
  "GET /templateparam/{id} answers the set's parameters; an unknown set answers 404",
  async (t) => {
    const p = param(t);
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')], params: [p] });
    const res = await paramList(t, set.id);
    listed(t, {
      rule: 'notification/templates/params-listed',
      res,
      what: 'the parameter of the set',
      items: [p.paramName as string, p.placeHolderName as string],
    });
    answeredByReading(t, {
      rule: 'notification/templates/params-listed',
      res: await paramList(t, UNKNOWN_ID),
      what: `unknown set ${UNKNOWN_ID}`,
      ...UNKNOWN_SET,
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 4 },
);

// "On update: operation is mandatory for file addition or deletion (ADD, DELETE)" and "All template
// parameters of a set are removed through the template-set delete operation": a deletion removes
// that template or that set, nothing else. A category naming a template of another set keeps it
// (GetCommunicationCategory: "templates (array of GetCategoryTemplate)").
test(
  ['notification/templates/update-200', 'notification/templates/delete-removes-params'],
  'deleting a template of one set, then the set, leaves the template of another set that a category names',
  async (t) => {
    const email = channelId(t, 'email');
    const sms = channelId(t, 'sms');
    const doomed = await createTemplateSet(t, { channels: [email, sms] });
    const kept = await createTemplateSet(t, { channels: [email] });
    const keptTemplate = templateOf(t, kept, email);
    const category = await createCategory(t, {
      templates: [{ commChannelName: 'Email', templateId: keptTemplate.templateId, templatesetId: kept.id }],
    });
    const keepsIt = async (rule: string, after: string) => {
      const got = await send(t, { method: 'GET', path: `/communicationcategories/${category.id}` });
      listed(t, {
        rule,
        res: got,
        what: `template ${keptTemplate.templateId} of another set in category ${category.id}, after ${after}`,
        items: [keptTemplate.templateId],
        holds: (res, id) => {
          const templates = (res.json as { templates?: unknown } | undefined)?.templates;
          return (
            Array.isArray(templates) &&
            templates.some((x) => !!x && typeof x === 'object' && (x as { templateId?: unknown }).templateId === id)
          );
        },
      });
    };
    const del = await putSet(t, doomed.id, deleteItem(doomed, sms));
    accepted(t, {
      rule: 'notification/templates/update-200',
      res: del,
      what: `a DELETE item of set ${doomed.id}`,
      statuses: [200],
    });
    await keepsIt('notification/templates/update-200', `deleting a template of set ${doomed.id}`);
    const gone = await send(t, { method: 'DELETE', path: `/template/${doomed.id}` });
    accepted(t, {
      rule: 'notification/templates/delete-removes-params',
      res: gone,
      what: `DELETE /template/${doomed.id}`,
      statuses: [200],
    });
    await keepsIt('notification/templates/delete-removes-params', `deleting set ${doomed.id}`);
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 8 },
);

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
    const del = await putSet(t, set.id, deleteItem(set, sms));
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
    const params = await paramList(t, set.id);
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
    answeredByReading(t, {
      rule: 'notification/templates/id-list',
      res: await idList(t, UNKNOWN_ID),
      what: `unknown set ${UNKNOWN_ID}`,
      ...UNKNOWN_SET,
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 4 },
);
