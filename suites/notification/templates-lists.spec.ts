import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import type fc from 'fast-check';
import type { ListWithBadItems } from '../../generators/index.ts';
import type { RuleContext, RuleTestOptions } from '../engine/rule-test.ts';
import {
  listed,
  refused,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
  type CodeSuffix,
} from '../engine/checks/index.ts';
import {
  channelId,
  integersIn,
  notificationTest as test,
  paramTypeId,
  send,
  tag,
  templateForm,
} from './notification-client.ts';
import { createTemplateSet, postTemplateSet, setName } from './notification-resources.ts';
import {
  channelFileForm,
  emailItem,
  file,
  largeFiles,
  param,
  paramForm,
  putSet,
  unlistedChannel,
  validChannelFiles,
  type ChannelFile,
} from './templates-support.ts';

// The lists of a template request: its files (templateFiles), the items of templateChannelAndFile
// and of templateParam. Each rule about one item holds wherever the bad item stands among valid
// ones, on create and, where the rule says so, on update: one row per rule, with its bad items and
// how a list holding one is refused.

const CHANNELS = [
  'fixtures.notification.channels.email',
  'fixtures.notification.channels.sms',
  'fixtures.notification.channels.push',
] as const;
const PARAMS = ['fixtures.notification.channels.email', 'fixtures.notification.paramTypeId'] as const;

/** How a list whose bad item is of one kind is refused: its code, and whether the kind names an ID the listing does not hold. */
interface Refusal {
  code?: CodeSuffix;
  /** An ID the listing does not hold: 400 rather than 404 noMatch is our reading `listed-id-400`. */
  unlisted?: boolean;
}

interface ItemCase {
  options: RuleTestOptions;
  /** The field a failure names, and the list its items go in: channel items with their files, or parameters. */
  field: string;
  items: 'channels' | 'params';
  /** The requests the rule holds on: a new set, an update of one, or both. */
  sends: ReadonlyArray<'POST' | 'PUT'>;
  lists(t: RuleContext): Promise<fc.Arbitrary<ListWithBadItems>>;
  refusal(kind: string): Refusal;
}

/** A test of one rule about the items of a list: each request with each generated list is refused. */
function itemTest(rules: readonly string[], name: string, c: ItemCase): void {
  test(
    rules,
    name,
    async (t) => {
      const rule = rules[0];
      const set = c.sends.includes('PUT')
        ? await createTemplateSet(t, { channels: [channelId(t, 'email')] })
        : undefined;
      await t.property(
        await c.lists(t),
        async (list) => {
          const { code, unlisted } = c.refusal(list.bad[0].kind);
          for (const method of c.sends) {
            const into = method === 'PUT' ? set : undefined;
            const form =
              c.items === 'params'
                ? paramForm(t, list, into)
                : channelFileForm(into?.name ?? setName(t), list as ListWithBadItems<ChannelFile, ChannelFile>);
            refused(t, {
              rule,
              res: into ? await putSet(t, into.id, form) : await postTemplateSet(t, form),
              what: `${method} ${c.field} with ${badItemsText(list)}`,
              ...(unlisted ? { statuses: [400], statusReading: 'listed-id-400' } : {}),
              ...withCode(code),
            });
          }
        },
        { rule },
      );
    },
    c.options,
  );
}

itemTest(
  ['notification/templates/file-extension', 'notification/errors/code-invalid-request-body-property'],
  'a template file other than .htm or .html is refused wherever it stands among the files (create and update)',
  {
    options: { needs: [...CHANNELS], budget: 20, budgetPerRun: 2 },
    field: 'templateFiles',
    items: 'channels',
    sends: ['POST', 'PUT'],
    lists(t) {
      const named = (name: string) => ({ ...emailItem(t, { fileName: name }, false), upload: name });
      return Promise.resolve(
        listWithBadItems({
          rule: 'notification/templates/file-extension',
          valid: validChannelFiles(t),
          bad: {
            'a .txt file': named(`${tag()}.txt`),
            'a .xhtml file': named(`${tag()}.xhtml`),
            'a file without extension': named(tag()),
          },
        }),
      );
    },
    refusal: () => ({ code: 'invalidRequestBodyProperty' }),
  },
);

itemTest(
  [
    'notification/templates/channel-id',
    'notification/errors/code-invalid-request-body-property',
    'notification/errors/code-missing-request-body-property',
  ],
  'a communicationChannel that is not a listed channel ID is refused wherever its item stands (create and update)',
  {
    options: { needs: [...CHANNELS], budget: 32, budgetPerRun: 2 },
    field: 'templateChannelAndFile',
    items: 'channels',
    sends: ['POST', 'PUT'],
    async lists(t) {
      const email = channelId(t, 'email');
      const unknown = await unlistedChannel(t);
      const withChannel = (ch: unknown) => {
        const x = emailItem(t, {});
        if (ch === undefined) delete x.item.communicationChannel;
        else x.item.communicationChannel = ch;
        return x;
      };
      return listWithBadItems({
        rule: 'notification/templates/channel-id',
        valid: validChannelFiles(t),
        bad: {
          [`channel ${unknown}, which the listing does not hold`]: withChannel(unknown),
          'the channel ID as text': withChannel(String(email)),
          'a channel ID 1.5 off': withChannel(email + 0.5),
          'no communicationChannel': withChannel(undefined),
          'communicationChannel null': withChannel(null),
        },
      });
    },
    // A missing key is a missing property; which code null gets the document does not say.
    refusal: (kind) =>
      kind.endsWith('which the listing does not hold')
        ? { code: 'invalidRequestBodyProperty', unlisted: true }
        : kind === 'no communicationChannel'
          ? { code: 'missingRequestBodyProperty' }
          : kind === 'communicationChannel null'
            ? {}
            : { code: 'invalidRequestBodyProperty' },
  },
);

itemTest(
  ['notification/templates/create-operation-add-only', 'notification/errors/code-invalid-request-body-property'],
  'on create an item with an operation other than ADD is refused wherever it stands',
  {
    options: { needs: [...CHANNELS], budget: 6, budgetPerRun: 1 },
    field: 'templateChannelAndFile',
    items: 'channels',
    sends: ['POST'],
    lists: (t) =>
      Promise.resolve(
        listWithBadItems({
          rule: 'notification/templates/create-operation-add-only',
          valid: validChannelFiles(t),
          bad: {
            'operation DELETE': emailItem(t, { operation: 'DELETE' }),
            'operation MERGE': emailItem(t, { operation: 'MERGE' }),
          },
        }),
      ),
    refusal: () => ({ code: 'invalidRequestBodyProperty' }),
  },
);

itemTest(
  [
    'notification/templates/update-operation-required',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-invalid-request-body-property',
  ],
  'on update an item without operation, or with another than ADD or DELETE, is refused wherever it stands',
  {
    options: { needs: [...CHANNELS], budget: 10, budgetPerRun: 1 },
    field: 'templateChannelAndFile',
    items: 'channels',
    sends: ['PUT'],
    lists: (t) =>
      Promise.resolve(
        listWithBadItems({
          rule: 'notification/templates/update-operation-required',
          valid: validChannelFiles(t),
          bad: {
            'an item without operation': emailItem(t, { operation: undefined }),
            'operation MERGE': emailItem(t, { operation: 'MERGE' }),
            // It names no file and uploads none: an operation taken as neither ADD nor DELETE must not
            // pass for want of a file to check.
            'operation add without a file': emailItem(t, { operation: 'add', fileName: undefined }, false),
          },
        }),
      ),
    refusal: (kind) => ({
      code: kind === 'an item without operation' ? 'missingRequestBodyProperty' : 'invalidRequestBodyProperty',
    }),
  },
);

itemTest(
  ['notification/templates/update-add-needs-file-name', 'notification/errors/code-missing-request-body-property'],
  'an ADD item without fileName is refused wherever it stands (create and update)',
  {
    options: { needs: [...CHANNELS], budget: 8, budgetPerRun: 2 },
    field: 'templateChannelAndFile',
    items: 'channels',
    sends: ['POST', 'PUT'],
    lists: (t) =>
      Promise.resolve(
        listWithBadItems({
          rule: 'notification/templates/update-add-needs-file-name',
          valid: validChannelFiles(t),
          bad: { 'an ADD item without fileName': emailItem(t, { fileName: undefined }, false) },
        }),
      ),
    refusal: () => ({ code: 'missingRequestBodyProperty' }),
  },
);

itemTest(
  ['notification/templates/param-four-keys', 'notification/errors/code-missing-request-body-property'],
  'a templateParam lacking one of its four keys, or with a non-string text key, is refused wherever it stands (create and update)',
  {
    options: { needs: [...PARAMS], budget: 44, budgetPerRun: 2 },
    field: 'templateParam',
    items: 'params',
    sends: ['POST', 'PUT'],
    lists(t) {
      const without = (key: string) => {
        const p = param(t);
        delete p[key];
        return p;
      };
      const bad: Record<string, Record<string, unknown>> = {};
      for (const key of ['paramName', 'defaultValue', 'placeHolderName', 'paramTypeId'])
        bad[`a parameter without ${key}`] = without(key);
      for (const key of ['paramName', 'defaultValue', 'placeHolderName'])
        bad[`a parameter whose ${key} is the number 7`] = param(t, { [key]: 7 });
      return Promise.resolve(
        listWithBadItems({
          rule: 'notification/templates/param-four-keys',
          valid: [param(t), param(t), param(t)],
          bad,
        }),
      );
    },
    refusal: (kind) => (kind.includes('without') ? { code: 'missingRequestBodyProperty' } : {}),
  },
);

itemTest(
  ['notification/templates/param-type-id', 'notification/errors/code-invalid-request-body-property'],
  'a paramTypeId that is not a listed type ID is refused wherever its parameter stands (create and update)',
  {
    options: { needs: [...PARAMS], budget: 21, budgetPerRun: 2 },
    field: 'templateParam',
    items: 'params',
    sends: ['POST', 'PUT'],
    async lists(t) {
      const known = integersIn((await send(t, { method: 'GET', path: '/paramtype/' })).json);
      const unknown = [99_999, 0, -5].find((n) => !known.has(n)) ?? 515_151;
      return listWithBadItems({
        rule: 'notification/templates/param-type-id',
        valid: [param(t), param(t), param(t)],
        bad: {
          [`paramTypeId ${unknown}, which the listing does not hold`]: param(t, { paramTypeId: unknown }),
          'paramTypeId as text': param(t, { paramTypeId: String(paramTypeId(t)) }),
          'paramTypeId 1.5': param(t, { paramTypeId: 1.5 }),
        },
      });
    },
    refusal: (kind) => ({
      code: 'invalidRequestBodyProperty',
      unlisted: kind.endsWith('which the listing does not hold'),
    }),
  },
);

test(
  ['notification/templates/file-size-limit', 'notification/errors/code-invalid-request-body-property'],
  'a template file of 16777216 bytes is refused wherever it stands among small files',
  async (t) => {
    const { tooBig, remove } = await largeFiles();
    try {
      const over = `${tag()}.html`;
      const lists = listWithBadItems({
        rule: 'notification/templates/file-size-limit',
        valid: validChannelFiles(t),
        bad: { 'a file of 16777216 bytes': { ...emailItem(t, { fileName: over }, false), upload: over } },
      });
      await t.property(
        lists,
        async (list) => {
          const items = list.items.map((x) => x.item);
          const files = list.items.map((x) => (x.upload === over ? { name: over, content: tooBig } : file(x.upload)));
          const res = await postTemplateSet(
            t,
            templateForm({ templatesetName: setName(t, 'big'), templateChannelAndFile: items }, files),
          );
          // "at most 16777215 bytes per file" settles the refusal; 400 rather than, say, 413 of a
          // gateway ("Any other status of most operations") is our reading.
          answeredByReading(t, {
            rule: 'notification/templates/file-size-limit',
            res,
            what: `templateFiles with ${badItemsText(list)}`,
            reading: 'oversize-400',
            allowed: CLIENT_ERRORS,
            wanted: 400,
            ...withCode('invalidRequestBodyProperty'),
          });
        },
        // The three lists that put the large file first, in the middle and last: no more, for their size.
        { rule: 'notification/templates/file-size-limit', runs: 0 },
      );
    } finally {
      remove();
    }
  },
  {
    needs: [...CHANNELS],
    budget: 3,
    timeout: 120_000,
  },
);

test(
  ['notification/templates/multiple-files-one-field'],
  'every template file of a create is taken, one template per file, however many there are',
  async (t) => {
    const channels = [channelId(t, 'email'), channelId(t, 'sms'), channelId(t, 'push')];
    const lists = listWithBadItems({
      rule: 'notification/templates/multiple-files-one-field',
      valid: [],
      bad: { 'a template file': 'file' },
      maxBad: 3,
    });
    await t.property(
      lists,
      async (list) => {
        const files = list.items.map(() => file());
        const res = await postTemplateSet(
          t,
          templateForm(
            {
              templatesetName: setName(t),
              templateChannelAndFile: files.map((f, i) => ({
                communicationChannel: channels[i],
                fileName: f.name,
                operation: 'ADD',
              })),
            },
            files,
          ),
        );
        // The answer is the target's: a templateList that is not a list of records holds no template.
        const answered = (res.json as { templateList?: unknown } | undefined)?.templateList;
        const taken = Array.isArray(answered) ? answered : [];
        listed(t, {
          rule: 'notification/templates/multiple-files-one-field',
          res,
          statuses: [201],
          what: `a template of each of the ${files.length} files' channels`,
          items: channels.slice(0, files.length),
          holds: (_, ch) => taken.some((x) => (x as { commChannelId?: unknown } | null)?.commChannelId === ch),
        });
      },
      { rule: 'notification/templates/multiple-files-one-field', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  {
    needs: [...CHANNELS],
    budget: 8,
    budgetPerRun: 1,
  },
);
