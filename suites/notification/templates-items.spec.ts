import {
  UNKNOWN_ID,
  accepted,
  channelId,
  integersIn,
  mentions,
  mentionsInteger,
  notificationTest as test,
  paramTypeId,
  refused,
  refusedByReading,
  seen,
  send,
  templateForm,
  verifyCode,
} from './notification-client.ts';
import { createTemplateSet, postTemplateSet, setName, templateOf } from './notification-resources.ts';
import { answeredByReading } from './answered-by-reading.ts';
import { putSet, idList, file, info, param } from './templates-support.ts';

test(
  [
    'notification/templates/channel-id',
    'notification/errors/code-invalid-request-body-property',
    'notification/errors/code-missing-request-body-property',
  ],
  'communicationChannel is taken as a channel ID of GET /communicationchannel/ only (create and update)',
  async (t) => {
    const email = channelId(t, 'email');
    const push = channelId(t, 'push');
    const set = await createTemplateSet(t, { channels: [push] });
    t.check(
      'notification/templates/channel-id',
      set.templates.some((x) => x.commChannelId === push),
      {
        title: 'push channel not taken',
        expected: `a template of channel ${push}`,
        received: JSON.stringify(set.templates),
      },
    );
    const channels = await send(t, { method: 'GET', path: '/communicationchannel/' });
    const known = integersIn(channels.json);
    const unknown = [99_999, 0, -1].find((n) => !known.has(n)) ?? 424_242;
    const values: unknown[] = [unknown, String(email), email + 0.5, undefined, null];
    for (const onUpdate of [false, true]) {
      for (const ch of values) {
        const f = file();
        const item: Record<string, unknown> = { fileName: f.name, operation: 'ADD' };
        if (ch !== undefined) item.communicationChannel = ch;
        const i = { templatesetName: onUpdate ? set.name : setName(t), templateChannelAndFile: [item] };
        const res = onUpdate
          ? await putSet(t, set.id, templateForm(i, [f]))
          : await postTemplateSet(t, templateForm(i, [f]));
        const what = `${onUpdate ? 'PUT' : 'POST'} with communicationChannel ${ch === undefined ? 'missing' : JSON.stringify(ch)}`;
        // An ID the listing does not hold: 400 rather than 404 noMatch is our reading.
        if (ch === unknown)
          refusedByReading(
            t,
            'notification/templates/channel-id',
            res,
            what,
            'listed-id-400',
            400,
            'invalidRequestBodyProperty',
          );
        else
          refused(
            t,
            'notification/templates/channel-id',
            res,
            what,
            // A missing key is a missing property; which code null gets the document does not say.
            ch === undefined ? 'missingRequestBodyProperty' : ch === null ? undefined : 'invalidRequestBodyProperty',
          );
      }
    }
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 13 },
);

test(
  ['notification/templates/create-operation-add-only', 'notification/errors/code-invalid-request-body-property'],
  'on create an item without operation is taken as ADD; DELETE is refused',
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
    t.check(
      'notification/templates/create-operation-add-only',
      ok.status === 201 &&
        Array.isArray((ok.json as { templateList?: unknown })?.templateList) &&
        (ok.json as { templateList: unknown[] }).templateList.length === 1,
      {
        title: 'an item without operation not taken as ADD',
        expected: 'HTTP 201 with one template',
        received: seen(ok),
      },
    );
    for (const operation of ['DELETE', 'MERGE']) {
      const g = file();
      const res = await postTemplateSet(
        t,
        templateForm(
          {
            templatesetName: setName(t),
            templateChannelAndFile: [{ communicationChannel: email, fileName: g.name, operation }],
          },
          [g],
        ),
      );
      refused(
        t,
        'notification/templates/create-operation-add-only',
        res,
        `operation ${operation} on create`,
        'invalidRequestBodyProperty',
      );
    }
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
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
    const newId = res.status === 201 ? (res.json as { templatesetId?: unknown } | undefined)?.templatesetId : undefined;
    t.check(
      'notification/templates/create-new-set-only',
      [409, 400].includes(res.status) || (res.status === 201 && newId !== undefined && newId !== set.id),
      {
        title: `${what} neither refused nor created as a new set`,
        expected: `HTTP 409 or 400, or 201 with a templatesetId other than ${set.id}`,
        received: seen(res),
        response: res,
      },
    );
    t.reading('set-name-unique', 'notification/templates/create-new-set-only', [409, 400].includes(res.status), {
      title: `${what} not refused`,
      expected: 'HTTP 409 or 400',
      received: seen(res),
      response: res,
    });
    verifyCode(t, res, 'conflict');
    const after = await idList(t, set.id);
    t.check('notification/templates/create-new-set-only', after.status === 200 && after.text === before.text, {
      title: 'the existing set changed',
      expected: seen(before, 120),
      received: seen(after, 120),
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 5 },
);

test(
  [
    'notification/templates/update-operation-required',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-invalid-request-body-property',
  ],
  'on update an item without operation, or with another than ADD or DELETE, is refused',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    // The last item names no file and uploads none: an operation taken as neither ADD nor DELETE
    // must not pass for want of a file to check.
    for (const [operation, withFile] of [
      [undefined, true],
      ['MERGE', true],
      ['add', false],
    ] as const) {
      const f = file();
      const item: Record<string, unknown> = { communicationChannel: channelId(t, 'sms') };
      if (withFile) item.fileName = f.name;
      if (operation) item.operation = operation;
      refused(
        t,
        'notification/templates/update-operation-required',
        await putSet(
          t,
          set.id,
          templateForm({ templatesetName: set.name, templateChannelAndFile: [item] }, withFile ? [f] : []),
        ),
        operation ? `operation ${operation}${withFile ? '' : ' without a file'}` : 'an item without operation',
        operation ? 'invalidRequestBodyProperty' : 'missingRequestBodyProperty',
      );
    }
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 4 },
);

test(
  ['notification/templates/update-add-needs-file-name', 'notification/errors/code-missing-request-body-property'],
  "an ADD item without fileName is refused; a DELETE item without one removes the channel's template",
  async (t) => {
    const email = channelId(t, 'email');
    const sms = channelId(t, 'sms');
    const set = await createTemplateSet(t, { channels: [email, sms] });
    const smsTemplate = templateOf(t, set, sms);
    const emailTemplate = templateOf(t, set, email);
    const f = file();
    refused(
      t,
      'notification/templates/update-add-needs-file-name',
      await postTemplateSet(
        t,
        templateForm(
          { templatesetName: setName(t), templateChannelAndFile: [{ communicationChannel: email, operation: 'ADD' }] },
          [f],
        ),
      ),
      'an ADD item without fileName on create',
      'missingRequestBodyProperty',
    );
    const g = file();
    refused(
      t,
      'notification/templates/update-add-needs-file-name',
      await putSet(
        t,
        set.id,
        templateForm(
          {
            templatesetName: set.name,
            templateChannelAndFile: [{ communicationChannel: channelId(t, 'push'), operation: 'ADD' }],
          },
          [g],
        ),
      ),
      'an ADD item without fileName on update',
      'missingRequestBodyProperty',
    );
    const del = await putSet(
      t,
      set.id,
      templateForm(
        { templatesetName: set.name, templateChannelAndFile: [{ communicationChannel: sms, operation: 'DELETE' }] },
        [],
      ),
    );
    accepted(t, 'notification/templates/update-add-needs-file-name', del, 'a DELETE item without fileName', [200]);
    const ids = await idList(t, set.id);
    t.check(
      'notification/templates/update-add-needs-file-name',
      !mentionsInteger(ids, smsTemplate.templateId) && mentionsInteger(ids, emailTemplate.templateId),
      {
        title: "DELETE without fileName did not remove the channel's template",
        expected: `${emailTemplate.templateId} without ${smsTemplate.templateId}`,
        received: seen(ids),
      },
    );
  },
  {
    needs: [
      'fixtures.notification.channels.email',
      'fixtures.notification.channels.push',
      'fixtures.notification.channels.sms',
    ],
    budget: 6,
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
    t.check(
      'notification/templates/params-add-only',
      res.status === 200 && mentions(params, p1.paramName as string) && mentions(params, p2.paramName as string),
      {
        title: 'parameters not added',
        expected: `both ${String(p1.paramName)} and ${String(p2.paramName)}`,
        received: `PUT HTTP ${res.status}; ${seen(params)}`,
      },
    );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 4 },
);

test(
  ['notification/templates/param-four-keys', 'notification/errors/code-missing-request-body-property'],
  'a templateParam lacking one of its four keys, or with a non-string text key, is refused',
  async (t) => {
    const email = channelId(t, 'email');
    const keys = ['paramName', 'defaultValue', 'placeHolderName', 'paramTypeId'];
    const cases = [
      ...keys.map((drop) => ({ drop, wrong: undefined as string | undefined })),
      ...['paramName', 'defaultValue', 'placeHolderName'].map((wrong) => ({
        drop: undefined as string | undefined,
        wrong,
      })),
    ];
    for (const { drop, wrong } of cases) {
      const p = param(t);
      if (drop) delete p[drop];
      if (wrong) p[wrong] = 7;
      const f = file();
      const res = await postTemplateSet(
        t,
        templateForm(info(setName(t), [[email, f.name]], { templateParam: [p] }), [f]),
      );
      refused(
        t,
        'notification/templates/param-four-keys',
        res,
        drop ? `a templateParam without ${drop}` : `a templateParam whose ${wrong} is the number 7`,
        drop ? 'missingRequestBodyProperty' : undefined,
      );
    }
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 7 },
);

test(
  ['notification/templates/param-type-id', 'notification/errors/code-invalid-request-body-property'],
  'paramTypeId is taken as a type ID of GET /paramtype/ only',
  async (t) => {
    const email = channelId(t, 'email');
    const types = await send(t, { method: 'GET', path: '/paramtype/' });
    const known = integersIn(types.json);
    const unknown = [99_999, 0, -5].find((n) => !known.has(n)) ?? 515_151;
    for (const value of [unknown, String(paramTypeId(t)), 1.5]) {
      const f = file();
      const res = await postTemplateSet(
        t,
        templateForm(info(setName(t), [[email, f.name]], { templateParam: [param(t, { paramTypeId: value })] }), [f]),
      );
      const what = `paramTypeId ${JSON.stringify(value)}`;
      // An ID the listing does not hold: 400 rather than 404 noMatch is our reading.
      if (value === unknown)
        refusedByReading(
          t,
          'notification/templates/param-type-id',
          res,
          what,
          'listed-id-400',
          400,
          'invalidRequestBodyProperty',
        );
      else refused(t, 'notification/templates/param-type-id', res, what, 'invalidRequestBodyProperty');
    }
    const f = file();
    accepted(
      t,
      'notification/templates/param-type-id',
      await postTemplateSet(t, templateForm(info(setName(t), [[email, f.name]], { templateParam: [param(t)] }), [f])),
      `paramTypeId ${paramTypeId(t)}`,
      [201],
    );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'], budget: 6 },
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
    t.check(
      'notification/templates/content-text-plain',
      res.status === 200 && res.contentType === 'text/plain' && res.text.includes(label),
      {
        title: 'template content not answered as text/plain',
        expected: `HTTP 200 text/plain holding "${label}"`,
        received: seen(res),
      },
    );
    t.reading(
      'content-as-uploaded',
      'notification/templates/content-text-plain',
      res.text === set.contents.get(email),
      {
        title: 'template content not answered as uploaded',
        expected: String(set.contents.get(email)),
        received: seen(res),
      },
    );
    refused(
      t,
      'notification/templates/content-text-plain',
      await send(t, { method: 'GET', path: `/template/templatecontent/${UNKNOWN_ID}` }),
      `unknown template ${UNKNOWN_ID}`,
      'noMatch',
      [404],
    );
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
);

test(
  ['notification/templates/id-list', 'notification/errors/code-no-match'],
  'GET /template/templateidlist/{id} answers the template IDs of the set; unknown 404',
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email'), channelId(t, 'push')] });
    const res = await idList(t, set.id);
    const missing = set.templates.filter((x) => !mentionsInteger(res, x.templateId));
    t.check('notification/templates/id-list', res.status === 200 && set.templates.length > 0 && missing.length === 0, {
      title: 'template IDs missing',
      expected: set.templates.map((x) => x.templateId).join(', '),
      received: seen(res),
    });
    // A set ID naming no set: 404 noMatch, or the set's (empty) list of template IDs; the document gives
    // this listing no not-found answer. 404 is our reading.
    answeredByReading(
      t,
      'notification/templates/id-list',
      await idList(t, UNKNOWN_ID),
      `unknown set ${UNKNOWN_ID}`,
      'unknown-set-404',
      [200, 404],
      404,
      'noMatch',
    );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 4 },
);
