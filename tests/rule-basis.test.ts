import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basisOf, loadServiceCatalog } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { checkCounts } from '../cli/rule-sites.ts';
import { root } from './run-cli.ts';

// What settles each rule's verdict is computed from its catalog entry (`basisOf`): the quoted
// sentence (`document`), our reading of a silent, ambiguous or contradictory sentence (`reading`,
// which gives `warning` and never `failed`), or an observation only (`observed`). The number of
// checks of a rule is counted in the suites (`checkCounts`, as `conformance explain` lists them).
// Here: every rule the suites must judge has a check, and every reading a check that names it.

/** The text of every TypeScript source of `suites/` (tests of the engine left out). */
const suiteSources = readdirSync(join(root, 'suites'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => readFileSync(join(root, 'suites', f), 'utf8'))
  .join('\n');

describe.each(SERVICES)('the basis of every rule of %s', (service) => {
  const rules = loadServiceCatalog(service).rules.filter((r) => r.status !== 'retired');
  const counts = checkCounts(rules.map((r) => r.id));

  it('gives every testable rule a check in the suites, and an untestable one none', () => {
    expect(
      rules.filter((r) => r.testable !== false && !counts.get(r.id)).map((r) => `${r.id} (${basisOf(r)})`),
    ).toEqual([]);
    expect(rules.filter((r) => r.testable === false && counts.get(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('names every reading of a `reading` rule in a check (`t.reading`, or `reading:` given to a check)', () => {
    const unnamed = rules
      .filter((r) => basisOf(r) === 'reading')
      .flatMap((r) => (r.readings ?? []).map((x) => ({ rule: r.id, reading: x.id })))
      .filter(({ reading }) => !suiteSources.includes(`'${reading}'`))
      .map(({ rule, reading }) => `${rule}#${reading}`);
    expect(unnamed).toEqual([]);
  });

  it('keeps a basis note and a second reading only for rules the suites check', () => {
    const stray = rules.filter((r) => r.testable === false && (r.basisNote || r.secondReading)).map((r) => r.id);
    expect(stray).toEqual([]);
  });

  it('gives every check the second reading found open a decision, naming only readings the catalog lists', () => {
    const readings = new Set(rules.flatMap((r) => (r.readings ?? []).map((x) => x.id)));
    const wrong: string[] = [];
    for (const r of rules) {
      const sr = r.secondReading;
      if (!sr) continue;
      if ((sr.verdict === 'open' || sr.verdict === 'partly') && !sr.decisions?.length)
        wrong.push(`${r.id}: ${sr.verdict} without a decision`);
      for (const d of sr.decisions ?? [])
        for (const [, id] of d.why.matchAll(/^Reading ([a-z0-9-]+)\./g))
          if (d.decision === 'moved to a reading' && !readings.has(id)) wrong.push(`${r.id}: no reading ${id}`);
    }
    expect(wrong).toEqual([]);
  });
});
