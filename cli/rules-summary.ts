import { basisOf, BASES, LEVELS, loadRules, serviceOfRule, type Level, type Rule } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import { coverageOf } from './coverage-command.ts';
import { resolveServices, type RulesOptions } from './rules-command.ts';
import { checkCounts } from './rule-sites.ts';

const VERDICTS = ['settled', 'partly', 'open'] as const;
const DECISIONS = ['moved to a reading', 'test data changed', 'timing-robust rewrite', 'stays document'] as const;

/** The figures of one service, or of all selected (`rules --summary --json`). */
export interface SummaryFigures {
  rules: number;
  levels: Record<Level, number>;
  testable: number;
  /** Testable rules with a test (collected, not run). */
  withTest: number;
  /** Testable MUST and SHOULD rules, and those of them a fault variant must make fail (null: not installed). */
  mustOrShould: number;
  withFaultVariant: number | null;
  /** Reading IDs (distinct within a service) and the rules that list one. */
  readings: number;
  rulesWithReadings: number;
  /** What settles the verdict of the testable rules, and how many checks name them. */
  basis: Record<(typeof BASES)[number], number>;
  checks: number;
  /** The second reader's verdicts on the `document` checks, and our decisions, part by part. */
  secondReading: Record<(typeof VERDICTS)[number], number>;
  decisions: Record<(typeof DECISIONS)[number], number>;
  /** Fault variants breaking a rule of the service (null: not in this installation). */
  faultVariants: number | null;
}

export interface RulesSummary {
  services: Partial<Record<ServiceName, SummaryFigures>>;
  all: SummaryFigures;
}

const count = <K extends string>(keys: readonly K[], values: (string | undefined)[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, values.filter((v) => v === k).length])) as Record<K, number>;

/** The summary of the catalog, of what the suites check and of the fault variants, computed now. */
export async function rulesSummary(opts: Pick<RulesOptions, 'service' | 'level'> = {}): Promise<RulesSummary> {
  const services = resolveServices(opts.service);
  const level = opts.level?.toUpperCase();
  const rules = loadRules(services).filter((r) => !level || r.level === level);
  const { entries, faults } = await coverageOf(services);
  const checks = checkCounts(rules.map((r) => r.id));
  const figures = (of: Rule[], service?: ServiceName): SummaryFigures => {
    const testable = of.filter((r) => r.testable !== false);
    const gated = testable.filter((r) => r.level === 'MUST' || r.level === 'SHOULD');
    const ids = new Set(of.map((r) => r.id));
    const readingIds = services.flatMap(
      (s) =>
        new Set(of.filter((r) => serviceOfRule(r.id) === s).flatMap((r) => (r.readings ?? []).map((x) => x.id))).size,
    );
    return {
      rules: of.length,
      levels: count(
        LEVELS,
        of.map((r) => r.level),
      ),
      testable: testable.length,
      withTest: testable.filter((r) => entries[r.id]?.tests.length).length,
      mustOrShould: gated.length,
      withFaultVariant: faults ? gated.filter((r) => entries[r.id]?.faults.length).length : null,
      readings: readingIds.reduce((a, b) => a + b, 0),
      rulesWithReadings: of.filter((r) => r.readings?.length).length,
      basis: count(BASES, testable.map(basisOf)),
      checks: testable.reduce((n, r) => n + (checks.get(r.id) ?? 0), 0),
      secondReading: count(
        VERDICTS,
        of.map((r) => r.secondReading?.verdict),
      ),
      decisions: count(
        DECISIONS,
        of.flatMap((r) => (r.secondReading?.decisions ?? []).map((d) => d.decision)),
      ),
      faultVariants: faults
        ? faults.filter((f) => f.breaks.some((b) => ids.has(b) && (!service || serviceOfRule(b) === service))).length
        : null,
    };
  };
  return {
    services: Object.fromEntries(
      services.map((s) => [
        s,
        figures(
          rules.filter((r) => serviceOfRule(r.id) === s),
          s,
        ),
      ]),
    ),
    all: figures(rules),
  };
}

const NAMES: Record<ServiceName, string> = {
  'technical-token-manager': 'token manager',
  notification: 'notification',
  'event-management': 'event management',
};

/** The summary as a table: one row per figure, one column per service and one for all of them. */
export function renderRulesSummary(s: RulesSummary): string {
  const columns = [...(Object.entries(s.services) as [ServiceName, SummaryFigures][]), ['all', s.all] as const];
  const rows: [string, (f: SummaryFigures) => number | null][] = [
    ['rules', (f) => f.rules],
    ...LEVELS.map((l): [string, (f: SummaryFigures) => number] => [`  ${l}`, (f) => f.levels[l]]),
    ['testable from outside', (f) => f.testable],
    ['  with a test', (f) => f.withTest],
    ['  MUST or SHOULD', (f) => f.mustOrShould],
    ['    with a fault variant', (f) => f.withFaultVariant],
    ['  basis document', (f) => f.basis.document],
    ['  basis reading', (f) => f.basis.reading],
    ['  basis observed', (f) => f.basis.observed],
    ['  checks naming them', (f) => f.checks],
    ['readings', (f) => f.readings],
    ['  rules with a reading', (f) => f.rulesWithReadings],
    ['second reading: settled', (f) => f.secondReading.settled],
    ['  partly', (f) => f.secondReading.partly],
    ['  open', (f) => f.secondReading.open],
    ...DECISIONS.map((d): [string, (f: SummaryFigures) => number] => [`  decided: ${d}`, (f) => f.decisions[d]]),
    ['fault variants', (f) => f.faultVariants],
  ];
  const head = ['', ...columns.map(([name]) => (name === 'all' ? 'all' : NAMES[name]))];
  const body = rows.map(([label, of]) => [
    label,
    ...columns.map(([, f]) => {
      const n = of(f);
      return n === null ? 'n/a' : n.toLocaleString('en-US');
    }),
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const notes = s.all.faultVariants === null ? ['', 'n/a: the fault variants are not in this installation'] : [];
  return `${[line(head), ...body.map(line), ...notes].join('\n')}\n`;
}

/** `conformance rules --summary`: the figures about the rules, computed from the catalog, the suites and the variants. */
export async function rulesSummaryCommand(opts: RulesOptions): Promise<void> {
  const s = await rulesSummary(opts);
  process.stdout.write(opts.json ? `${JSON.stringify(s, null, 2)}\n` : renderRulesSummary(s));
}
