import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A ustar writer and reader for the bundle's flat list of small files (POSIX.1-1988 ustar,
 * regular files only). A bundle holds a handful of files under 100 characters of name, so
 * the format's plain header is enough and no dependency is needed.
 */
const BLOCK = 512;

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: file name longer than 100 bytes: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii'); // mode
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum field counts as spaces while summing
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** A gzipped tar of `files` (name → content), in the given order, every entry dated `mtime`. */
export function tarGz(files: ReadonlyArray<[string, Buffer]>, mtime = new Date()): Buffer {
  const secs = Math.floor(mtime.getTime() / 1000);
  const parts: Buffer[] = [];
  for (const [name, data] of files) {
    parts.push(header(name, data.length, secs), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

/** The regular files of a gzipped tar (name → content); throws on a truncated or corrupt archive. */
export function untarGz(archive: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(archive);
  const files = new Map<string, Buffer>();
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const field = (start: number, len: number) =>
      h
        .subarray(start, start + len)
        .toString('ascii')
        .replace(/\0.*$/s, '')
        .trim();
    const stored = parseInt(field(148, 8), 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    if (sum !== stored) throw new Error(`tar: bad header checksum at offset ${at}`);
    const prefix = field(345, 155);
    const base = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const name = prefix ? `${prefix}/${base}` : base;
    const size = parseInt(field(124, 12), 8);
    const type = String.fromCharCode(h[156] || 48);
    at += BLOCK;
    if (at + size > tar.length) throw new Error(`tar: ${name} is truncated`);
    if (type === '0' || type === '\0') files.set(name.replace(/^\.\//, ''), Buffer.from(tar.subarray(at, at + size)));
    at += Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
