import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from './read-bundle.ts';
import { ARCHIVE_LIMITS, tarGz, type BundleArchiveErrorCode } from './tar-archive.ts';
import { tempDir } from '../tests/temp-dir.ts';

/** A bundle directory holding `manifest.json` and whatever `add` puts beside it. */
function bundleDir(add: (dir: string) => void): string {
  const dir = join(tempDir('read-bundle'), 'b');
  mkdirSync(dir);
  writeFileSync(join(dir, 'manifest.json'), '{}');
  add(dir);
  return dir;
}

const directories: ReadonlyArray<[string, (dir: string) => void, BundleArchiveErrorCode, RegExp]> = [
  ['a symbolic link', (d) => symlinkSync('/etc/passwd', join(d, 'passwd')), 'not-a-regular-file', /symbolic link/],
  [
    'a symbolic link to a directory',
    (d) => symlinkSync('/etc', join(d, 'etc')),
    'not-a-regular-file',
    /"etc" is a symbolic link/,
  ],
  ['a subdirectory', (d) => mkdirSync(join(d, 'sub')), 'subdirectory', /"sub" is a directory/],
  ['a FIFO', (d) => execFileSync('mkfifo', [join(d, 'fifo')]), 'not-a-regular-file', /"fifo" is not a regular file/],
  [
    `more than ${ARCHIVE_LIMITS.maxEntries} files`,
    (d) => {
      for (let i = 0; i < ARCHIVE_LIMITS.maxEntries; i++) writeFileSync(join(d, `f${i}`), '');
    },
    'too-many-entries',
    /holds 65 entries; a bundle has at most 64/,
  ],
  [
    'a file over the size bound (sparse: nothing is written)',
    (d) => {
      writeFileSync(join(d, 'big'), '');
      truncateSync(join(d, 'big'), ARCHIVE_LIMITS.maxEntryBytes + 1);
    },
    'entry-too-large',
    /"big": 33554433 bytes; a bundle file larger than 33554432 bytes is not read/,
  ],
];

describe('readBundle refuses a bundle directory holding', () => {
  it.each(directories)('%s', async (_, add, code, message) => {
    const refused = readBundle(bundleDir(add));
    await expect(refused).rejects.toMatchObject({ name: 'BundleArchiveError', code });
    await expect(refused).rejects.toThrow(message);
  });

  it('and reads a flat one of regular files', async () => {
    const files = await readBundle(bundleDir((d) => writeFileSync(join(d, 'report.html'), 'x')));
    expect([...files.keys()]).toEqual(['manifest.json', 'report.html']);
  });
});

describe('readBundle of a .tar.gz', () => {
  it('drops the one top folder, and refuses files below it', async () => {
    const dir = tempDir('read-bundle');
    const flat = join(dir, 'flat.tar.gz');
    writeFileSync(flat, await tarGz([['b/manifest.json', Buffer.from('{}')]]));
    expect([...(await readBundle(flat)).keys()]).toEqual(['manifest.json']);
    const nested = join(dir, 'nested.tar.gz');
    writeFileSync(nested, await tarGz([['b/sub/manifest.json', Buffer.from('{}')]]));
    await expect(readBundle(nested)).rejects.toMatchObject({ code: 'subdirectory' });
  });

  it('refuses a path that is not a regular file (a FIFO is not waited on)', async () => {
    const fifo = join(tempDir('read-bundle'), 'bundle.tar.gz');
    execFileSync('mkfifo', [fifo]);
    await expect(readBundle(fifo)).rejects.toMatchObject({ code: 'not-a-regular-file' });
  });
});
