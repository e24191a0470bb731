// What the templates spec files share.
import { closeSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FormPart } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { paramTypeId, send, tag } from './notification-client.ts';
import { templateHtml } from './notification-resources.ts';

// Template set records (GET of a set, searches, listings, parameter lists) are declared only as
// "string": the suite looks there for the names and IDs it chose or got from CreateTemplate.
export function putSet(t: RuleContext, id: number | string, form: FormPart[]) {
  return send(t, { method: 'PUT', path: `/template/${id}`, form });
}

export function idList(t: RuleContext, id: number | string) {
  return send(t, { method: 'GET', path: `/template/templateidlist/${id}` });
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
    fits: await write('fits.html', 16_777_215),
    tooBig: await write('too-big.html', 16_777_216),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
