import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { forTerminalLine } from './untrusted-text.ts';

/** Why an input someone handed over (a report, a HAR, a bundle) was refused. */
export type UntrustedInputCode = 'unreadable' | 'too-large' | 'not-json' | 'too-deep' | 'not-valid';

/**
 * An input that does not fit what the tool reads: a one-line message for the user (exit 2),
 * never a stack trace. Its message is already safe for the terminal.
 */
export class UntrustedInputError extends Error {
  readonly code: UntrustedInputCode;
  /** The system's error code when the file could not be opened at all (ENOENT, EACCES, EISDIR…). */
  readonly errno?: string;
  constructor(code: UntrustedInputCode, message: string, errno?: string) {
    super(forTerminalLine(message).slice(0, 600));
    this.name = 'UntrustedInputError';
    this.code = code;
    if (errno !== undefined) this.errno = errno;
  }
}

/** The largest JSON file read (a full run's HAR is about 6 MB; a report about 2 MB). */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of arrays and objects read (the tool's own outputs stay under 20). */
export const MAX_JSON_DEPTH = 64;

/**
 * The bound of each kind of file the tool reads from the user or from someone else: a run's HAR is
 * about 6 MB and its report about 2 MB; a mutation result about 3 MB; a configuration, a baseline,
 * a key or a CA bundle a few KB (the system's whole CA bundle is about 200 KB).
 */
export const INPUT_BOUNDS = {
  report: MAX_JSON_BYTES,
  har: MAX_JSON_BYTES,
  mutationResult: MAX_JSON_BYTES,
  config: 1024 * 1024,
  baseline: 1024 * 1024,
  certificate: 1024 * 1024,
  key: 64 * 1024,
} as const;

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

function ensureRegularFile(st: Stats, shown: string, what: string, maxBytes: number): void {
  if (!st.isFile())
    throw new UntrustedInputError('unreadable', `${shown}: not a regular file (${kindOf(st)}; ${what} expected)`);
  if (st.size > maxBytes)
    throw new UntrustedInputError(
      'too-large',
      `${shown}: ${st.size} bytes; ${what} larger than ${maxBytes} bytes is not read`,
    );
}

function cannotRead(shown: string, what: string, e: unknown): UntrustedInputError {
  const errno = (e as NodeJS.ErrnoException).code;
  return new UntrustedInputError(
    'unreadable',
    `${shown}: cannot read ${what} (${errno ?? (e as Error).message})`,
    errno,
  );
}

/** How a bounded read treats its path. */
export interface BoundedReadOptions {
  /** Follow a symbolic link and check its target (the default), or refuse the link itself. */
  followLinks?: boolean;
  /** The name messages give the file (its path by default). */
  shown?: string;
}

/**
 * Refuses `file` unless it is a regular file (a link followed and its target checked, unless
 * `followLinks` is false) of at most `maxBytes`, without opening it: opening a FIFO for reading
 * waits for a writer, and a device such as /dev/zero never ends. For a file another component
 * reads (a CA bundle, a module); the tool's own reads go through `readBoundedFile`.
 */
export function checkRegularFile(file: string, what: string, maxBytes: number, options: BoundedReadOptions = {}): void {
  const shown = options.shown ?? file;
  let st: Stats;
  try {
    st = options.followLinks === false ? lstatSync(file) : statSync(file);
  } catch (e) {
    throw cannotRead(shown, what, e);
  }
  ensureRegularFile(st, shown, what, maxBytes);
}

/**
 * The bytes of `file`, refused before it is opened unless it is a regular file of at most
 * `maxBytes`. The one reader of every file the user or someone else hands over.
 */
export function readBoundedFile(
  file: string,
  what: string,
  maxBytes = MAX_JSON_BYTES,
  options: BoundedReadOptions = {},
): Buffer {
  const shown = options.shown ?? file;
  checkRegularFile(file, what, maxBytes, options);
  let fd: number;
  try {
    // Non-blocking, and checked again on the descriptor: the path may have been swapped for a FIFO since.
    const noFollow = options.followLinks === false ? constants.O_NOFOLLOW : 0;
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UntrustedInputError('unreadable', `${shown}: not a regular file (a symbolic link; ${what} expected)`);
    throw cannotRead(shown, what, e);
  }
  try {
    const st = fstatSync(fd);
    ensureRegularFile(st, shown, what, maxBytes);
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
