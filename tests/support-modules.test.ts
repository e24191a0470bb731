import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from './run-cli.ts';

// A `<name>-support.ts` beside spec files is imported once per worker: a test it registered would
// run for one spec file (and one self-test variant) only, and a per-file dataset or hook it set up
// would belong to whichever file imported it first. What is per file stays in the spec files.
describe('support modules of the suites', () => {
  const files = readdirSync(join(root, 'suites'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('-support.ts'),
  );

  it('exist beside the split spec files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('declare only: no test, loop, hook or per-file dataset at their top level', () => {
    const found: string[] = [];
    for (const f of files) {
      const src = readFileSync(join(root, 'suites', f), 'utf8');
      const sf = ts.createSourceFile(f, src, ts.ScriptTarget.Latest, true);
      for (const st of sf.statements) {
        const line = sf.getLineAndCharacterOfPosition(st.getStart()).line + 1;
        const declaration =
          ts.isImportDeclaration(st) ||
          ts.isFunctionDeclaration(st) ||
          ts.isClassDeclaration(st) ||
          ts.isInterfaceDeclaration(st) ||
          ts.isTypeAliasDeclaration(st) ||
          ts.isEnumDeclaration(st) ||
          ts.isVariableStatement(st);
        if (!declaration) found.push(`${f}:${line} ${ts.SyntaxKind[st.kind]}`);
        else if (
          ts.isVariableStatement(st) &&
          /\b(fileDataset|cleanupAfterFile|beforeAll|afterAll)\(/.test(st.getText(sf))
        )
          found.push(`${f}:${line} per-file state`);
      }
    }
    expect(found).toEqual([]);
  });
});
