import { describe, expect, it } from 'vitest';
import { basisOf, LEVELS, loadRules } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { renderRulesSummary, rulesSummary, type SummaryFigures } from './rules-summary.ts';

describe('conformance rules --summary', () => {
  it('counts the catalog, the suites and the variants, per service and in all', async () => {
    const s = await rulesSummary();
    const rules = loadRules();
    const testable = rules.filter((r) => r.testable !== false);
    expect(s.all.rules).toBe(rules.length);
    expect(LEVELS.map((l) => s.all.levels[l])).toEqual(LEVELS.map((l) => rules.filter((r) => r.level === l).length));
    expect(s.all.testable).toBe(testable.length);
    expect(s.all.basis).toEqual({
      document: testable.filter((r) => basisOf(r) === 'document').length,
      reading: testable.filter((r) => basisOf(r) === 'reading').length,
      observed: testable.filter((r) => basisOf(r) === 'observed').length,
    });
    expect(s.all.rulesWithReadings).toBe(rules.filter((r) => r.readings?.length).length);
    expect(s.all.withTest).toBe(s.all.testable);
    expect(s.all.withFaultVariant).toBe(s.all.mustOrShould);
    expect(s.all.checks).toBeGreaterThan(s.all.testable);

    // Every figure of all three is the sum of the services' (fault variants break one service's rules).
    const sum = (of: (f: SummaryFigures) => number | null) =>
      SERVICES.reduce((n, x) => n + (of(s.services[x]!) ?? 0), 0);
    for (const of of [
      (f: SummaryFigures) => f.rules,
      (f: SummaryFigures) => f.testable,
      (f: SummaryFigures) => f.checks,
      (f: SummaryFigures) => f.readings,
      (f: SummaryFigures) => f.secondReading.partly,
      (f: SummaryFigures) => f.decisions['moved to a reading'],
      (f: SummaryFigures) => f.faultVariants,
    ])
      expect(sum(of)).toBe(of(s.all));

    const text = renderRulesSummary(s);
    expect(text).toMatch(
      new RegExp(`^rules +${s.services['technical-token-manager']!.rules} +\\d+ +\\d+ +${s.all.rules}$`, 'm'),
    );
    expect(text).toMatch(/^second reading: settled +\d+/m);
  }, 120_000);
});
