import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`). The conformance suites in `suites/` are
// run against a deployment by `conformance run`, with their own configuration.
export default defineConfig({
  test: {
    include: [
      '{contracts,generators,reporters,fixtures,cli,certification,tests,audit}/**/*.test.ts',
      'suites/engine/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['tests/temp-dir-setup.ts'],
  },
});
