// What the templates spec files share.
import { closeSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FormPart } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import type { ListWithBadItems } from '../../generators/index.ts';
import { channelId, integersIn, paramTypeId, send, tag, templateForm } from './notification-client.ts';
import { setName, templateHtml } from './notification-resources.ts';
import { contractBound } from '../../contracts/facts.ts';

// Template set records (GET of a set, searches, listings, parameter lists) are declared only as
// "string": the suite looks there for the names and IDs it chose or got from CreateTemplate.
export function putSet(t: RuleContext, id: number | string, form: FormPart[]) {
  return send(t, { method: 'PUT', path: `/template/${id}`, form });
}

export function idList(t: RuleContext, id: number | string) {
  return send(t, { method: 'GET', path: `/template/templateidlist/${id}` });
}

export function paramList(t: RuleContext, id: number | string) {
  return send(t, { method: 'GET', path: `/templateparam/${id}` });
}

/** The form of an update of `set` with one DELETE item, of `channel`, and no file. */
export function deleteItem(set: { name: string }, channel: number): FormPart[] {
  return templateForm(
    { templatesetName: set.name, templateChannelAndFile: [{ communicationChannel: channel, operation: 'DELETE' }] },
    [],
  );
}

export function file(name = `${tag()}.html`, content = templateHtml(name)) {
  return { name, content };
}

/** A TemplateProcessInfo with one ADD item per channel and file. */
export function info(
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

export function param(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paramName: `${t.prefix}p${tag()}`,
    defaultValue: 'Example',
    placeHolderName: `ph${tag()}`,
    paramTypeId: paramTypeId(t),
    ...over,
  };
}

/** "Template file size: at most 16777215 bytes per file" (the contract's maxLength of a file part). */
export const TEMPLATE_FILE_MAX = contractBound(
  'notification',
  '#/components/schemas/TemplateCreateForm/properties/templateFiles/items',
  'maxLength',
);

/**
 * The two large files, exactly at the limit and one byte over it, written to disk and sent from
 * there (file-backed Blobs), so that a run never holds their 32 MiB in memory.
 */
export async function largeFiles(): Promise<{ fits: Blob; tooBig: Blob; remove: () => void }> {
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
    fits: await write('fits.html', TEMPLATE_FILE_MAX),
    tooBig: await write('too-big.html', TEMPLATE_FILE_MAX + 1),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// The items of a template request's lists (templates-lists.spec.ts).

/** A templateChannelAndFile item, and the file it uploads (none for an item naming no file). */
export interface ChannelFile {
  item: Record<string, unknown>;
  upload?: string;
}

/** Valid ADD items of the SMS and push channels, each with its file. */
export function validChannelFiles(t: RuleContext): ChannelFile[] {
  return (['sms', 'push'] as const).map((kind) => {
    const name = `${tag()}.html`;
    return { item: { communicationChannel: channelId(t, kind), fileName: name, operation: 'ADD' }, upload: name };
  });
}

/** The form of a set named `name` with the items of `list`, uploading their files. */
export function channelFileForm(name: string, list: ListWithBadItems<ChannelFile, ChannelFile>, extra = {}) {
  const items = list.items.map((x) => x.item);
  const files = list.items.flatMap((x) => (x.upload ? [file(x.upload)] : []));
  return templateForm({ templatesetName: name, templateChannelAndFile: items, ...extra }, files);
}

/** The ID of a channel GET /communicationchannel/ does not list. */
export async function unlistedChannel(t: RuleContext): Promise<number> {
  const known = integersIn((await send(t, { method: 'GET', path: '/communicationchannel/' })).json);
  return [99_999, 0, -1].find((n) => !known.has(n)) ?? 424_242;
}

/** A bad item of the email channel with its own file (its operation ADD unless `over` says otherwise). */
export function emailItem(t: RuleContext, over: Record<string, unknown>, upload = true): ChannelFile {
  const name = `${tag()}.html`;
  return {
    item: { communicationChannel: channelId(t, 'email'), fileName: name, operation: 'ADD', ...over },
    upload: upload ? name : undefined,
  };
}

/** A form with one email template and the parameters of `list` (on update: the parameters alone). */
export function paramForm(t: RuleContext, list: ListWithBadItems, set?: { name: string }) {
  if (set) return templateForm({ templatesetName: set.name, templateParam: list.items }, []);
  const f = file();
  return templateForm(
    {
      templatesetName: setName(t),
      templateChannelAndFile: [{ communicationChannel: channelId(t, 'email'), fileName: f.name, operation: 'ADD' }],
      templateParam: list.items,
    },
    [f],
  );
}
