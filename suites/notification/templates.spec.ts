import { closeSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { matchesSchema } from '../engine/checks/index.ts';
import type { FormPart } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  UNKNOWN_ID,
  accepted,
  channelId,
  hasOtherTenant,
  integersIn,
  mentions,
  mentionsInteger,
  notificationTest as test,
  paramTypeId,
  foreignRefused,
  refused,
  refusedByReading,
  seen,
  send,
  tag,
  templateForm,
  verifyCode,
  NO_OTHER,
} from './notification-client.ts';
import {
  createCategory,
  createTemplateSet,
  postTemplateSet,
  setName,
  templateHtml,
  templateOf,
  type CreatedSet,
} from './notification-resources.ts';
import { answeredByReading, CLIENT_ERRORS } from './answered-by-reading.ts';

// Template set records (GET of a set, searches, listings, parameter lists) are declared only as
// "string": the suite looks there for the names and IDs it chose or got from CreateTemplate.

function putSet(t: RuleContext, id: number | string, form: FormPart[]) {
  return send(t, { method: 'PUT', path: `/template/${id}`, form });
}

function idList(t: RuleContext, id: number | string) {
  return send(t, { method: 'GET', path: `/template/templateidlist/${id}` });
}

function file(name = `${tag()}.html`, content = templateHtml(name)) {
  return { name, content };
}

/** A TemplateProcessInfo with one ADD item per channel and file. */
function info(
  name: string,
  items: Array<[number, string]>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    templatesetName: name,
    templateChannelAndFile: items.map(([ch, f]) => ({ communicationChannel: ch, fileName: f, operation: 'ADD' })),
    ...extra,
  };
}

function param(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paramName: `${t.prefix}p${tag()}`,
    defaultValue: 'Example',
    placeHolderName: `ph${tag()}`,
    paramTypeId: paramTypeId(t),
    ...over,
  };
}

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
    t.check('notification/templates/create-201', res.status === 201, {
      title: 'template set not created with 201',
      expected: 'HTTP 201',
      received: seen(res),
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
    t.check(
      'notification/templates/create-201',
      Number.isSafeInteger(body.templatesetId) &&
        body.templatesetName === name &&
        list.length === 2 &&
        list.every((x) => Number.isSafeInteger(x.templateId) && typeof x.commChannelName === 'string') &&
        JSON.stringify(channels) === JSON.stringify([email, sms].sort()),
      {
        title: 'CreateTemplate incomplete',
        expected: `templatesetId, templatesetName "${name}", two templates of channels ${email} and ${sms}`,
        received: JSON.stringify(res.json),
      },
    );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 2 },
);

test(
  ['notification/templates/multiple-files-one-field'],
  'several files under the one field templateFiles all become templates',
  async (t) => {
    const chans = [channelId(t, 'email'), channelId(t, 'sms'), channelId(t, 'push')];
    const set = await createTemplateSet(t, { channels: chans });
    t.check('notification/templates/multiple-files-one-field', set.templates.length === 3, {
      title: 'not every file became a template',
      expected: '3 templates in templateList',
      received: `${set.templates.length}`,
    });
    const ids = await idList(t, set.id);
    const missing = set.templates.filter((x) => !mentionsInteger(ids, x.templateId));
    t.check('notification/templates/multiple-files-one-field', ids.status === 200 && missing.length === 0, {
      title: 'template IDs of the set incomplete',
      expected: set.templates.map((x) => x.templateId).join(', '),
      received: seen(ids),
    });
    // Each template holds its own file, not the first file's content (or another's).
    for (const ch of chans) {
      const tpl = templateOf(t, set, ch);
      const res = await send(t, { method: 'GET', path: `/template/templatecontent/${tpl.templateId}` });
      t.check(
        'notification/templates/multiple-files-one-field',
        res.status === 200 && res.text === set.contents.get(ch),
        {
          title: `template of channel ${ch} does not hold the file uploaded for it`,
          expected: `HTTP 200 ${set.contents.get(ch)}`,
          received: seen(res),
        },
      );
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
    t.check(
      'notification/templates/multiple-files-one-field',
      put.status === 200 && got.includes(f1.content) && got.includes(f2.content),
      {
        title: 'the files added by one update are not each in a template of their own',
        expected: `HTTP 200, then two new templates holding ${f1.content} and ${f2.content}`,
        received: `PUT ${seen(put, 120)}; new template IDs ${added.join(', ') || '-'}: ${JSON.stringify(got)}`,
      },
    );
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
      refused(
        t,
        'notification/templates/file-extension',
        res,
        `a template file named "${f.name}"`,
        'invalidRequestBodyProperty',
      );
      const found = await send(t, { method: 'GET', path: '/template/templatesets', query: { templatesetname: name } });
      t.check('notification/templates/file-extension', !mentions(found, name), {
        title: 'a refused set was stored',
        expected: `no set "${name}"`,
        received: seen(found),
      });
    }
    const htm = file(`${tag()}.htm`);
    accepted(
      t,
      'notification/templates/file-extension',
      await postTemplateSet(t, templateForm(info(setName(t), [[email, htm.name]]), [htm])),
      'a .htm file',
      [201],
    );
    const set = await createTemplateSet(t, { channels: [email] });
    const txt = file(`${tag()}.txt`);
    const put = await putSet(t, set.id, templateForm(info(set.name, [[channelId(t, 'sms'), txt.name]]), [txt]));
    refused(t, 'notification/templates/file-extension', put, 'a .txt file added by PUT', 'invalidRequestBodyProperty');
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 12 },
);

/**
 * The two large files, exactly at the limit and one byte over it, written to disk and sent from
 * there (file-backed Blobs), so that a run never holds their 32 MiB in memory.
 */
async function largeFiles(): Promise<{ fits: Blob; tooBig: Blob; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-template-'));
  const write = (name: string, size: number) => {
    const path = join(dir, name);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const fd = openSync(path, 'w');
    try {
      for (let left = size; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    } finally {
      closeSync(fd);
    }
    return openAsBlob(path);
  };
  return {
    fits: await write('fits.html', 16_777_215),
    tooBig: await write('too-big.html', 16_777_216),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test(
  ['notification/templates/file-size-limit', 'notification/errors/code-invalid-request-body-property'],
  'a template file of 16777215 bytes is taken and one of 16777216 refused',
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
      answeredByReading(
        t,
        'notification/templates/file-size-limit',
        res,
        'a file of 16777216 bytes',
        'oversize-400',
        CLIENT_ERRORS,
        400,
        'invalidRequestBodyProperty',
      );
      const at = `${tag()}.html`;
      const ok = await postTemplateSet(
        t,
        templateForm(info(setName(t, 'max'), [[email, at]]), [{ name: at, content: fits }]),
      );
      accepted(t, 'notification/templates/file-size-limit', ok, 'a file of 16777215 bytes', [201]);
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
    refused(
      t,
      'notification/templates/files-required-on-create',
      res,
      'a create without templateFiles',
      'missingRequestBodyProperty',
    );
    // "templateFiles (array of files, required)": a file part under another name is no templateFiles part.
    const f = file();
    const parts = templateForm(info(setName(t), [[email, f.name]]), [f]).map((p) =>
      p.name === 'templateFiles' ? { ...p, name: 'templateFile' } : p,
    );
    refused(
      t,
      'notification/templates/files-required-on-create',
      await postTemplateSet(t, parts),
      'a create whose only file is sent under the field name templateFile',
      'missingRequestBodyProperty',
    );
  },
  { needs: ['fixtures.notification.channels.email'], budget: 2 },
);

test(
  ['notification/templates/info-required', 'notification/errors/code-missing-request-body-property'],
  'POST /template/ and PUT /template/{id} without templateInfo are refused',
  async (t) => {
    const f = file();
    refused(
      t,
      'notification/templates/info-required',
      await postTemplateSet(t, templateForm(undefined, [f])),
      'a create without templateInfo',
      'missingRequestBodyProperty',
    );
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    refused(
      t,
      'notification/templates/info-required',
      await putSet(t, set.id, templateForm(undefined, [file()])),
      'an update without templateInfo',
      'missingRequestBodyProperty',
    );
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
    for (const text of texts) {
      refused(
        t,
        'notification/templates/info-json',
        await postTemplateSet(t, templateForm(undefined, [file()], text)),
        `POST with templateInfo ${JSON.stringify(text)}`,
        'invalidRequestBodyProperty',
      );
    }
    await t.property(
      fc.constantFrom(...texts),
      async (text) => {
        refused(
          t,
          'notification/templates/info-json',
          await putSet(t, set.id, templateForm(undefined, [file()], text)),
          `PUT with templateInfo ${JSON.stringify(text)}`,
          'invalidRequestBodyProperty',
        );
      },
      { rule: 'notification/templates/info-json', runs: Math.min(t.session.context.runs, 4) },
    );
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
    // A JSON body is refused (document); 400 rather than 415 for it is our reading.
    refusedByReading(
      t,
      'notification/templates/multipart-required',
      await send(t, { method: 'POST', path: '/template/', json }),
      'a JSON body on create',
      'media-type-400',
      400,
    );
    refusedByReading(
      t,
      'notification/templates/multipart-required',
      await send(t, { method: 'PUT', path: `/template/${set.id}`, json }),
      'a JSON body on update',
      'media-type-400',
      400,
    );
    const broken =
      '--cfzboundary\r\nContent-Disposition: form-data; name="templateInfo"\r\n\r\n{"templatesetName":"x"}\r\n--cfzboundary\r\nContent-Disposition: form-data; name="templateFiles"; filename="a.html"\r\nContent-Type: text/html\r\n\r\n<html>';
    const headers = { 'content-type': 'multipart/form-data; boundary=cfzboundary' };
    refused(
      t,
      'notification/templates/multipart-required',
      await send(t, { method: 'POST', path: '/template/', body: broken, headers }),
      'a multipart body cut off before its closing boundary',
    );
    refused(
      t,
      'notification/templates/multipart-required',
      await send(t, { method: 'PUT', path: `/template/${set.id}`, body: broken, headers }),
      'a cut-off multipart body on update',
    );
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
    for (const onUpdate of [false, true]) {
      for (const name of names) {
        const f = file();
        const i: Record<string, unknown> = {
          templateChannelAndFile: [
            { communicationChannel: onUpdate ? channelId(t, 'sms') : email, fileName: f.name, operation: 'ADD' },
          ],
        };
        if (name !== undefined) i.templatesetName = name;
        const res = onUpdate
          ? await putSet(t, set.id, templateForm(i, [f]))
          : await postTemplateSet(t, templateForm(i, [f]));
        // A blank name is a missing one by our reading: the document says only "Required".
        if (typeof name === 'string') {
          t.reading('blank-is-missing', 'notification/templates/set-name-required', res.status === 400, {
            title: `not refused: ${onUpdate ? 'PUT' : 'POST'} with templatesetName ${JSON.stringify(name)}`,
            expected: 'HTTP 400 for a blank templatesetName',
            received: seen(res),
          });
          continue;
        }
        refused(
          t,
          'notification/templates/set-name-required',
          res,
          `${onUpdate ? 'PUT' : 'POST'} with templatesetName ${name === undefined ? 'missing' : JSON.stringify(name)}`,
        );
      }
    }
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
    t.check(
      'notification/templates/update-renames',
      res.status === 200 && mentions(got, renamed) && !mentions(got, set.name),
      {
        title: 'set not renamed',
        expected: `the set named "${renamed}"`,
        received: `PUT HTTP ${res.status}; GET ${seen(got)}`,
      },
    );
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
        refused(
          t,
          'notification/templates/channel-and-file-required-on-create',
          res,
          'no templateChannelAndFile',
          'missingRequestBodyProperty',
        );
      else
        answeredByReading(
          t,
          'notification/templates/channel-and-file-required-on-create',
          res,
          'an empty templateChannelAndFile',
          'empty-list-refused',
          [200, 201, ...CLIENT_ERRORS],
          400,
        );
    }
  },
  { budget: 2 },
);

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

test(
  ['notification/templates/list-details'],
  'GET /template/templatelistdetails lists every set of the tenant with its templates, and none of another tenant',
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    const res = await send(t, { method: 'GET', path: '/template/templatelistdetails' });
    t.check(
      'notification/templates/list-details',
      res.status === 200 && mentions(res, set.name) && set.templates.every((x) => mentionsInteger(res, x.templateId)),
      {
        title: 'the set or its templates not listed',
        expected: `"${set.name}" with templates ${set.templates.map((x) => x.templateId).join(', ')}`,
        received: seen(res),
      },
    );
    if (hasOtherTenant(t)) {
      const other = await send(t, { method: 'GET', path: '/template/templatelistdetails' }, 'otherTenant');
      t.check('notification/templates/list-details', other.status === 200 && !mentions(other, set.name), {
        title: 'another tenant lists the set',
        severity: 'critical',
        expected: `no "${set.name}"`,
        received: seen(other),
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
    refused(
      t,
      'notification/templates/search-name-required',
      await send(t, { method: 'GET', path: '/template/templatesets' }),
      'a search without templatesetname',
      'missingParameter',
    );
    const a = await createTemplateSet(t, { channels: [email], name: setName(t, 'alpha') });
    const b = await createTemplateSet(t, { channels: [email], name: setName(t, 'beta') });
    const res = await send(t, { method: 'GET', path: '/template/templatesets', query: { templatesetname: a.name } });
    t.check(
      'notification/templates/search-name-required',
      res.status === 200 && mentions(res, a.name) && !mentions(res, b.name),
      {
        title: 'search by name wrong',
        expected: `HTTP 200 naming "${a.name}", not "${b.name}"`,
        received: seen(res),
      },
    );
  },
  { needs: ['fixtures.notification.channels.email'], budget: 6 },
);

test(
  ['notification/templates/get-set', 'notification/errors/code-no-match', 'notification/errors/code-invalid-parameter'],
  "GET /template/templatesets/{id}: 200 for a set, 404 for unknown or another tenant's, 400 for a non-integer",
  async (t) => {
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    const get = (id: number | string, as?: 'otherTenant') =>
      send(t, { method: 'GET', path: `/template/templatesets/${id}` }, as);
    const ok = await get(set.id);
    t.check('notification/templates/get-set', ok.status === 200 && mentions(ok, set.name), {
      title: 'set not served',
      expected: `HTTP 200 naming "${set.name}"`,
      received: seen(ok),
    });
    refused(t, 'notification/templates/get-set', await get(UNKNOWN_ID), `unknown set ${UNKNOWN_ID}`, 'noMatch', [404]);
    refused(t, 'notification/templates/get-set', await get('abc'), 'id "abc"', 'invalidParameter');
    if (hasOtherTenant(t))
      foreignRefused(
        t,
        'notification/templates/get-set',
        await get(set.id, 'otherTenant'),
        "another tenant's GET of the set",
      );
    else t.notExercised('notification/templates/get-set', NO_OTHER);
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
    accepted(t, 'notification/templates/update-200', res, 'adding a push template', [200]);
    const ids = await idList(t, set.id);
    const after = integersIn(ids.json);
    const grew = [...before].every((n) => after.has(n)) && [...after].some((n) => !before.has(n));
    t.check('notification/templates/update-200', ids.status === 200 && grew, {
      title: 'the added template is not in the set',
      expected: `the IDs ${[...before].join(', ')} and one more`,
      received: seen(ids),
    });
    const g = file();
    refused(
      t,
      'notification/templates/update-200',
      await putSet(t, UNKNOWN_ID, templateForm(info(setName(t), [[push, g.name]]), [g])),
      `an update of set ${UNKNOWN_ID}`,
      'noMatch',
      [404],
    );
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 6 },
);

test(
  ['notification/templates/delete-removes-params', 'notification/errors/code-no-match'],
  'DELETE /template/{id} removes the set with its parameters; an unknown set answers 404',
  async (t) => {
    const p = param(t);
    const set = await createTemplateSet(t, { channels: [channelId(t, 'email')], params: [p] });
    accepted(
      t,
      'notification/templates/delete-removes-params',
      await send(t, { method: 'DELETE', path: `/template/${set.id}` }),
      'deleting a set',
      [200],
    );
    // The parameters are gone either way: the set is unknown (404), or it has none (200 without them).
    const params = await send(t, { method: 'GET', path: `/templateparam/${set.id}` });
    t.check(
      'notification/templates/delete-removes-params',
      params.status === 404 || (params.status === 200 && !mentions(params, String(p.paramName))),
      {
        title: 'the parameters of the deleted set are still answered',
        expected: `HTTP 404, or 200 without ${String(p.paramName)}`,
        received: seen(params),
        response: params,
      },
    );
    verifyCode(t, params, 'noMatch');
    refused(
      t,
      'notification/templates/delete-removes-params',
      await send(t, { method: 'GET', path: `/template/templatesets/${set.id}` }),
      'GET of the deleted set',
      'noMatch',
      [404],
    );
    refused(
      t,
      'notification/templates/delete-removes-params',
      await send(t, { method: 'DELETE', path: `/template/${set.id}` }),
      'deleting it a second time',
      'noMatch',
      [404],
    );
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
    t.check(
      'notification/templates/params-listed',
      res.status === 200 && mentions(res, p.paramName as string) && mentions(res, p.placeHolderName as string),
      {
        title: 'parameter not listed',
        expected: `HTTP 200 naming ${String(p.paramName)} and ${String(p.placeHolderName)}`,
        received: seen(res),
      },
    );
    // A set ID naming no set: 404 noMatch, or an empty list of parameters; 404 is our reading.
    answeredByReading(
      t,
      'notification/templates/params-listed',
      await send(t, { method: 'GET', path: `/templateparam/${UNKNOWN_ID}` }),
      `unknown set ${UNKNOWN_ID}`,
      'unknown-set-404',
      [200, 404],
      404,
      'noMatch',
    );
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
      const templates = (got.json as { templates?: unknown } | undefined)?.templates;
      const listed =
        Array.isArray(templates) &&
        templates.some(
          (x) => !!x && typeof x === 'object' && (x as { templateId?: unknown }).templateId === keptTemplate.templateId,
        );
      t.check(rule, got.status === 200 && listed, {
        title: `${after} removed a template of another set from a category`,
        expected: `HTTP 200, category ${category.id} still lists template ${keptTemplate.templateId} of set ${kept.id}`,
        received: seen(got),
        response: got,
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
    accepted(t, 'notification/templates/update-200', del, `a DELETE item of set ${doomed.id}`, [200]);
    await keepsIt('notification/templates/update-200', `deleting a template of set ${doomed.id}`);
    const gone = await send(t, { method: 'DELETE', path: `/template/${doomed.id}` });
    accepted(t, 'notification/templates/delete-removes-params', gone, `DELETE /template/${doomed.id}`, [200]);
    await keepsIt('notification/templates/delete-removes-params', `deleting set ${doomed.id}`);
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.sms'], budget: 8 },
);
