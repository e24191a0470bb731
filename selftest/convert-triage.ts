// One-off: converts the per-mutant triage lists (fixtures/mutants/triage/**/*.json, one entry per
// mutant keyed by file, mutator, original, replacement, `at` line and `nth`) into classes
// (fixtures/mutants/triage/**/*.yaml, see triage.ts). Mutants of one file with the same reason are
// covered greedily by the widest classes that hold no other mutant: a class holds only mutants the
// old lists explained with that very reason, so the classes explain exactly the mutants they did.
// Run: npx tsx selftest/convert-triage.ts
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';
import { SERVICES } from '../contracts/services.ts';
import { listMutants } from './instrument.ts';
import type { MutantRow } from './mutant-row.ts';
import { names, selectorOf, TRIAGE_DIR, triageFileOf, triageKey, type TriageClass } from './triage.ts';

interface OldEntry {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  at?: string;
  nth?: number;
  reason: string;
}

const namedBy = (t: OldEntry, m: MutantRow) =>
  triageKey(t) === triageKey(m) && (t.at === undefined || t.at === m.at) && (t.nth === undefined || t.nth === m.nth);

/** The old lists. */
export function loadOldTriage(read: (name: string) => string, list: string[]): OldEntry[] {
  return list.flatMap((f) => JSON.parse(read(f)) as OldEntry[]);
}

/** The reason the old lists give a mutant, if any. */
export function oldReasons(old: OldEntry[], made: MutantRow[]): Map<MutantRow, string> {
  const byKey = new Map<string, OldEntry[]>();
  for (const t of old) byKey.set(triageKey(t), [...(byKey.get(triageKey(t)) ?? []), t]);
  const reasons = new Map<MutantRow, string>();
  for (const m of made) {
    const t = (byKey.get(triageKey(m)) ?? []).find((e) => namedBy(e, m));
    if (t) reasons.set(m, t.reason);
  }
  return reasons;
}

/** The regions that hold `region`, widest first (`a`, `a.b`, `a.b.c`). */
function ancestors(region: string): string[] {
  const parts = region.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

/** Classes of one file's mutants that explain exactly those `reasons` gives a reason, each with it. */
function classesOf(file: string, mutants: MutantRow[], reasons: Map<MutantRow, string>): TriageClass[] {
  const classes: TriageClass[] = [];
  const byReason = new Map<string, MutantRow[]>();
  for (const m of mutants) {
    const r = reasons.get(m);
    if (r !== undefined) byReason.set(r, [...(byReason.get(r) ?? []), m]);
  }
  for (const [reason, group] of byReason) {
    const left = new Set(group);
    while (left.size) {
      let best: { c: TriageClass; held: MutantRow[]; gain: number; rank: number } | undefined;
      const consider = (c: TriageClass, rank: number) => {
        const held = mutants.filter((x) => names(c, x));
        if (!held.every((x) => reasons.get(x) === reason)) return;
        const gain = held.filter((x) => left.has(x)).length;
        if (!best || gain > best.gain || (gain === best.gain && rank < best.rank)) best = { c, held, gain, rank };
      };
      for (const m of left) {
        for (const line of [undefined, m.at]) {
          const narrow = line === undefined ? 0 : 4;
          for (const region of ancestors(m.region)) {
            const base = { file, region, ...(line === undefined ? {} : { line }), reason };
            consider(base, narrow);
            const inside = mutants.filter((x) => names(base, x));
            const clean = [...new Set(inside.map((x) => x.mutator))].filter((k) =>
              inside.every((x) => x.mutator !== k || reasons.get(x) === reason),
            );
            if (clean.includes(m.mutator)) consider({ ...base, mutators: clean.sort() }, narrow + 1);
            consider({ ...base, mutators: [m.mutator], original: m.original }, narrow + 2);
            consider({ ...base, mutators: [m.mutator], original: m.original, replacement: m.replacement }, narrow + 3);
          }
        }
      }
      if (!best) throw new Error(`${file}: no class holds only mutants with the reason "${reason}"`);
      for (const x of best.held) left.delete(x);
      classes.push(best.c);
    }
  }
  return classes;
}

/** The YAML of one file's classes, regions in source order. */
function yamlOf(classes: TriageClass[], order: (region: string) => number): string {
  const doc: Record<string, string | Record<string, string>> = {};
  const keyOf = (c: TriageClass) => (c.line === undefined ? c.region : `${c.region} @ ${c.line}`);
  const sorted = [...classes].sort((a, b) => order(a.region) - order(b.region) || keyOf(a).localeCompare(keyOf(b)));
  for (const c of sorted) {
    const key = keyOf(c);
    const selector = selectorOf(c);
    if (selector === undefined) {
      if (key in doc) throw new Error(`${c.file}: region ${key} is both whole and split`);
      doc[key] = c.reason;
    } else {
      const held = (doc[key] ??= {});
      if (typeof held === 'string') throw new Error(`${c.file}: region ${key} is both whole and split`);
      if (selector in held) throw new Error(`${c.file}: ${key} ${selector} twice`);
      held[selector] = c.reason;
    }
  }
  return yaml.dump(doc, { lineWidth: -1, noRefs: true, quotingType: "'" });
}

async function main() {
  const lists = readdirSync(TRIAGE_DIR, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort();
  const old = loadOldTriage((f) => readFileSync(join(TRIAGE_DIR, f), 'utf8'), lists);
  const made = await listMutants([...SERVICES]);
  const reasons = oldReasons(old, made);
  const files = [...new Set(made.filter((m) => reasons.has(m)).map((m) => m.file))].sort();
  let total = 0;
  for (const file of files) {
    const mutants = made.filter((m) => m.file === file);
    const classes = classesOf(file, mutants, reasons);
    total += classes.length;
    const first = new Map<string, number>();
    for (const m of mutants)
      for (const r of ancestors(m.region)) first.set(r, Math.min(first.get(r) ?? m.line, m.line));
    const out = triageFileOf(file);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      yamlOf(classes, (r) => first.get(r) ?? 0),
    );
  }
  for (const f of lists) rmSync(join(TRIAGE_DIR, f));
  process.stdout.write(`${old.length} entries -> ${total} classes in ${files.length} files\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
