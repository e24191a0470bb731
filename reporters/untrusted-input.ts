import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { forTerminalLine } from './untrusted-text.ts';

/** Why an input someone handed over (a report, a HAR, a bundle) was refused. */
export type UntrustedInputCode = 'unreadable' | 'too-large' | 'not-json' | 'too-deep' | 'not-valid';

/**
 * An input that does not fit what the tool reads: a one-line message for the user (exit 2),
 * never a stack trace. Its message is already safe for the terminal.
 */
export class UntrustedInputError extends Error {
  readonly code: UntrustedInputCode;
  constructor(code: UntrustedInputCode, message: string) {
    super(forTerminalLine(message).slice(0, 600));
    this.name = 'UntrustedInputError';
    this.code = code;
  }
}

/** The largest JSON file read (a full run's HAR is about 6 MB; a report about 2 MB). */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of arrays and objects read (the tool's own outputs stay under 20). */
export const MAX_JSON_DEPTH = 64;

/** The bytes of `file`, refused past `maxBytes` before they are read. */
export function readBoundedFile(file: string, what: string, maxBytes = MAX_JSON_BYTES): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new UntrustedInputError(
      'unreadable',
      `${file}: cannot read ${what} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UntrustedInputError('unreadable', `${file}: not a regular file (${what} expected)`);
    if (st.size > maxBytes)
      throw new UntrustedInputError(
        'too-large',
        `${file}: ${st.size} bytes; ${what} larger than ${maxBytes} bytes is not read`,
      );
    const out = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, out, at, st.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** The deepest nesting of `[` and `{` in JSON text (strings skipped), found without parsing it. */
export function jsonDepth(text: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** JSON text parsed, refused when it is not JSON or nests deeper than `maxDepth`. */
export function parseUntrustedJson(text: string, source: string, what: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth)
    throw new UntrustedInputError('too-deep', `${source}: ${what} nests deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UntrustedInputError('not-json', `${source}: ${what} is not JSON (${(e as Error).message})`);
  }
}

/** A JSON file someone handed over: size, depth and syntax checked before the caller checks its shape. */
export function readUntrustedJson(file: string, what: string, maxBytes = MAX_JSON_BYTES): unknown {
  return parseUntrustedJson(readBoundedFile(file, what, maxBytes).toString('utf8'), file, what);
}
