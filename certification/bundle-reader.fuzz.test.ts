import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from './read-bundle.ts';
import { BundleArchiveError, untarGz } from './tar-archive.ts';
import { verifyBundle } from './verify-bundle.ts';
import { smallSignedBundle, type SignedBundle } from '../tests/crafted-archives.ts';
import { root } from '../tests/run-cli.ts';
import { tempDir } from '../tests/temp-dir.ts';

const BLOCK = 512;
const tool = { name: 'platform-conformance', version: '0.1.0' };
// Every run prints its seed; FUZZ_SEED replays one.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const params = (numRuns: number) => ({ seed, numRuns, endOnFailure: true });

/** One change to a tar, as an attacker or a damaged disk would make it. */
type TarMutation =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'header-byte'; block: number; field: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'splice'; from: number; to: number; insert: boolean }
  | { kind: 'append'; bytes: Uint8Array };

interface TarMutationConstraints {
  /** Most mutations applied to one archive. */
  maxMutations?: number;
}

/** Header offsets worth hitting: name, mode, size, mtime, checksum, typeflag, linkname, magic, version, prefix. */
const HEADER_FIELDS = [0, 99, 100, 124, 130, 135, 136, 148, 156, 157, 257, 262, 263, 345];

/** A list of tar mutations, built from structured parts so that shrinking keeps working. */
function tarMutations(c: TarMutationConstraints = {}): fc.Arbitrary<TarMutation[]> {
  const mutation: fc.Arbitrary<TarMutation> = fc.oneof(
    fc
      .record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) })
      .map(({ at, xor }) => ({ kind: 'flip' as const, at, xor })),
    fc
      .record({
        block: fc.nat(),
        field: fc.constantFrom(...HEADER_FIELDS),
        value: fc.constantFrom(0, 0x20, 0x30, 0x31, 0x32, 0x37, 0x38, 0x4b, 0x4c, 0x53, 0x67, 0x78, 0x80, 0xff),
      })
      .map((m) => ({ kind: 'header-byte' as const, ...m })),
    fc.nat().map((at) => ({ kind: 'truncate' as const, at })),
    fc.record({ from: fc.nat(), to: fc.nat(), insert: fc.boolean() }).map((m) => ({ kind: 'splice' as const, ...m })),
    fc.uint8Array({ minLength: 1, maxLength: 1200 }).map((bytes) => ({ kind: 'append' as const, bytes })),
  );
  return fc.array(mutation, { minLength: 1, maxLength: c.maxMutations ?? 3 });
}

/** `tar` with `mutations` applied in order. */
function mutate(tar: Buffer, mutations: TarMutation[]): Buffer {
  let t = Buffer.from(tar);
  const blocks = () => Math.max(1, Math.floor(t.length / BLOCK));
  for (const m of mutations) {
    if (!t.length && m.kind !== 'append') continue;
    if (m.kind === 'flip') t[m.at % t.length] ^= m.xor;
    else if (m.kind === 'header-byte') {
      const at = (m.block % blocks()) * BLOCK + m.field;
      if (at < t.length) t[at] = m.value;
    } else if (m.kind === 'truncate') t = t.subarray(0, m.at % t.length);
    else if (m.kind === 'append') t = Buffer.concat([t, m.bytes]);
    else {
      const from = (m.from % blocks()) * BLOCK;
      const block = Buffer.from(t.subarray(from, from + BLOCK));
      const to = (m.to % blocks()) * BLOCK;
      t = m.insert
        ? Buffer.concat([t.subarray(0, to), block, t.subarray(to)])
        : Buffer.concat([t.subarray(0, to), block, t.subarray(to + block.length)]);
    }
  }
  return t;
}

/** Resolves with the files, or with the typed refusal; anything else thrown fails the property. */
async function readOrRefuse(archive: Buffer): Promise<Map<string, Buffer> | BundleArchiveError> {
  try {
    return await untarGz(archive);
  } catch (e) {
    if (e instanceof BundleArchiveError && !e.message.includes('\n')) return e;
    throw e;
  }
}

let genuine: SignedBundle;
let genuineTar: Buffer;
let genuineFiles: Map<string, Buffer>;
let genuineReasons: Set<string>;
let before: string;
const scratch = tempDir('fuzz');

const gitStatus = () => execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });

beforeAll(async () => {
  console.log(`bundle reader fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
  before = gitStatus();
  genuine = await smallSignedBundle(tempDir('fuzz-bundle'));
  genuineTar = gunzipSync(readFileSync(genuine.archive));
  genuineFiles = await readBundle(genuine.archive);
  genuineReasons = new Set((await verifyBundle(genuine.archive, { tool })).reasons);
});

describe('the bundle reader on hostile bytes (fast-check)', () => {
  it('returns files or a BundleArchiveError on arbitrary bytes, gzipped or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.boolean(), async (bytes, gzip) => {
        const b = Buffer.from(bytes);
        await readOrRefuse(gzip ? gzipSync(b) : b);
      }),
      params(200),
    );
  });

  it('returns files or a BundleArchiveError on mutations of a genuine bundle (its .tar.gz and its tar)', async () => {
    const archive = readFileSync(genuine.archive);
    await fc.assert(
      fc.asyncProperty(tarMutations(), fc.constantFrom('tar', 'gzip'), async (mutations, layer) => {
        await readOrRefuse(layer === 'tar' ? gzipSync(mutate(genuineTar, mutations)) : mutate(archive, mutations));
      }),
      params(150),
    );
  });

  it('never lets verify pass files other than the signed ones', async () => {
    // The genuine bundle is refused for its incomplete profile only; a mutation that changes any
    // extracted byte must add a reason of its own, or be refused by the reader.
    await fc.assert(
      fc.asyncProperty(tarMutations({ maxMutations: 2 }), async (mutations) => {
        const file = join(scratch, 'mutated.tar.gz');
        writeFileSync(file, gzipSync(mutate(genuineTar, mutations)));
        let files: Map<string, Buffer>;
        try {
          files = await readBundle(file);
        } catch (e) {
          if (e instanceof BundleArchiveError) return;
          throw e;
        }
        const same =
          files.size === genuineFiles.size && [...files].every(([n, b]) => genuineFiles.get(n)?.equals(b) === true);
        if (same) return;
        const { reasons } = await verifyBundle(file, { tool });
        expect(reasons.filter((r) => !genuineReasons.has(r))).not.toEqual([]);
      }),
      params(60),
    );
  });

  it('wrote nothing outside its temp folder', () => {
    expect(gitStatus()).toBe(before);
  });
});
