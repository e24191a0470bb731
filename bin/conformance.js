#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx, so no build step is needed after `npm ci`.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';

// tsx would keep its transformed modules in `$TMPDIR/tsx-<uid>/`, a name anyone can take first in
// a shared temporary folder, and run what it finds there unchecked: another local user could run
// code in ours. Its cache is off for everything this process starts; only tsx's loader (below)
// keeps one, inside a folder of our own that no one else can enter.
process.env.TSX_DISABLE_CACHE = '1';

/**
 * `$TMPDIR/conformance-tsx-<uid>/`, made here with mode 0700, or found as a real folder (not a
 * link) owned by this user that no one else may enter; undefined (no cache) otherwise, and where
 * the system has no user IDs. Another user cannot take the name first (the owner is checked) nor
 * replace the folder after the check (tsx reads its entries by path all along): `$TMPDIR` must be
 * sticky, as a shared temporary folder is (only an entry's owner renames or removes it), or
 * writable by its owner alone, this user or root.
 */
function ownCacheParent() {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const temporary = tmpdir();
  const dir = join(temporary, `conformance-tsx-${uid}`);
  try {
    const parent = statSync(temporary);
    const sticky = (parent.mode & 0o1000) !== 0;
    if (!sticky && !((parent.uid === uid || parent.uid === 0) && (parent.mode & 0o022) === 0)) return undefined;
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if (e.code !== 'EEXIST') return undefined;
  }
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && s.uid === uid && (s.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

// The commands that start the suites load vitest (and vite) before tsx's hooks exist, with Node's
// own loader: through the hooks, each of vite's and vitest's modules would be rewritten (tsx
// rewrites a module's dynamic imports and keeps an inline source map beside it), which cost a
// default run about 80 MiB of its peak resident memory (410 → 325 MiB) and some CPU at start-up.
// The suites' own TypeScript still goes through tsx; small commands do not load vitest at all.
const SUITE_COMMANDS = new Set([
  'run',
  'doctor',
  'certify',
  'replay',
  'audit',
  'coverage',
  'selftest',
  'selftest-lane',
  'selftest-mutants-lane',
]);
// A command's help ends before any suite starts: it does not load vitest (`run --help`: 0.68 → 0.39 s CPU).
const words = process.argv.slice(2);
const help = words.includes('--help') || words.includes('-h');
if (!help && SUITE_COMMANDS.has(words.find((a) => !a.startsWith('-')) ?? '')) await import('vitest/node');

// A smaller young generation for the suites' worker (created later): a run's peak memory drops
// by about a sixth at no measurable cost in time (npm run bench).
setFlagsFromString('--max-semi-space-size=2');
// tsx's loader sees the cache on, with the temporary folder pointed at ours; nothing else does.
// Where the loader runs in a thread of its own (Node 20), the thread takes a copy of the environment
// when register() starts it; where it runs in this thread (the Node versions with
// module.registerHooks), tsx reads both when its modules load: so they are set before the import
// and put back after register(). Each start after the first transforms nothing again: CPU
// `--version` 0.59 → 0.45 s, `doctor` 2.99 → 2.70 s, a one-rule run 4.61 → 4.27 s (Node 20;
// medians of 5, 3 and 3, paired with the cache off).
const cacheParent = ownCacheParent();
const env = { TSX_DISABLE_CACHE: process.env.TSX_DISABLE_CACHE, TMPDIR: process.env.TMPDIR };
if (cacheParent) Object.assign(process.env, { TSX_DISABLE_CACHE: '', TMPDIR: cacheParent });
try {
  const { register } = await import('tsx/esm/api');
  register();
} finally {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
await import('../cli/main.ts');
