import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `file` without following what is already there: the bytes go to a new file
 * beside it (created exclusively, with `mode`), which then replaces `file`. A symlink planted at
 * `file` is replaced, never written through, and a file of secrets is never readable by others,
 * even for a moment, whatever mode the old one had.
 */
export function writeOutputFile(file: string, data: string | Uint8Array, mode = 0o644): void {
  writeOutputChunks(file, [data], mode);
}

/**
 * `writeOutputFile` for data given in pieces, each written as it comes, so that a large file (a
 * run's HAR) is never held whole in memory.
 */
export function writeOutputChunks(file: string, chunks: Iterable<string | Uint8Array>, mode = 0o644): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    for (const data of chunks) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    }
  } catch (e) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
