import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_LIMITS, BundleArchiveError, quoteName, untarGz, type ArchiveLimits } from './tar-archive.ts';

/** A regular file's bytes, opened without following a symlink, refused past `maxBytes`. */
function readRegularFile(path: string, shown: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ELOOP') throw new BundleArchiveError('not-a-regular-file', `${shown} is a symbolic link`);
    throw new BundleArchiveError('unreadable', `${shown} cannot be opened (${code ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new BundleArchiveError('not-a-regular-file', `${shown} is not a regular file`);
    if (st.size > maxBytes)
      throw new BundleArchiveError('entry-too-large', `${shown} is ${st.size} bytes; at most ${maxBytes} are read`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** A bundle directory's files: regular files only, no links, no subdirectories, within the bounds. */
function readBundleDirectory(path: string, limits: ArchiveLimits): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  if (entries.length > limits.maxEntries)
    throw new BundleArchiveError(
      'too-many-entries',
      `${path} holds ${entries.length} entries; a bundle has at most ${limits.maxEntries}`,
    );
  for (const entry of entries) {
    const shown = `${path}: ${quoteName(entry.name)}`;
    if (entry.isSymbolicLink()) throw new BundleArchiveError('not-a-regular-file', `${shown} is a symbolic link`);
    if (entry.isDirectory())
      throw new BundleArchiveError('subdirectory', `${shown} is a directory; a bundle holds files only`);
    if (!entry.isFile()) throw new BundleArchiveError('not-a-regular-file', `${shown} is not a regular file`);
    const content = readRegularFile(join(path, entry.name), shown, limits.maxEntryBytes);
    total += content.length;
    if (total > limits.maxUnpackedBytes)
      throw new BundleArchiveError(
        'too-large',
        `${path} holds more than ${limits.maxUnpackedBytes / 1024 / 1024} MiB; a bundle is a few MB`,
      );
    files.set(entry.name, content);
  }
  return files;
}

/**
 * The files of a bundle, from its directory or its `.tar.gz` (name → content, without the top
 * folder). Throws a `BundleArchiveError` for anything that is not a flat set of regular files.
 */
export async function readBundle(path: string, limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<Map<string, Buffer>> {
  let top;
  try {
    top = statSync(path); // the path the user names may be a link; what is inside may not
  } catch {
    throw new BundleArchiveError('unreadable', `${path}: no such file or directory`);
  }
  if (top.isDirectory()) return readBundleDirectory(path, limits);
  let raw: Map<string, Buffer>;
  try {
    raw = await untarGz(readRegularFile(path, path, limits.maxUnpackedBytes), limits);
  } catch (e) {
    const refused = e as BundleArchiveError;
    if (!(refused instanceof BundleArchiveError)) throw e;
    if (refused.message.startsWith(path)) throw refused;
    throw new BundleArchiveError(refused.code, `${path}: ${refused.message}`);
  }
  // One top folder (as `certify` writes it) is dropped; below it, the bundle is flat.
  const tops = new Set([...raw.keys()].map((k) => (k.includes('/') ? k.split('/')[0] : '')));
  const strip = tops.size === 1 && !tops.has('');
  const files = new Map<string, Buffer>();
  for (const [k, v] of raw) {
    const name = strip ? k.slice(k.indexOf('/') + 1) : k;
    if (name.includes('/'))
      throw new BundleArchiveError('subdirectory', `${path}: ${quoteName(k)} is in a subfolder; a bundle is flat`);
    files.set(name, v);
  }
  return files;
}
