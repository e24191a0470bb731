import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Caches tools keep there on purpose, not leftovers of a test: tsx's compile cache (`tsx-<uid>`),
 * and the launcher's private folder that holds its own (`conformance-tsx-<uid>`, bin/conformance.js).
 */
const TOOL_CACHES = /^(conformance-)?tsx-\d+$/;

/**
 * Global setup of `npm test`: every test file, and every process it starts, gets a temp folder of
 * this run's own (TMPDIR), so that what the tests leave behind can be seen: teardown fails the run
 * when anything is left in it, naming what, and removes it either way.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-npm-test-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    const left = readdirSync(dir).filter((f) => !TOOL_CACHES.test(f));
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0: the exit code is set as well.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length} entries in the temp folder: ${left.slice(0, 20).join(', ')}`);
    }
  };
}
