import { loadRules } from '../contracts/catalog.ts';
import { gatingFailures, type ConformanceReport } from './conformance-report.ts';
import { INPUT_BOUNDS, readBoundedFile, UntrustedInputError } from './untrusted-input.ts';

/** Why a baseline file was refused: it is a configuration slip, never the deployment's failure. */
export class BaselineError extends Error {}

/**
 * Known failures a team has accepted for now: `{ "failures": ["<rule-id>", …] }` or a bare array
 * (`conformance baseline REPORT` writes one). An ID that is not a rule of the catalog is refused:
 * a typo is not a stale entry.
 */
export function readBaseline(file: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readBoundedFile(file, 'a baseline', INPUT_BOUNDS.baseline).toString('utf8'));
  } catch (e) {
    if (e instanceof UntrustedInputError) throw new BaselineError(e.message, { cause: e });
    throw new BaselineError(`cannot read baseline ${file}: ${(e as Error).message}`, { cause: e });
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { failures?: unknown })?.failures;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
    throw new BaselineError(`baseline ${file} must be a JSON array of rule IDs or {"failures": [rule IDs]}`);
  }
  const known = new Set(loadRules().map((r) => r.id));
  const unknown = list.filter((id) => !known.has(id));
  if (unknown.length)
    throw new BaselineError(
      `baseline ${file}: not a rule of the catalog: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''} (see npx conformance rules)`,
    );
  return [...new Set(list)];
}

/**
 * Applies a baseline: listed failures no longer fail the run (they are "known failures" in every
 * artifact), new failures do, and a listed rule that was judged and now passes is stale and fails
 * the run, so that baselines cannot rot. A listed rule this run did not judge (another service,
 * shard or rule selection; skipped) is neither.
 */
export function applyBaseline(report: ConformanceReport, file: string, known: string[]): ConformanceReport {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const listed = new Set(known);
  const accepted = known.filter((id) => byId.get(id)?.status === 'failed');
  const stale = known.filter((id) => byId.get(id)?.status === 'passed');
  const newFailures = gatingFailures(report.rules).filter((r) => !listed.has(r.id));
  const verdict =
    newFailures.length || stale.length || report.errors.length || report.interrupted ? 'failed' : 'passed';
  return {
    ...report,
    verdict,
    baseline: { file, entries: [...known], accepted, stale, newFailures: newFailures.map((r) => r.id) },
  };
}

/** `1 known failure`, `3 known failures`. */
export function knownFailures(n: number): string {
  return `${n} known failure${n === 1 ? '' : 's'}`;
}
