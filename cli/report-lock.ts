import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readBoundedFile } from '../reporters/untrusted-input.ts';
import { UsageError } from './usage-error.ts';

/** The lock file a run holds in its report folder while it writes there. */
export const LOCK_FILE = '.conformance.lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

/** Whether the process `pid` of this machine still exists (a PID we may not signal exists too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    // Bounded, and never a FIFO waited on: anything but a small regular file is a lock without an owner.
    const o = JSON.parse(readBoundedFile(file, 'a lock file', 4096).toString('utf8')) as LockOwner;
    return Number.isInteger(o.pid) && o.pid > 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the report folder for this run: a second run writing into it would mix its results into
 * this one's. Refuses (a usage error, exit 2) while another live run holds it, naming its PID; a
 * lock whose process is gone (a run killed with SIGKILL) is taken over. Returns the release.
 */
export function lockReportDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      return () => {
        if (readOwner(file)?.pid === me.pid) rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(file);
    if (!owner) {
      // A lock being written this very moment has no owner yet; one still empty a moment later
      // was left by a run that died while taking it.
      if (attempt > 0) rmSync(file, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      continue;
    }
    if (owner.host !== me.host)
      throw new UsageError(
        `report folder ${dir} is in use by run PID ${owner.pid} on ${owner.host} (since ${owner.startedAt}); use another --report-dir, or delete ${file} if that run is gone`,
      );
    if (alive(owner.pid))
      throw new UsageError(
        `report folder ${dir} is in use by another run (PID ${owner.pid}, since ${owner.startedAt}); wait for it or use another --report-dir`,
      );
    // Stale: its run is gone.
    rmSync(file, { force: true });
  }
  throw new UsageError(`cannot take the lock ${file}: another run keeps taking it`);
}
