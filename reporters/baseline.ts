import { readFileSync } from 'node:fs';
import { gatingFailures, type ConformanceReport } from './conformance-report.ts';

/** Known failures a team has accepted for now: `{ "failures": ["<rule-id>", …] }` or a bare array. */
export function readBaseline(file: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read baseline ${file}: ${(e as Error).message}`, { cause: e });
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { failures?: unknown })?.failures;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
    throw new Error(`baseline ${file} must be a JSON array of rule IDs or {"failures": [rule IDs]}`);
  }
  return list;
}

/**
 * Applies a baseline: listed failures no longer fail the run, new failures do, and a listed
 * rule that now passes is stale and fails the run, so that baselines cannot rot.
 */
export function applyBaseline(report: ConformanceReport, file: string, known: string[]): ConformanceReport {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const accepted = known.filter((id) => byId.get(id)?.status === 'failed');
  const stale = known.filter((id) => {
    const r = byId.get(id);
    return !r || r.status === 'passed';
  });
  const newFailures = gatingFailures(report.rules).filter((r) => !known.includes(r.id));
  const verdict =
    newFailures.length || stale.length || report.errors.length || report.interrupted ? 'failed' : 'passed';
  return { ...report, verdict, baseline: { file, accepted, stale, newFailures: newFailures.map((r) => r.id) } };
}
