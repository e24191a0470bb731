import fc from 'fast-check';
import {
  accepted,
  applied,
  listed,
  matchesSchema,
  notListed,
  refused,
  storedAsSent,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import { channelId, integersIn, notificationTest as test, send, tag, templateForm } from './notification-client.ts';
import { createTemplateSet, postTemplateSet, setName, templateOf } from './notification-resources.ts';
import { fieldValues } from '../engine/resources/index.ts';
import { putSet, idList, file, info, largeFiles, TEMPLATE_FILE_MAX } from './templates-support.ts';

test(
  ['notification/templates/create-201'],
  'POST /template/ answers 201 with a CreateTemplate naming the set and one template per file',
  async (t) => {
    const email = channelId(t, 'email');
    const sms = channelId(t, 'sms');
    const name = setName(t);
    const f1 = file();
    const f2 = file(`${tag()}.htm`);
    const res = await postTemplateSet(
      t,
      templateForm(
        info(name, [
          [email, f1.name],
          [sms, f2.name],
        ]),
        [f1, f2],
      ),
    );
    accepted(t, {
      rule: 'notification/templates/create-201',
      res,
      what: 'a valid template set',
    });
    await matchesSchema(
      t,
      'notification/templates/create-201',
      res.json,
      'CreateTemplate',
      'the CreateTemplate answer',
    );
    const body = (res.json ?? {}) as {
      templatesetId?: unknown;
      templatesetName?: unknown;
      templateList?: Array<Record<string, unknown>>;
    };
    const list = Array.isArray(body.templateList) ? body.templateList : [];
    const channels = list.map((x) => x.commChannelId).sort();
    storedAsSent(t, {
      rule: 'notification/templates/create-201',
      what: `the CreateTemplate answer (templatesetId, two templates of channels ${email} and ${sms})`,
      stored: body,
      sent: {
        templatesetId: Number.isSafeInteger,
        templatesetName: name,
        templateList: () =>
          list.length === 2 &&
          list.every((x) => Number.isSafeInteger(x.templateId) && typeof x.commChannelName === 'string') &&
          JSON.stringify(channels) === JSON.stringify([email, sms].sort()),
      },
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 2 },
);

test(
  ['notification/templates/multiple-files-one-field'],
  'several files under the one field templateFiles all become templates',
  async (t) => {
    const chans = [channelId(t, 'email'), channelId(t, 'sms'), channelId(t, 'push')];
    const set = await createTemplateSet(t, { channels: chans });
    storedAsSent(t, {
      rule: 'notification/templates/multiple-files-one-field',
      what: 'every file as a template (templates in templateList)',
      stored: { templates: set.templates.length },
      sent: { templates: 3 },
    });
    listed(t, {
      rule: 'notification/templates/multiple-files-one-field',
      res: await idList(t, set.id),
      what: 'the template IDs of the set',
      items: set.templates.map((x) => x.templateId),
    });
    // Each template holds its own file, not the first file's content (or another's).
    for (const ch of chans) {
      const tpl = templateOf(t, set, ch);
      const res = await send(t, { method: 'GET', path: `/template/templatecontent/${tpl.templateId}` });
      storedAsSent(t, {
        rule: 'notification/templates/multiple-files-one-field',
        res,
        what: `the file uploaded for channel ${ch}, in its template`,
        stored: { content: res.text },
        sent: { content: set.contents.get(ch) },
      });
    }
    // On update too: two files added by one PUT become two templates, each holding its own file.
    const base = await createTemplateSet(t, { channels: [chans[0]] });
    const before = integersIn((await idList(t, base.id)).json);
    const [f1, f2] = [file(), file()];
    const put = await putSet(
      t,
      base.id,
      templateForm(
        info(base.name, [
          [chans[1], f1.name],
          [chans[2], f2.name],
        ]),
        [f1, f2],
      ),
    );
    const added = [...integersIn((await idList(t, base.id)).json)].filter((n) => !before.has(n));
    const got: string[] = [];
    for (const id of added) {
      const res = await send(t, { method: 'GET', path: `/template/templatecontent/${id}` });
      got.push(res.status === 200 ? res.text : `HTTP ${res.status}`);
    }
    // The ID list is declared only as "string": integers new in it other than template IDs (channel
    // IDs, say) answer no content. Each file found in a template of its own is what is settled.
    applied(t, {
      rule: 'notification/templates/multiple-files-one-field',
      res: put,
      statuses: [200],
      what: `two files added by one update, each in a new template (of ${added.join(', ') || '-'})`,
      want: [true, true],
      got: [got.includes(f1.content), got.includes(f2.content)],
    });
  },
  {
    needs: [
      'fixtures.notification.channels.email',
      'fixtures.notification.channels.push',
      'fixtures.notification.channels.sms',
    ],
    budget: 12,
  },
);

test(
  ['notification/templates/file-extension', 'notification/errors/code-invalid-request-body-property'],
  'template files are taken with .htm or .html only, on create and update',
  async (t) => {
    const email = channelId(t, 'email');
    for (const ext of ['.txt', '.xhtml', '.html.txt', '']) {
      const name = setName(t, 'ext');
      const f = file(`${tag()}${ext}`);
      const res = await postTemplateSet(t, templateForm(info(name, [[email, f.name]]), [f]));
      refused(t, {
        rule: 'notification/templates/file-extension',
        res,
        what: `a template file named "${f.name}"`,
        ...withCode('invalidRequestBodyProperty'),
      });
      const found = await send(t, { method: 'GET', path: '/template/templatesets', query: { templatesetname: name } });
      notListed(t, {
        rule: 'notification/templates/file-extension',
        res: found,
        what: 'the refused set',
        items: [name],
        anyStatus: true,
      });
    }
    const htm = file(`${tag()}.htm`);
    accepted(t, {
      rule: 'notification/templates/file-extension',
      res: await postTemplateSet(t, templateForm(info(setName(t), [[email, htm.name]]), [htm])),
      what: 'a .htm file',
    });
    const set = await createTemplateSet(t, { channels: [email] });
    const txt = file(`${tag()}.txt`);
    const put = await putSet(t, set.id, templateForm(info(set.name, [[channelId(t, 'sms'), txt.name]]), [txt]));
    refused(t, {
      rule: 'notification/templates/file-extension',
      res: put,
      what: 'a .txt file added by PUT',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 12 },
);

test(
  ['notification/templates/file-size-limit', 'notification/errors/code-invalid-request-body-property'],
  `a template file of ${TEMPLATE_FILE_MAX} bytes is taken and one of ${TEMPLATE_FILE_MAX + 1} refused`,
  async (t) => {
    const email = channelId(t, 'email');
    const { fits, tooBig, remove } = await largeFiles();
    try {
      const over = `${tag()}.html`;
      const res = await postTemplateSet(
        t,
        templateForm(info(setName(t, 'big'), [[email, over]]), [{ name: over, content: tooBig }]),
      );
      // "at most 16777215 bytes per file" settles the refusal; 400 rather than, say, 413 of a gateway
      // ("Any other status of most operations") is our reading.
      answeredByReading(t, {
        rule: 'notification/templates/file-size-limit',
        res,
        what: `a file of ${TEMPLATE_FILE_MAX + 1} bytes`,
        reading: 'oversize-400',
        allowed: CLIENT_ERRORS,
        wanted: 400,
        ...withCode('invalidRequestBodyProperty'),
      });
      const at = `${tag()}.html`;
      const ok = await postTemplateSet(
        t,
        templateForm(info(setName(t, 'max'), [[email, at]]), [{ name: at, content: fits }]),
      );
      accepted(t, {
        rule: 'notification/templates/file-size-limit',
        res: ok,
        what: `a file of ${TEMPLATE_FILE_MAX} bytes`,
      });
    } finally {
      remove();
    }
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4, timeout: 120_000 },
);

test(
  ['notification/templates/files-required-on-create', 'notification/errors/code-missing-request-body-property'],
  'POST /template/ without any templateFiles part is refused, also when its file comes under another field name',
  async (t) => {
    const email = channelId(t, 'email');
    const res = await postTemplateSet(t, templateForm(info(setName(t), [[email, 'absent.html']]), []));
    refused(t, {
      rule: 'notification/templates/files-required-on-create',
      res,
      what: 'a create without templateFiles',
      ...withCode('missingRequestBodyProperty'),
    });
    // "templateFiles (array of files, required)": a file part under another name is no templateFiles part.
    const f = file();
    const parts = templateForm(info(setName(t), [[email, f.name]]), [f]).map((p) =>
      p.name === 'templateFiles' ? { ...p, name: 'templateFile' } : p,
    );
    refused(t, {
      rule: 'notification/templates/files-required-on-create',
      res: await postTemplateSet(t, parts),
      what: 'a create whose only file is sent under the field name templateFile',
      ...withCode('missingRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 2 },
);

test(
  ['notification/templates/info-required', 'notification/errors/code-missing-request-body-property'],
  'POST /template/ and PUT /template/{id} without templateInfo are refused',
  async (t) => {
    const f = file();
    refused(t, {
      rule: 'notification/templates/info-required',
      res: await postTemplateSet(t, templateForm(undefined, [f])),
      what: 'a create without templateInfo',
      ...withCode('missingRequestBodyProperty'),
    });
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    refused(t, {
      rule: 'notification/templates/info-required',
      res: await putSet(t, set.id, templateForm(undefined, [file()])),
      what: 'an update without templateInfo',
      ...withCode('missingRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
);

test(
  ['notification/templates/info-json', 'notification/errors/code-invalid-request-body-property'],
  'a templateInfo that is not JSON text of an object is refused',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    const texts = ['not json', '{"templatesetName":', '[1,2]', '"a set"', '42'];
    await fieldValues(t, {
      rule: 'notification/templates/info-json',
      field: 'templateInfo',
      cases: texts.map((value) => ({ value, valid: false, via: 'POST' })),
      property: { values: fc.constantFrom(...texts).map((value) => ({ value, valid: false, via: 'PUT' })), runs: 4 },
      send: (c) =>
        c.via === 'PUT'
          ? putSet(t, set.id, templateForm(undefined, [file()], c.value))
          : postTemplateSet(t, templateForm(undefined, [file()], c.value)),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 7, budgetPerRun: 1 },
);

test(
  ['notification/templates/multipart-required'],
  'POST /template/ and PUT /template/{id} with a JSON or a malformed multipart body are refused with 400',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    const json = {
      templatesetName: setName(t),
      templateChannelAndFile: [{ communicationChannel: email, fileName: 'a.html' }],
    };
    const broken =
      '--cfzboundary\r\nContent-Disposition: form-data; name="templateInfo"\r\n\r\n{"templatesetName":"x"}\r\n--cfzboundary\r\nContent-Disposition: form-data; name="templateFiles"; filename="a.html"\r\nContent-Type: text/html\r\n\r\n<html>';
    const headers = { 'content-type': 'multipart/form-data; boundary=cfzboundary' };
    // A JSON body is refused (document); 400 rather than 415 for it is our reading.
    const asJson = { statuses: [400], statusReading: 'media-type-400' };
    const create = { method: 'POST', path: '/template/' };
    const update = { method: 'PUT', path: `/template/${set.id}` };
    for (const [what, req, options] of [
      ['a JSON body on create', { ...create, json }, asJson],
      ['a JSON body on update', { ...update, json }, asJson],
      ['a multipart body cut off before its closing boundary', { ...create, body: broken, headers }, {}],
      ['a cut-off multipart body on update', { ...update, body: broken, headers }, {}],
    ] as const)
      refused(t, { rule: 'notification/templates/multipart-required', res: await send(t, req), what, ...options });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 6 },
);

test(
  ['notification/templates/set-name-required'],
  'a templateInfo without a non-blank string templatesetName is refused on create and update',
  async (t) => {
    const email = channelId(t, 'email');
    const set = await createTemplateSet(t, { channels: [email] });
    const names: unknown[] = [undefined, '', '   ', 42, ['x']];
    await fieldValues(t, {
      rule: 'notification/templates/set-name-required',
      field: 'templatesetName',
      cases: ['POST', 'PUT'].flatMap((via) =>
        names.map((value) => ({
          value,
          valid: false,
          via,
          // A blank name is a missing one by our reading: the document says only "Required".
          reading: typeof value === 'string' ? 'blank-is-missing' : undefined,
          what: value === undefined ? `${via} with templatesetName missing` : undefined,
        })),
      ),
      send: (c) => {
        const f = file();
        const i: Record<string, unknown> = {
          templateChannelAndFile: [
            { communicationChannel: c.via === 'PUT' ? channelId(t, 'sms') : email, fileName: f.name, operation: 'ADD' },
          ],
        };
        if (c.value !== undefined) i.templatesetName = c.value;
        return c.via === 'PUT' ? putSet(t, set.id, templateForm(i, [f])) : postTemplateSet(t, templateForm(i, [f]));
      },
    });
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 12 },
);

test(
  ['notification/templates/update-renames'],
  'PUT /template/{id} gives the set the templatesetName of templateInfo',
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    const renamed = setName(t, 'renamed');
    const res = await putSet(t, set.id, templateForm({ templatesetName: renamed }, []));
    const got = await send(t, { method: 'GET', path: `/template/templatesets/${set.id}` });
    const rule = 'notification/templates/update-renames';
    accepted(t, { rule, res, what: 'a rename of the set', statuses: [200] });
    listed(t, { rule, res: got, what: 'the new name of the set', items: [renamed], anyStatus: true });
    notListed(t, { rule, res: got, what: 'the old name of the set', items: [set.name], anyStatus: true });
  },
  { needs: ['fixtures.notification.channels.email'], budget: 4 },
);

test(
  [
    'notification/templates/channel-and-file-required-on-create',
    'notification/errors/code-missing-request-body-property',
  ],
  'POST /template/ with a templateInfo lacking templateChannelAndFile (or an empty one) is refused',
  async (t) => {
    for (const items of [undefined, []]) {
      const f = file();
      const i: Record<string, unknown> = { templatesetName: setName(t) };
      if (items) i.templateChannelAndFile = items;
      const res = await postTemplateSet(t, templateForm(i, [f]));
      // A missing key is a missing property ("Required on create"). An empty list is present: that it
      // is refused too is our reading (which code it gets the document does not say).
      if (!items)
        refused(t, {
          rule: 'notification/templates/channel-and-file-required-on-create',
          res,
          what: 'no templateChannelAndFile',
          ...withCode('missingRequestBodyProperty'),
        });
      else
        answeredByReading(t, {
          rule: 'notification/templates/channel-and-file-required-on-create',
          res,
          what: 'an empty templateChannelAndFile',
          reading: 'empty-list-refused',
          allowed: [200, 201, ...CLIENT_ERRORS],
          wanted: 400,
        });
    }
  },
  { budget: 2 },
);
