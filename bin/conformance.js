#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx, so no build step is needed after `npm ci`.
import { setFlagsFromString } from 'node:v8';

// tsx would keep its transformed modules in `$TMPDIR/tsx-<uid>/`, a name anyone can take first in
// a shared temporary folder, and run what it finds there unchecked: another local user could run
// code in ours. Its cache is off (set before the loader starts, which reads it then); transforming
// at each start costs no measurable time (`run --dry-run`: 2.2–2.9 s either way).
process.env.TSX_DISABLE_CACHE = '1';

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
if (SUITE_COMMANDS.has(process.argv.slice(2).find((a) => !a.startsWith('-')) ?? '')) await import('vitest/node');
const { register } = await import('tsx/esm/api');

// A smaller young generation for the suites' worker (created later): a run's peak memory drops
// by about a sixth at no measurable cost in time (npm run bench).
setFlagsFromString('--max-semi-space-size=2');
register();
await import('../cli/main.ts');
