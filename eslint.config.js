// Lint: the rules that catch real defects, with the type checker behind them (floating and
// misused promises, unsafe `any`, unused values). Formatting is Prettier's (`npm run format`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import contractFacts from './lint/contract-bound-literals.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'conformance-report/',
      'allure-results/',
      'allure-report/',
      '.tmp/',
      '**/*.mjs',
      // A deployment written by an outsider from the documents alone, kept as its author wrote it
      // (tsc still checks its types).
      'fixtures/independent/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Fastify plugins and vitest hooks are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      // One import line per module (a type-only import beside it allowed), so that merged work does
      // not leave two lines importing from the same file.
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
    },
  },
  {
    // A spec file holds one theme's tests in a page a reader takes in: its shared helpers go to a
    // <name>-support.ts beside it, its other themes to files of their own.
    files: ['suites/**/*.spec.ts', 'suites/**/*-support.ts'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    // A spec file judges through the check vocabulary (suites/engine/checks/: refused, accepted,
    // served, listed, storedAsSent, holds, …), whose words own their titles and severities: a title
    // typed at a t.check / t.verify / t.reading call is a check written a second way.
    files: ['suites/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(check|verify|reading)$/] > ObjectExpression > Property[key.name='title']",
          message: 'a titled check in a spec file: use a word of suites/engine/checks/ (holds where no other fits)',
        },
      ],
    },
  },
  {
    // What a run loads stays small: fast-check's arbitraries over the whole of Unicode build an
    // alphabet of about 80 MiB that the run then holds to its end (generators/web-link.ts instead).
    files: ['suites/**/*.ts', 'generators/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['webUrl', 'webPath', 'webSegment', 'webQueryParameters', 'webFragments', 'webAuthority'].map(
          (property) => ({
            object: 'fc',
            property,
            message:
              'builds a full-Unicode alphabet of about 80 MiB held for the whole run; use generators/web-link.ts',
          }),
        ),
      ],
    },
  },
  {
    // A bound the contracts state is read from them (contracts/facts.ts), never typed again; a number
    // that equals one by coincidence says so (`// not a contract bound: <reason>`). The rule reads the
    // bounds from the OpenAPI documents, so it follows them.
    files: ['suites/**/*.ts', 'audit/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.d.ts'],
    plugins: { 'contract-facts': contractFacts },
    rules: { 'contract-facts/no-bound-literal': 'error' },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The project's own tests read the reference's JSON answers freely; a wrong guess fails the test.
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Files that still read JSON through `any`. This list only shrinks: a file leaves it once
    // its reads are narrowed, and no new file joins it (a spec file split in parts keeps its parts here).
    files: [
      'bench/reference-bench.ts',
      'cli/program.ts',
      'fixtures/reference/event-management/filter.ts',
      'fixtures/reference/event-management/memory-store.ts',
      'fixtures/reference/event-management/routes/route-kit.ts',
      'fixtures/reference/event-management/test-client.ts',
      'fixtures/reference/notification/body-fields.ts',
      'fixtures/reference/notification/multipart-form.ts',
      'fixtures/reference/notification/test-client.ts',
      'fixtures/reference/notification/validation.ts',
      'suites/engine/leftover-records.ts',
      'suites/engine/redact.ts',
      'suites/engine/rule-test.ts',
      'suites/engine/suite-runner.ts',
      'suites/event-management/em-client.ts',
      'suites/event-management/em-dataset.ts',
      'suites/event-management/em-resources.ts',
      'suites/event-management/etags.spec.ts',
      'suites/event-management/event-types-change.spec.ts',
      'suites/event-management/event-types-change-fields-delete.spec.ts',
      'suites/event-management/event-types-change-support.ts',
      'suites/event-management/event-types-create.spec.ts',
      'suites/event-management/event-types-create-fields.spec.ts',
      'suites/event-management/event-types-create-structure.spec.ts',
      'suites/event-management/events-create.spec.ts',
      'suites/event-management/events-create-references.spec.ts',
      'suites/event-management/events-custom.spec.ts',
      'suites/event-management/events-update.spec.ts',
      'suites/event-management/general.spec.ts',
      'suites/event-management/histories.spec.ts',
      'suites/event-management/jobs.spec.ts',
      'suites/event-management/jobs-refusals.spec.ts',
      'suites/event-management/jobs-support.ts',
      'suites/event-management/queries-event-types.spec.ts',
      'suites/event-management/queries-events.spec.ts',
      'suites/event-management/queries-events-filters.spec.ts',
      'suites/event-management/queries-events-support.ts',
      'suites/event-management/queries-events-parameters.spec.ts',
      'suites/event-management/sharing.spec.ts',
      'suites/event-management/sweep.ts',
      'suites/event-management/visibility.spec.ts',
      'suites/notification/lookups.spec.ts',
      'suites/notification/notification-resources.ts',
      'suites/notification/recipient-groups.spec.ts',
      'suites/notification/recipient-groups-changes.spec.ts',
      'suites/notification/recipient-groups-support.ts',
      'suites/notification/recipients.spec.ts',
      'tests/resource-census.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
