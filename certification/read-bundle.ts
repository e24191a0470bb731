import { readdirSync, statSync } from 'node:fs';
import { readBoundedFile, UntrustedInputError } from '../reporters/untrusted-input.ts';
import { join } from 'node:path';
import { ARCHIVE_LIMITS, BundleArchiveError, quoteName, untarGz, type ArchiveLimits } from './tar-archive.ts';

/** A regular file's bytes, not through a symbolic link, refused past `maxBytes` before it is opened. */
function readRegularFile(path: string, shown: string, maxBytes: number): Buffer {
  try {
    return readBoundedFile(path, 'a bundle file', maxBytes, { followLinks: false, shown });
  } catch (e) {
    if (!(e instanceof UntrustedInputError)) throw e;
    const code = e.code === 'too-large' ? 'entry-too-large' : e.errno ? 'unreadable' : 'not-a-regular-file';
    throw new BundleArchiveError(code, e.message);
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
