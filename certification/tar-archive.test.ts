import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, BundleArchiveError, tarGz, untarGz, type BundleArchiveErrorCode } from './tar-archive.ts';
import { tempDir } from '../tests/temp-dir.ts';
import { appendToArchive, archiveOf, base256, END, paxRecord, rawEntry, rawHeader } from '../tests/crafted-archives.ts';

const files: Array<[string, Buffer]> = [
  ['bundle/manifest.json', Buffer.from('{"a":1}\n')],
  ['bundle/empty.txt', Buffer.alloc(0)],
  ['bundle/block.bin', Buffer.alloc(512, 7)],
  ['bundle/big.bin', Buffer.from(Array.from({ length: 70_001 }, (_, i) => i % 251))],
];

async function refusal(archive: Buffer): Promise<BundleArchiveError> {
  try {
    await untarGz(archive);
  } catch (e) {
    expect(e).toBeInstanceOf(BundleArchiveError);
    expect((e as Error).message).not.toContain('\n');
    return e as BundleArchiveError;
  }
  throw new Error('the archive was accepted');
}

describe('tar archive', () => {
  it('reads back what it wrote, byte for byte', async () => {
    const back = await untarGz(await tarGz(files));
    expect([...back.keys()]).toEqual(files.map(([n]) => n));
    for (const [n, b] of files) expect(back.get(n)!.equals(b)).toBe(true);
  });

  it('is read by the system tar, and reads what the system tar writes (ustar and GNU format)', async () => {
    const dir = tempDir('tar');
    writeFileSync(join(dir, 'ours.tar.gz'), await tarGz(files));
    const listed = execFileSync('tar', ['-tzf', join(dir, 'ours.tar.gz')], { encoding: 'utf8' });
    expect(listed.trim().split('\n')).toEqual(files.map(([n]) => n));
    execFileSync('tar', ['-xzf', join(dir, 'ours.tar.gz'), '-C', dir]);
    expect(readFileSync(join(dir, 'bundle/big.bin')).equals(files[3][1])).toBe(true);
    for (const format of ['ustar', 'gnu']) {
      const theirs = join(dir, `${format}.tar.gz`);
      execFileSync('tar', [`--format=${format}`, '-czf', theirs, '-C', dir, 'bundle/manifest.json', 'bundle/big.bin']);
      const back = await untarGz(readFileSync(theirs));
      expect(back.get('bundle/manifest.json')?.toString()).toBe('{"a":1}\n');
      expect(back.get('bundle/big.bin')?.equals(files[3][1])).toBe(true);
    }
  });

  it('refuses to write a name ustar cannot hold rather than add a pax header', async () => {
    await expect(tarGz([[`bundle/${'x'.repeat(120)}`, Buffer.from('a')]])).rejects.toMatchObject({
      code: 'not-a-regular-file',
    });
    await expect(tarGz([['../up', Buffer.from('a')]])).rejects.toMatchObject({ code: 'bad-name' });
  });
});

const html = '<!doctype html><script>alert("forged")</script><div id="verdict">CONFORMANT</div>';
const forgedName = 'bundle/certificate.html';
const pax = paxRecord('path', forgedName);

/** Each row: an archive as an attacker writes it, and the code the reader refuses it with. */
const attacks: ReadonlyArray<[string, () => Buffer, BundleArchiveErrorCode, RegExp]> = [
  [
    'a type-7 (contiguous file) entry holding another certificate.html',
    () => appendToArchive(archive, [rawEntry({ name: forgedName, type: '7' }, html)]),
    'not-a-regular-file',
    /is a contiguous file \(type "7"\)/,
  ],
  [
    'a pax header with a base-256 size, then a file',
    () =>
      appendToArchive(archive, [
        rawEntry({ name: 'PaxHeader', type: 'x', sizeField: base256(pax.length) }, pax),
        rawEntry({ name: 'bundle/innocent.txt' }, html),
      ]),
    'not-a-regular-file',
    /is a pax extended header \(type "x"\)/,
  ],
  [
    'a pax global header',
    () => appendToArchive(archive, [rawEntry({ name: 'g', type: 'g' }, pax), rawEntry({ name: 'bundle/x' }, 'x')]),
    'not-a-regular-file',
    /pax global header/,
  ],
  [
    'a GNU long name (L) before a file',
    () =>
      appendToArchive(archive, [
        rawEntry({ name: '././@LongLink', type: 'L' }, `${forgedName}\0`),
        rawEntry({ name: 'bundle/short' }, html),
      ]),
    'not-a-regular-file',
    /GNU long name/,
  ],
  [
    'a GNU long link name (K)',
    () => appendToArchive(archive, [rawEntry({ name: '././@LongLink', type: 'K' }, '/etc/passwd\0')]),
    'not-a-regular-file',
    /GNU long link name/,
  ],
  [
    'a symbolic link to /etc/passwd',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/passwd', type: '2', linkname: '/etc/passwd' })]),
    'not-a-regular-file',
    /symbolic link/,
  ],
  [
    'a hard link to /etc/passwd',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/passwd', type: '1', linkname: '/etc/passwd' })]),
    'not-a-regular-file',
    /hard link/,
  ],
  [
    'a directory',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/sub/', type: '5' })]),
    'not-a-regular-file',
    /directory/,
  ],
  [
    'a FIFO',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/fifo', type: '6' })]),
    'not-a-regular-file',
    /FIFO/,
  ],
  [
    'an unknown type (GNU sparse)',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/sparse', type: 'S' }, 'x')]),
    'not-a-regular-file',
    /unknown entry type \(type "S"\)/,
  ],
  [
    'a regular file whose size is base-256',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/b256', sizeField: base256(4) }, 'abcd')]),
    'bad-number',
    /size field that is not plain octal/,
  ],
  [
    'a mode field that is not octal',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/mode', patch: [100, '00006x4\0'] }, 'a')]),
    'bad-number',
    /mode field/,
  ],
  [
    'an mtime that is octal followed by garbage',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/mtime', patch: [136, '1234567z'] }, 'a')]),
    'bad-number',
    /mtime field/,
  ],
  [
    'a bad header checksum',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/sum', badChecksum: true }, 'a')]),
    'bad-checksum',
    /Invalid tar header/,
  ],
  [
    'a wrong magic',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/magic', magic: 'ustaR\u000000' }, 'a')]),
    'bad-magic',
    /unknown format/,
  ],
  [
    'no magic at all (v7 tar)',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/v7', magic: '\0\0\0\0\0\0\0\0' }, 'a')]),
    'bad-magic',
    /unknown format/,
  ],
  [
    'a ustar magic with another version',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/ver', magic: 'ustar\u000001' }, 'a')]),
    'bad-magic',
    /neither the ustar nor the GNU tar magic/,
  ],
  [
    'a file after the end-of-archive marker',
    () => appendToArchive(archive, [], [rawEntry({ name: forgedName }, html), END]),
    'trailing-data',
    /data after the end-of-archive marker/,
  ],
  [
    'garbage after the end-of-archive marker',
    () => appendToArchive(archive, [], [Buffer.alloc(512, 0x41)]),
    'trailing-data',
    /data after the end-of-archive marker/,
  ],
  [
    'a lone zero block between two files',
    () => appendToArchive(archive, [Buffer.alloc(512), rawEntry({ name: 'bundle/after-zero' }, 'a')]),
    'trailing-data',
    /data after the end-of-archive marker/,
  ],
  [
    'no end-of-archive marker',
    () => {
      const tar = gunzipSync(archive);
      return gzipSync(tar.subarray(0, tar.length - 1024));
    },
    'truncated',
    /no end-of-archive marker/,
  ],
  ['a file cut short', () => gzipSync(gunzipSync(archive).subarray(0, 512 + 4)), 'truncated', /Unexpected end of data/],
  ['bytes that are not gzip', () => Buffer.from('not gzip'), 'not-gzip', /not a readable gzip stream/],
  [
    'the same name twice',
    () => appendToArchive(archive, [rawEntry({ name: 'bundle/manifest.json' }, '{"a":2}\n')]),
    'duplicate-name',
    /"bundle\/manifest.json" is in the archive twice/,
  ],
  ['a ../ path', () => archiveOf([rawEntry({ name: 'bundle/../../evil' }, 'x')]), 'bad-name', /a "\.\." component/],
  ['an absolute path', () => archiveOf([rawEntry({ name: '/etc/evil' }, 'x')]), 'bad-name', /an absolute path/],
  ['a backslash', () => archiveOf([rawEntry({ name: 'bundle\\..\\evil' }, 'x')]), 'bad-name', /a backslash/],
  [
    'a control character',
    () => archiveOf([rawEntry({ name: 'bundle/\u001b]0;pwned\u0007' }, 'x')]),
    'bad-name',
    /a control character.*\\u001b/,
  ],
  [
    'a name that is not UTF-8',
    () => archiveOf([rawHeader({ name: 'bundle/x', size: 0, patch: [7, '\xff\xfe'] }), END]),
    'bad-name',
    /not UTF-8/,
  ],
  ['a "." component', () => archiveOf([rawEntry({ name: 'bundle/./x' }, 'x')]), 'bad-name', /"\." component/],
  [
    `more than ${ARCHIVE_LIMITS.maxEntries} entries`,
    () => archiveOf(Array.from({ length: ARCHIVE_LIMITS.maxEntries + 1 }, (_, i) => rawEntry({ name: `f${i}` }))),
    'too-many-entries',
    /more than 64 entries/,
  ],
  [
    'an entry larger than the bound (its size is refused before its data is read)',
    () => archiveOf([rawHeader({ name: 'bundle/huge', size: ARCHIVE_LIMITS.maxEntryBytes + 1 })]),
    'entry-too-large',
    /is 33554433 bytes; an entry may have 33554432/,
  ],
];

let archive: Buffer;

describe('tar archive reader refuses', () => {
  it.each(attacks)('%s', async (_, build, code, message) => {
    archive ??= await tarGz(files);
    const e = await refusal(build());
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });

  it('a gzip bomb, without inflating it', async () => {
    // 200 MiB of zeros behind one header: 200 KB of gzip, three times the bound once unpacked.
    const gzip = createGzip({ level: 9 });
    const out: Buffer[] = [];
    gzip.on('data', (c: Buffer) => out.push(c));
    const done = new Promise((resolve) => gzip.on('end', resolve));
    gzip.write(rawHeader({ name: 'bundle/zeros', size: 200 * 1024 * 1024 }));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 200; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r));
    gzip.end();
    await done;
    const bomb = Buffer.concat(out);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const e = await refusal(bomb);
    expect(e.code).toBe('too-large');
    expect(e.message).toMatch(/unpacks to more than 64 MiB/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
