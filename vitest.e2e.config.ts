import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/e2e-sequencer.ts';

/**
 * The project's own tests, second tier (`npm run test:e2e`): the heavy end-to-end checks, each a
 * file named `*.e2e.test.ts`: the container image built and run, the mutants' and the fault
 * variants' samples, the packed install, the independent deployment, the certification's tamper
 * matrix, the CI example and the GitHub Action, configuration slips, shards, cleanup, signals and
 * hostile targets, the profiles, and the pages in Chromium. `.ci/run` runs both tiers.
 */
export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    setupFiles: ['tests/temp-dir-setup.ts'],
    globalSetup: ['tests/temp-folder-guard.ts'],
    // The longest files first (a committed list): a fresh clone has no duration cache to go by.
    sequence: { sequencer: LongestFirst },
  },
});
