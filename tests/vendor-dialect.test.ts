import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFilterDialect, type FilterDialect } from '../suites/engine/filter-dialect.ts';
import { and, between, eq, isIn, ne, or, sortBy, startsWith } from '../suites/engine/filter-expression.ts';
import { readRunConfig } from '../suites/engine/run-config.ts';
import { docText, matchesOf } from './readme-text.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// A vendor whose filter grammar is neither built-in writes a dialect module against the
// package's public types alone (`platform-conformance/filter-dialect`), in a folder of its own
// with the package installed: the worked example of docs/configuration.md, as printed.

const run = promisify(execFile);

const EXAMPLE_PAGE = 'docs/configuration.md';

/** The worked example of a dialect module, as the documentation prints it. */
function documentedExample(): string {
  const blocks = matchesOf(docText(EXAMPLE_PAGE), /```ts\n([\s\S]*?)```/g).map((m) => m.groups[0]);
  const example = blocks.find((b) => b.startsWith('// my-dialect.ts'));
  if (!example)
    throw new Error(`${EXAMPLE_PAGE} no longer holds the worked example of a dialect module (// my-dialect.ts)`);
  return example;
}

const vendor = tempDir('vendor-dialect');
let dialect: FilterDialect;

beforeAll(async () => {
  // The vendor's project: the package installed (linked, as `npm link` does), their module and configuration.
  mkdirSync(join(vendor, 'node_modules'));
  symlinkSync(root, join(vendor, 'node_modules', 'platform-conformance'), 'dir');
  writeFileSync(
    join(vendor, 'package.json'),
    JSON.stringify({ name: 'vendor-project', private: true, type: 'module' }),
  );
  writeFileSync(join(vendor, 'my-dialect.ts'), documentedExample());
  writeFileSync(
    join(vendor, 'run.json'),
    JSON.stringify({
      target: 'https://staging.example.com',
      principals: { full: { token: 't' } },
      filterDialect: { module: './my-dialect.ts' },
    }),
  );
  dialect = await loadFilterDialect(readRunConfig(join(vendor, 'run.json')).filterDialect);
});

describe('a dialect module of a vendor, outside the package', () => {
  it('is loaded from the configuration’s folder and writes the vendor’s grammar', () => {
    expect(dialect.name).toBe('conditions list');
    const at = '2026-01-01T00:00:00Z';
    const until = '2026-02-01T00:00:00Z';
    expect(
      dialect.encodeFilter(
        and(
          eq('typeId', 't'),
          ne('severity', 3),
          isIn('entityId', ['a', 'b']),
          between('timestamp', at, until),
          startsWith('code', 'X'),
        ),
      ),
    ).toEqual([
      ['typeId', '=', 't'],
      ['severity', '!=', 3],
      ['entityId', 'in', ['a', 'b']],
      ['timestamp', '>=', at],
      ['timestamp', '<', until],
      ['code', 'prefix', 'X'],
    ]);
    expect(dialect.encodeSort(sortBy('timestamp', 'desc'))).toBe('-timestamp');
  });

  it('throws UnsupportedFilter, by name, for what its grammar cannot say', () => {
    expect(() => dialect.encodeFilter(or(eq('a', 1), eq('b', 2)))).toThrow(
      expect.objectContaining({ name: 'UnsupportedFilter' }),
    );
  });

  it('type-checks against the package’s exported types, which refuse a module that breaks the interface', async () => {
    writeFileSync(
      join(vendor, 'broken-dialect.ts'),
      [
        "import type { FilterDialectModule } from 'platform-conformance/filter-dialect';",
        'export default { encodeFilter: () => [], encodeSort: () => 1 } satisfies FilterDialectModule;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(vendor, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          types: [],
        },
        files: ['my-dialect.ts', 'broken-dialect.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const res = await run(process.execPath, [tsc, '-p', join(vendor, 'tsconfig.json')], { cwd: vendor }).catch(
      (e: { stdout: string; code: number }) => e,
    );
    const errors = res.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    // The example compiles; the broken module's encodeSort returns a number, not the ?sort= text.
    expect(errors.filter((l) => l.startsWith('my-dialect.ts'))).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    for (const l of errors) expect(l).toMatch(/^broken-dialect\.ts\(2,/);
  }, 60_000);
});
