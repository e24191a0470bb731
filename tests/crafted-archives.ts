import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadRules } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import { buildReport } from '../reporters/conformance-report.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { generateSigningKey, type KeyPair } from '../certification/signing-key.ts';
import { writeBundle, type WrittenBundle } from '../certification/write-bundle.ts';

/**
 * Archives as an attacker writes them: tar headers built byte by byte (so they can hold what no
 * well-behaved writer makes) and appended to a genuine bundle's tar.
 */
const BLOCK = 512;

export interface RawHeader {
  name: string;
  size: number;
  /** The typeflag byte, as a character ('0' regular file, '7' contiguous, 'x' pax…). */
  type?: string;
  linkname?: string;
  /** The 12 bytes of the size field, in place of the octal of `size` (e.g. base-256). */
  sizeField?: Buffer;
  /** The 8 bytes at 257 (magic and version); ustar's by default. */
  magic?: string;
  /** Bytes written over the header before its checksum is computed: [offset, bytes]. */
  patch?: [number, string];
  /** Leave the checksum wrong. */
  badChecksum?: boolean;
}

const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;

/** One 512-byte tar header. */
export function rawHeader(o: RawHeader): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(o.name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'latin1');
  h.write(octal(0, 8), 108, 'latin1');
  h.write(octal(0, 8), 116, 'latin1');
  if (o.sizeField) o.sizeField.copy(h, 124);
  else h.write(octal(o.size, 12), 124, 'latin1');
  h.write(octal(1_700_000_000, 12), 136, 'latin1');
  h.write(o.type ?? '0', 156, 'latin1');
  if (o.linkname) h.write(o.linkname, 157, 100, 'utf8');
  h.write(o.magic ?? 'ustar\u000000', 257, 'latin1');
  if (o.patch) h.write(o.patch[1], o.patch[0], 'latin1');
  h.write('        ', 148, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${(sum + (o.badChecksum ? 1 : 0)).toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** A header and its data, padded to whole blocks. */
export function rawEntry(o: Omit<RawHeader, 'size'> & { size?: number }, data: Buffer | string = ''): Buffer {
  const body = Buffer.from(data);
  const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
  return Buffer.concat([rawHeader({ ...o, size: o.size ?? body.length }), body, Buffer.alloc(pad)]);
}

/** A size field in GNU base-256: 0x80, then the number big-endian. */
export function base256(n: number): Buffer {
  const b = Buffer.alloc(12);
  b[0] = 0x80;
  b.writeUIntBE(n, 6, 6);
  return b;
}

/** A pax extended header record ("<len> key=value\n"). */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = body.length + 1;
  while (`${len}${body}`.length !== len) len++;
  return `${len}${body}`;
}

/** The end-of-archive marker: two zero blocks. */
export const END = Buffer.alloc(2 * BLOCK);

/** Our writer ends its tar with exactly the marker; `blocks` go in before it (`after` behind it). */
export function appendToArchive(archive: Buffer, blocks: Buffer[], after: Buffer[] = []): Buffer {
  const tar = gunzipSync(archive);
  return gzipSync(Buffer.concat([tar.subarray(0, tar.length - END.length), ...blocks, END, ...after]));
}

/** A gzipped tar made of `blocks` and the marker. */
export function archiveOf(blocks: Buffer[]): Buffer {
  return gzipSync(Buffer.concat([...blocks, END]));
}

export interface SignedBundle extends WrittenBundle {
  key: KeyPair;
  /** The public key as a file, for `verify --key`. */
  publicKeyFile: string;
}

/**
 * A small genuine bundle signed by `writeBundle`: a report that judged nothing (so its manifest
 * says NOT CONFORMANT, with an incomplete profile) and the pages rendered from it.
 */
export async function smallSignedBundle(
  parent: string,
  services: ServiceName[] = ['notification'],
): Promise<SignedBundle> {
  const dir = join(parent, 'acme-bundle');
  mkdirSync(dir, { recursive: true });
  const report = buildReport(loadRules(services), [], {
    toolVersion: '0.1.0',
    target: 'http://127.0.0.1:1',
    embedded: false,
    startedAt: '2026-11-21T00:00:00.000Z',
    finishedAt: '2026-11-21T00:00:01.000Z',
    seed: 1,
    options: { runs: 25 },
    interrupted: false,
    errors: [],
    services,
    reportFile: join(dir, 'conformance-report.json'),
  });
  writeOutputs(dir, report);
  const har = { log: { version: '1.2', creator: { name: 'platform-conformance', version: '0.1.0' }, entries: [] } };
  writeFileSync(join(dir, 'exchanges.har'), JSON.stringify(har));
  const key = await generateSigningKey();
  const written = await writeBundle(
    dir,
    { vendor: 'Acme Corp', product: 'Acme Platform', productVersion: '2.1.0', services },
    { ...key, origin: 'given' },
  );
  const publicKeyFile = join(parent, 'public.jwk');
  writeFileSync(publicKeyFile, JSON.stringify(key.publicJwk));
  return { ...written, key, publicKeyFile };
}
