import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`). The conformance suites in `suites/` are
// run against a deployment by `conformance run`, with their own configuration.
export default defineConfig({
  test: {
    include: [
      '{contracts,generators,reporters,fixtures,cli,certification,tests,audit,selftest}/**/*.test.ts',
      'suites/engine/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time, though the machine has two cores (vitest's default is one fewer): most
    // files spend their time waiting on a run in a child process, so one file at a time left a
    // core idle half the time (CPU 320 s over 364 s of wall time on two cores).
    maxWorkers: 2,
    setupFiles: ['tests/temp-dir-setup.ts'],
    globalSetup: ['tests/temp-folder-guard.ts'],
  },
});
