import { gunzipSync, gzipSync } from 'node:zlib';
import { extract, pack } from 'tar-stream';

/**
 * A bundle's `.tar.gz`: written with tar-stream's pack, read with its extract under a strict
 * policy. A bundle is a flat handful of small regular files, so everything else an archive can
 * hold (links, devices, directories, pax and GNU extension headers, base-256 numbers, data after
 * the end marker) is refused rather than interpreted: each of these is read differently by some
 * extractor, and a bundle must extract to the same bytes everywhere it was verified.
 */
const BLOCK = 512;
const MiB = 1024 * 1024;

export interface ArchiveLimits {
  /** Bytes of the decompressed tar. */
  maxUnpackedBytes: number;
  /** Entries (files) in the archive. */
  maxEntries: number;
  /** Bytes of one entry. */
  maxEntryBytes: number;
}

/** A bundle is a few MB of a dozen files; these bounds leave room and stop a gzip bomb early. */
export const ARCHIVE_LIMITS: ArchiveLimits = { maxUnpackedBytes: 64 * MiB, maxEntries: 64, maxEntryBytes: 32 * MiB };

export type BundleArchiveErrorCode =
  | 'not-gzip'
  | 'too-large'
  | 'too-many-entries'
  | 'entry-too-large'
  | 'not-a-regular-file'
  | 'subdirectory'
  | 'bad-checksum'
  | 'bad-magic'
  | 'bad-number'
  | 'bad-name'
  | 'duplicate-name'
  | 'trailing-data'
  | 'truncated'
  | 'unreadable';

/** Why an archive or bundle directory is refused: a stable `code` and a one-line message. */
export class BundleArchiveError extends Error {
  readonly code: BundleArchiveErrorCode;
  constructor(code: BundleArchiveErrorCode, message: string) {
    super(message.replace(/[\r\n]+/g, ' '));
    this.name = 'BundleArchiveError';
    this.code = code;
  }
}

/** A name from an archive, quoted with its control characters escaped, for a message. */
export function quoteName(name: string): string {
  return JSON.stringify(name).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What a name must not be: the reason, or undefined when it is a plain relative path. */
export function nameProblem(name: string): string | undefined {
  if (!name) return 'an empty name';
  // C0 and C1 controls, DEL, and U+FFFD (what bytes that are not UTF-8 decode to).
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f-\u009f\ufffd]/.test(name)) return 'a control character or bytes that are not UTF-8';
  if (name.includes('\\')) return 'a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  const parts = name.split('/');
  if (parts.includes('..')) return 'a ".." component';
  if (parts.some((p) => p === '' || p === '.')) return 'an empty or "." component';
  return undefined;
}

const TYPES: Record<string, string> = {
  '0': 'regular file',
  '\0': 'regular file',
  '1': 'hard link',
  '2': 'symbolic link',
  '3': 'character device',
  '4': 'block device',
  '5': 'directory',
  '6': 'FIFO',
  '7': 'contiguous file',
  x: 'pax extended header',
  g: 'pax global header',
  L: 'GNU long name',
  K: 'GNU long link name',
};

function typeName(flag: number): string {
  const c = String.fromCharCode(flag);
  return `${TYPES[c] ?? 'unknown entry type'} (type ${quoteName(c)})`;
}

/** ustar (POSIX) or GNU magic with its version; tar-stream reads both, and nothing else here. */
function magicOk(h: Buffer): boolean {
  const m = h.toString('latin1', 257, 265);
  return m === 'ustar\u000000' || m === 'ustar  \u0000';
}

/** An octal field as ustar writes it: optional leading spaces, digits, then spaces or NULs. Base-256 is refused. */
function octalField(h: Buffer, start: number, len: number, optional = false): number | undefined {
  const s = h.toString('latin1', start, start + len);
  const m = /^ *([0-7]*)[ \0]*$/.exec(s);
  if (!m || (!m[1] && !optional)) return undefined;
  return m[1] ? parseInt(m[1], 8) : 0;
}

const NUMERIC_FIELDS: ReadonlyArray<[string, number, number, boolean?]> = [
  ['mode', 100, 8],
  ['uid', 108, 8, true],
  ['gid', 116, 8, true],
  ['size', 124, 12],
  ['mtime', 136, 12],
  ['checksum', 148, 8],
  ['devmajor', 329, 8, true],
  ['devminor', 337, 8, true],
];

/**
 * Why a stretch tar-stream passed over without an entry is refused: it consumes extension
 * headers (pax, GNU long names) and zero blocks silently, so any gap between the end of one
 * entry and the header of the next is one of those.
 */
function hiddenBlock(tar: Buffer, at: number): BundleArchiveError {
  const block = tar.subarray(at, at + BLOCK);
  if (block.every((b) => b === 0)) {
    const next = tar.subarray(at).findIndex((b) => b !== 0);
    if (next < 0) return new BundleArchiveError('truncated', 'the archive does not end on a whole 512-byte block');
    return new BundleArchiveError('trailing-data', `data after the end-of-archive marker (at byte ${at + next})`);
  }
  return new BundleArchiveError(
    'not-a-regular-file',
    `entry at byte ${at} is a ${typeName(block[156])}: a bundle holds regular files only`,
  );
}

/** Checks one entry's raw header (at `offset` of `tar`) against the policy; returns its name and size. */
function checkHeader(tar: Buffer, offset: number, decodedName: string, decodedSize: number, limits: ArchiveLimits) {
  const h = tar.subarray(offset, offset + BLOCK);
  const at = `entry at byte ${offset}`;
  if (!magicOk(h)) throw new BundleArchiveError('bad-magic', `${at} has neither the ustar nor the GNU tar magic`);
  const flag = h[156];
  if (flag !== 0x30 && flag !== 0)
    throw new BundleArchiveError(
      'not-a-regular-file',
      `${at} (${quoteName(decodedName)}) is a ${typeName(flag)}: a bundle holds regular files only`,
    );
  const values: Record<string, number> = {};
  for (const [field, start, len, optional] of NUMERIC_FIELDS) {
    const v = octalField(h, start, len, optional);
    if (v === undefined)
      throw new BundleArchiveError(
        'bad-number',
        `${at} has a ${field} field that is not plain octal (base-256 or garbage)`,
      );
    values[field] = v;
  }
  if (values.size !== decodedSize) throw new BundleArchiveError('bad-number', `${at} has an unreadable size field`);
  if (values.size > limits.maxEntryBytes)
    throw new BundleArchiveError(
      'entry-too-large',
      `${at} (${quoteName(decodedName)}) is ${values.size} bytes; an entry may have ${limits.maxEntryBytes}`,
    );
  const problem = nameProblem(decodedName);
  if (problem) throw new BundleArchiveError('bad-name', `${at} has a name with ${problem}: ${quoteName(decodedName)}`);
  if (decodedName.endsWith('/'))
    throw new BundleArchiveError('not-a-regular-file', `${at} (${quoteName(decodedName)}) is a directory`);
}

/** tar-stream's own refusals, given a code. */
function fromTarStream(e: unknown): BundleArchiveError {
  const message = (e as Error)?.message ?? String(e);
  const code: BundleArchiveErrorCode = /checksum|Invalid tar header\. Maybe/.test(message)
    ? 'bad-checksum'
    : /unknown format/.test(message)
      ? 'bad-magic'
      : /Unexpected end/.test(message)
        ? 'truncated'
        : /Invalid header|max size/.test(message)
          ? 'bad-number'
          : 'unreadable';
  return new BundleArchiveError(code, `tar: ${message}`);
}

/** The decompressed tar, refused past `maxUnpackedBytes` without inflating the rest. */
function gunzipBounded(archive: Buffer, limits: ArchiveLimits): Buffer {
  try {
    return gunzipSync(archive, { maxOutputLength: limits.maxUnpackedBytes });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new BundleArchiveError(
        'too-large',
        `the archive unpacks to more than ${limits.maxUnpackedBytes / MiB} MiB; a bundle is a few MB`,
      );
    throw new BundleArchiveError('not-gzip', `not a readable gzip stream (${(e as Error).message})`);
  }
}

/**
 * The files of a gzipped tar (name → content, in archive order). Refuses, with a
 * `BundleArchiveError`, anything but a plain sequence of regular files followed by the end marker.
 */
export async function untarGz(archive: Buffer, limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<Map<string, Buffer>> {
  const tar = gunzipBounded(archive, limits);
  const files = new Map<string, Buffer>();
  const reader = extract();
  let expected = 0; // where the next header must start: right after the previous entry
  try {
    reader.end(tar);
    for await (const entry of reader) {
      const { header, offset } = entry;
      if (offset !== expected) throw hiddenBlock(tar, expected);
      checkHeader(tar, offset, header.name, header.size, limits);
      if (header.type !== 'file')
        throw new BundleArchiveError('not-a-regular-file', `entry at byte ${offset} is a ${header.type}`);
      if (files.has(header.name))
        throw new BundleArchiveError('duplicate-name', `${quoteName(header.name)} is in the archive twice`);
      if (files.size >= limits.maxEntries)
        throw new BundleArchiveError('too-many-entries', `more than ${limits.maxEntries} entries`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(header.name, Buffer.concat(chunks));
      expected = offset + BLOCK + Math.ceil(header.size / BLOCK) * BLOCK;
    }
  } catch (e) {
    reader.destroy();
    if (e instanceof BundleArchiveError) throw e;
    // tar-stream may fail past what it passed over silently: name that, not its symptom.
    const passedOver = tar.subarray(expected, expected + BLOCK);
    if (
      passedOver.length === BLOCK &&
      (passedOver.every((b) => b === 0) || 'xgLK'.includes(String.fromCharCode(passedOver[156])))
    )
      throw hiddenBlock(tar, expected);
    throw fromTarStream(e);
  }
  // After the last entry: the end marker (two zero blocks), then nothing but zero padding.
  const rest = tar.subarray(expected);
  if (rest.some((b) => b !== 0)) throw hiddenBlock(tar, expected);
  if (rest.length < 2 * BLOCK) throw new BundleArchiveError('truncated', 'the archive has no end-of-archive marker');
  return files;
}

/**
 * A gzipped ustar of `files` (name → content), in the given order, every entry dated `mtime`.
 * Throws when the reader would refuse the result (a name longer than ustar holds, a file past the bounds).
 */
export async function tarGz(files: ReadonlyArray<[string, Buffer]>, mtime = new Date()): Promise<Buffer> {
  const packer = pack();
  const out: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of packer) out.push(chunk as Buffer);
  })();
  for (const [name, data] of files) {
    if (!/^[\x20-\x7e]+$/.test(name) || nameProblem(name))
      throw new BundleArchiveError('bad-name', `tar: cannot write the name ${quoteName(name)}`);
    packer.entry({ name, size: data.length, mode: 0o644, mtime, type: 'file', uid: 0, gid: 0 }, data);
  }
  packer.finalize();
  await done;
  const archive = gzipSync(Buffer.concat(out));
  // What we write, we read: a name ustar cannot hold (tar-stream would add a pax header) or a
  // bundle past the bounds fails here, when it is made, not when someone verifies it.
  try {
    await untarGz(archive);
  } catch (e) {
    const refused = e as BundleArchiveError;
    throw new BundleArchiveError(refused.code, `tar: the reader would refuse this archive: ${refused.message}`);
  }
  return archive;
}
