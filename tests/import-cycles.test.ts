import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCycle, importCycles, importGraph, sourceFiles } from './import-graph.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// No file of the project reaches itself through its imports, `import type` included: what two
// files share lives in a leaf module both import (a seam's types, a reporter's helpers, an error).

describe('the import graph', () => {
  it('has no cycle in the whole tree, tests and fixtures included', () => {
    const { edges, unresolved } = importGraph(root, sourceFiles(root));
    expect(unresolved, 'relative imports that name no file').toEqual([]);
    const cycles = importCycles(edges);
    expect(cycles.map(describeCycle).join('\n\n'), 'move what the files share to a leaf module').toBe('');
  });

  it('finds a planted cycle, type-only ones too, names what each file takes, and an import of no file', () => {
    const dir = tempDir('import-cycles');
    const files: Record<string, string> = {
      'a.ts': "import { b } from './b.ts';\nimport type { Leaf } from './leaf.ts';\nexport const a = b;",
      'b.ts': "import { a as alias } from './a.ts';\nexport const b = 1;\nexport const c = alias;",
      'c.ts': "import type { D } from './d.ts';\nexport type C = number;",
      'd.ts': "export type { C as D } from './c.ts';\nimport 'node:fs';",
      'leaf.ts': 'export type Leaf = string;',
      'e.ts': "export * from './leaf.ts';\nimport './gone.ts';",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const { edges, unresolved } = importGraph(dir, sourceFiles(dir));
    expect(unresolved).toEqual(['e.ts: ./gone.ts']);
    const cycles = importCycles(edges);
    expect(cycles.map(describeCycle)).toEqual([
      [
        '2 files, run-time:',
        '  a.ts -> b.ts -> a.ts',
        '    a.ts imports { b } from b.ts',
        '    b.ts imports { a as alias } from a.ts',
      ].join('\n'),
      [
        '2 files, type-only:',
        '  c.ts -> d.ts -> c.ts  (type-only)',
        '    c.ts imports { type D } from d.ts',
        '    d.ts imports { type C as D } from c.ts',
      ].join('\n'),
    ]);
  });
});
