import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tarGz, untarGz } from './tar-archive.ts';

const files: Array<[string, Buffer]> = [
  ['bundle/manifest.json', Buffer.from('{"a":1}\n')],
  ['bundle/empty.txt', Buffer.alloc(0)],
  ['bundle/block.bin', Buffer.alloc(512, 7)],
  ['bundle/big.bin', Buffer.from(Array.from({ length: 70_001 }, (_, i) => i % 251))],
];

describe('tar archive', () => {
  it('reads back what it wrote, byte for byte', () => {
    const back = untarGz(tarGz(files));
    expect([...back.keys()]).toEqual(files.map(([n]) => n));
    for (const [n, b] of files) expect(back.get(n)!.equals(b)).toBe(true);
  });

  it('is read by the system tar, and reads what the system tar writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-tar-'));
    writeFileSync(join(dir, 'ours.tar.gz'), tarGz(files));
    const listed = execFileSync('tar', ['-tzf', join(dir, 'ours.tar.gz')], { encoding: 'utf8' });
    expect(listed.trim().split('\n')).toEqual(files.map(([n]) => n));
    execFileSync('tar', ['-xzf', join(dir, 'ours.tar.gz'), '-C', dir]);
    expect(readFileSync(join(dir, 'bundle/big.bin')).equals(files[3][1])).toBe(true);
    execFileSync('tar', ['--format=ustar', '-czf', join(dir, 'theirs.tar.gz'), '-C', dir, 'bundle/manifest.json']);
    expect(
      untarGz(readFileSync(join(dir, 'theirs.tar.gz')))
        .get('bundle/manifest.json')
        ?.toString(),
    ).toBe('{"a":1}\n');
  });

  it('refuses a damaged header and a truncated file', () => {
    const tar = gunzipSync(tarGz(files));
    const bad = Buffer.from(tar);
    bad[10] ^= 1;
    expect(() => untarGz(gzipSync(bad))).toThrow(/bad header checksum/);
    expect(() => untarGz(gzipSync(tar.subarray(0, 512 + 4)))).toThrow(/truncated/);
    expect(() => untarGz(Buffer.from('not gzip'))).toThrow();
  });
});
