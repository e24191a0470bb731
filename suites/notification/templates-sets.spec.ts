import {
  accepted,
  applied,
  listed,
  notListed,
  refused,
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
  send,
  templateForm,
  NO_OTHER,
} from './notification-client.ts';
import { createCategory, createTemplateSet, setName, templateOf, type CreatedSet } from './notification-resources.ts';
import { putSet, idList, file, info, param } from './templates-support.ts';

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
    const params = await send(t, { method: 'GET', path: `/templateparam/${set.id}` });
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
    const res = await send(t, { method: 'GET', path: `/templateparam/${set.id}` });
    listed(t, {
      rule: 'notification/templates/params-listed',
      res,
      what: 'the parameter of the set',
      items: [p.paramName as string, p.placeHolderName as string],
    });
    // A set ID naming no set: 404 noMatch, or an empty list of parameters; 404 is our reading.
    answeredByReading(t, {
      rule: 'notification/templates/params-listed',
      res: await send(t, { method: 'GET', path: `/templateparam/${UNKNOWN_ID}` }),
      what: `unknown set ${UNKNOWN_ID}`,
      reading: 'unknown-set-404',
      allowed: [200, 404],
      wanted: 404,
      ...withCode('noMatch'),
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
    const del = await putSet(
      t,
      doomed.id,
      templateForm(
        { templatesetName: doomed.name, templateChannelAndFile: [{ communicationChannel: sms, operation: 'DELETE' }] },
        [],
      ),
    );
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
