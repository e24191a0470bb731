import { loadRules } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import type { ConformanceReport, RuleResult } from '../reporters/conformance-report.ts';
import { isConfigurationSkip } from './config-requirements.ts';

/** Fewest fast-check runs per property a certification run may use: the default of `conformance run`. */
export const MIN_RUNS = 25;

/** Options of `conformance run` that a certification run may not use, with why. */
export const FORBIDDEN_OPTIONS: Readonly<Record<string, string>> = {
  rule: 'certification judges every rule of the claimed services; --rule selects some',
  shard: 'certification needs every test in one run; --shard runs a share',
  baseline: 'certification reports every failure; --baseline accepts some',
  profile: 'certification sends every test; --profile read-only leaves out the ones that write',
};

const list = (ids: string[], n = 5) =>
  `${ids.slice(0, n).join(', ')}${ids.length > n ? ` and ${ids.length - n} more` : ''}`;

/**
 * Why a report is not a complete certification run of `claimed` (empty when it is): options
 * outside the profile, a claimed service not run, or a testable MUST/SHOULD rule of a claimed
 * service missing from the report or skipped for want of configuration. A rule skipped or left
 * unexercised for what the target did (it throttled nothing; an earlier check of the same test
 * failed) is part of a complete run; `certifiedVerdict` keeps such a run from being conformant.
 */
export function profileProblems(report: ConformanceReport, claimed: readonly ServiceName[]): string[] {
  const problems: string[] = [];
  const o = report.options ?? {};
  const rules = Array.isArray(o.rules) ? (o.rules as string[]) : [];
  if (rules.length) problems.push(`the run selected rules (--rule ${rules.join(' ')}): ${FORBIDDEN_OPTIONS.rule}`);
  if (o.profile !== 'full') problems.push(`the run used --profile ${String(o.profile)}: ${FORBIDDEN_OPTIONS.profile}`);
  if (report.shard) problems.push(`the run was shard ${report.shard}: ${FORBIDDEN_OPTIONS.shard}`);
  if (report.baseline)
    problems.push(`the run applied the baseline ${report.baseline.file}: ${FORBIDDEN_OPTIONS.baseline}`);
  if (typeof o.runs !== 'number' || o.runs < MIN_RUNS)
    problems.push(`the run used ${String(o.runs)} runs per property, fewer than the default ${MIN_RUNS}`);
  if (report.interrupted) problems.push('the run was interrupted');
  const ran = Array.isArray(o.services) ? (o.services as string[]) : [];
  const missingServices = claimed.filter((s) => !ran.includes(s));
  if (missingServices.length) problems.push(`claimed services not run: ${missingServices.join(', ')}`);
  if (!claimed.length) problems.push('no service is claimed');

  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const absent: string[] = [];
  const unconfigured = new Map<string, string[]>();
  for (const rule of loadRules(claimed.filter((s) => !missingServices.includes(s)))) {
    if (rule.status === 'retired' || rule.testable === false) continue;
    if (rule.level !== 'MUST' && rule.level !== 'SHOULD') continue;
    const r = byId.get(rule.id);
    if (!r) absent.push(rule.id);
    else if (isConfigurationSkip(r)) {
      const why = r.reason ?? '';
      unconfigured.set(why, [...(unconfigured.get(why) ?? []), rule.id]);
    }
  }
  if (absent.length)
    problems.push(`${absent.length} testable MUST/SHOULD rules are not in the report: ${list(absent)}`);
  for (const [why, ids] of unconfigured) problems.push(`${ids.length} rules skipped (${why}): ${list(ids, 3)}`);
  return problems;
}

/**
 * The testable MUST and SHOULD rules of the claimed services that the run did not judge: skipped
 * or not exercised, whatever the reason (the target throttled nothing, a test ended early). The
 * rules the catalog marks not testable from outside are not among them.
 */
export function unjudgedRules(report: ConformanceReport, claimed: readonly ServiceName[]): RuleResult[] {
  const untestable = new Set(
    loadRules(claimed)
      .filter((r) => r.testable === false)
      .map((r) => r.id),
  );
  return report.rules.filter(
    (r) =>
      claimed.includes(r.service) &&
      (r.level === 'MUST' || r.level === 'SHOULD') &&
      (r.status === 'skipped' || r.status === 'not-exercised') &&
      !untestable.has(r.id),
  );
}

/**
 * The certificate's verdict: conformant only when the run passed, the profile is complete and
 * every testable MUST/SHOULD rule of the claimed services was judged (none skipped, none left
 * unexercised): a certificate claims only what was judged.
 */
export function certifiedVerdict(
  report: ConformanceReport,
  claimed: readonly ServiceName[],
  problems: readonly string[],
): 'conformant' | 'not conformant' {
  return report.verdict === 'passed' && problems.length === 0 && unjudgedRules(report, claimed).length === 0
    ? 'conformant'
    : 'not conformant';
}
