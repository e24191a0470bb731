// The census of numbers typed in the suites and audit/ that equal a bound the contracts state, or
// lie one either side of it (numbers below FLOOR left out): `npx tsx lint/contract-bound-census.ts`
// lists `file:line number = bounds` and counts them; `--rule` counts only what the lint rule
// reports (no annotation, not allowlisted, a bound or one beyond it).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Linter } from 'eslint';
import { parser } from 'typescript-eslint';
import plugin, { FLOOR } from './contract-bound-literals.js';

const root = join(import.meta.dirname, '..');
const asRule = process.argv.includes('--rule');

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

const linter = new Linter({ configType: 'flat', cwd: root });
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { 'contract-facts': plugin },
    rules: { 'contract-facts/no-bound-literal': ['error', asRule ? {} : { near: true, every: true }] },
  },
];
let count = 0;
for (const dir of ['suites', 'audit'])
  for (const file of files(join(root, dir))) {
    for (const m of linter.verify(readFileSync(file, 'utf8'), config, file)) {
      if (m.fatal) throw new Error(`${file}:${m.line} ${m.message}`);
      // A directive naming a rule this linter does not load.
      if (m.ruleId !== 'contract-facts/no-bound-literal') continue;
      count++;
      console.log(`${relative(root, file)}:${m.line} ${m.message.replace(/: read it from .*/, '')}`);
    }
  }
console.log(
  `${count} numbers ${asRule ? 'the rule reports' : 'equal a contract bound or lie one either side of it'} (numbers below ${FLOOR} not counted)`,
);
