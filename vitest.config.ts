import { defineConfig } from 'vitest/config';

/**
 * The project's own tests, first tier (`npm test`): everything that gives an answer in about two
 * minutes: the unit tests of every room, the command line, the hand-over attacks, and the suites
 * end to end against the reference once (a run shared by the tests that only read what it leaves
 * behind, `tests/shared-run.ts`). The heavy end-to-end checks are the second tier,
 * `npm run test:e2e` (`vitest.e2e.config.ts`: the files named `*.e2e.test.ts`). The conformance
 * suites in `suites/` are run against a deployment by `conformance run`, with their own configuration.
 */
export default defineConfig({
  test: {
    include: [
      '{contracts,generators,reporters,fixtures,cli,certification,tests,audit,selftest,lint}/**/*.test.ts',
      'suites/engine/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/*.e2e.test.ts'],
    // Generous: a loaded machine is slower, never wrong; a test that hangs still ends.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    // Two files at a time, though the machine has two cores (vitest's default is one fewer): many
    // files spend part of their time waiting on a command in a child process.
    maxWorkers: 2,
    setupFiles: ['tests/temp-dir-setup.ts'],
    globalSetup: ['tests/temp-folder-guard.ts', 'tests/shared-run.ts'],
  },
});
