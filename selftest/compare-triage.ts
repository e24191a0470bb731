// One-off: proves the triage by class (fixtures/mutants/triage/**/*.yaml) explains exactly the
// mutants the per-mutant lists of an earlier commit did, with the same reason each, over every
// mutant Stryker makes of the reference (none is run).
// Run: npx tsx selftest/compare-triage.ts <commit with the per-mutant lists>
import { execFileSync } from 'node:child_process';
import { SERVICES } from '../contracts/services.ts';
import { listMutants } from './instrument.ts';
import { projectRoot } from './lane-worker.ts';
import { loadOldTriage, oldReasons } from './convert-triage.ts';
import { loadTriage, triageOf } from './triage.ts';

async function main() {
  const rev = process.argv[2];
  if (!rev) throw new Error('usage: compare-triage.ts <commit with the per-mutant lists>');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' });
  const lists = git('ls-tree', '-r', '--name-only', rev, 'fixtures/mutants/triage/')
    .split('\n')
    .filter((f) => f.endsWith('.json'));
  const old = loadOldTriage((f) => git('show', `${rev}:${f}`), lists);
  const made = await listMutants([...SERVICES]);
  const before = oldReasons(old, made);
  const triage = loadTriage();
  const after = new Map(made.flatMap((m) => [triageOf(triage, m)].filter((t) => t).map((t) => [m, t!.reason])));
  const both = made.filter((m) => before.has(m) && after.has(m));
  const show = (m: (typeof made)[number]) =>
    `${m.file}:${m.line} [${m.region}] ${m.mutator}: ${m.original} -> ${m.replacement}`;
  const onlyBefore = made.filter((m) => before.has(m) && !after.has(m));
  const onlyAfter = made.filter((m) => !before.has(m) && after.has(m));
  const otherReason = both.filter((m) => before.get(m) !== after.get(m));
  const lines = [
    `mutants made: ${made.length}`,
    `per-mutant lists at ${rev}: ${old.length} entries, explaining ${before.size} mutants`,
    `classes now: ${triage.length}, explaining ${after.size} mutants`,
    `explained by both: ${both.length}, with the same reason: ${both.length - otherReason.length}`,
    `explained before only: ${onlyBefore.length}`,
    ...onlyBefore.map((m) => `  ${show(m)}`),
    `explained now only: ${onlyAfter.length}`,
    ...onlyAfter.map((m) => `  ${show(m)}`),
    `explained by both with another reason: ${otherReason.length}`,
    ...otherReason.map((m) => `  ${show(m)}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (onlyBefore.length || onlyAfter.length || otherReason.length) process.exitCode = 1;
}

await main();
