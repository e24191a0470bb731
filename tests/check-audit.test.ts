import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadServiceCatalog } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { root } from './run-cli.ts';

// Every check of the three suites was audited for what settles its verdict: the quoted sentence
// (`document`), our reading of a silent, ambiguous or contradictory sentence (`reading`, which
// gives `warning` and never `failed`), or an observation only (`observed`). The record of that audit,
// `suites/<service>/check-audit.yaml`, must name every rule its suite checks and agree with the
// catalog's readings, so that a check added later without its basis fails here.

const BASES = ['document', 'reading', 'observed'] as const;

interface AuditEntry {
  rule: string;
  basis: (typeof BASES)[number];
  readings?: string[];
  checks?: number;
  note: string;
}

function loadAudit(service: string): AuditEntry[] {
  const file = join(root, 'suites', service, 'check-audit.yaml');
  if (!existsSync(file)) return [];
  const doc = yaml.load(readFileSync(file, 'utf8')) as { rules?: AuditEntry[] } | undefined;
  return doc?.rules ?? [];
}

/** The rules a service's suite checks: those with a test under `suites/<service>/` in the coverage list. */
function checkedRules(service: string): string[] {
  const coverage = yaml.load(readFileSync(join(root, 'suites', 'coverage.yaml'), 'utf8')) as Record<
    string,
    { tests?: string[] }
  >;
  return Object.entries(coverage)
    .filter(
      ([id, e]) =>
        id.startsWith(`${service}/`) &&
        // A response check of the engine's registry judges its rules on every answer of the service's tests.
        (e.tests ?? []).some((t) => t.startsWith(`suites/${service}/`) || t.startsWith('suites/engine/checks/')),
    )
    .map(([id]) => id);
}

describe.each(SERVICES)('the check audit of %s', (service) => {
  const audit = loadAudit(service);
  const catalog = new Map(loadServiceCatalog(service).rules.map((r) => [r.id, r]));

  it('names every rule the suite checks, once, and no other', () => {
    const listed = audit.map((e) => e.rule);
    expect(
      listed.filter((id, i) => listed.indexOf(id) !== i),
      'listed twice',
    ).toEqual([]);
    const checked = new Set(checkedRules(service));
    expect(
      [...checked].filter((id) => !listed.includes(id)),
      `rules checked by suites/${service}/ without an entry in its check-audit.yaml`,
    ).toEqual([]);
    expect(
      listed.filter((id) => !checked.has(id)),
      'entries for rules the catalog or the suite does not have',
    ).toEqual([]);
  });

  it('gives each rule a basis and a note, and a count of checks where given', () => {
    const bad = audit.filter(
      (e) =>
        !BASES.includes(e.basis) ||
        typeof e.note !== 'string' ||
        e.note.trim().length < 8 ||
        (e.checks !== undefined && !(Number.isInteger(e.checks) && e.checks > 0)),
    );
    expect(bad.map((e) => e.rule)).toEqual([]);
  });

  it('agrees with the catalog: a reading entry lists exactly the readings the catalog gives the rule', () => {
    const wrong: string[] = [];
    for (const e of audit) {
      const rule = catalog.get(e.rule);
      const inCatalog = (rule?.readings ?? []).map((r) => r.id).sort();
      const inAudit = [...(e.readings ?? [])].sort();
      if (e.basis === 'reading' && inAudit.length === 0) wrong.push(`${e.rule}: basis reading without readings`);
      if (e.basis !== 'reading' && inAudit.length > 0) wrong.push(`${e.rule}: readings listed with basis ${e.basis}`);
      if (JSON.stringify(inAudit) !== JSON.stringify(inCatalog))
        wrong.push(`${e.rule}: audit lists [${inAudit.join(', ')}], catalog [${inCatalog.join(', ')}]`);
      if (e.basis === 'observed' && rule?.level !== 'UNSPECIFIED')
        wrong.push(`${e.rule}: observed only, but the catalog gives it level ${rule?.level}`);
    }
    expect(wrong).toEqual([]);
  });
});
