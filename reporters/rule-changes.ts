import { gates, type ConformanceReport, type RuleResult, type RuleStatus } from './conformance-report.ts';

/** One rule's status in both reports, with what the deployment did where the status records it. */
export interface RuleChange {
  id: string;
  level: string;
  before: string;
  after: string;
  /** For observed and warning rules, and failures: what the deployment did. */
  beforeDetail?: string;
  afterDetail?: string;
}

export interface Comparison {
  /** The release-to-release gate: fails on a rule newly failed or a MUST/SHOULD rule no longer judged. */
  gate: { passed: boolean; why: string[] };
  /** Failed now, and not before: whatever the first report said of it, absent (`before: absent`) included. */
  newlyFailed: RuleChange[];
  /** Judged before (passed, failed, warning, observed) and not now (skipped, not exercised). */
  noLongerJudged: RuleChange[];
  newlyPassed: RuleChange[];
  newlyWarned: RuleChange[];
  /** Any other change of status (e.g. skipped to not exercised, observed to passed). */
  otherChanges: RuleChange[];
  /** Observed or warning in both: what the deployment did in each. */
  observedBoth: RuleChange[];
  unchanged: number;
  onlyBefore: string[];
  /** In the second report only (a failed one is newly failed too). */
  onlyAfter: string[];
}

/** The statuses that carry a verdict on the rule; skipped and not-exercised carry none. */
const JUDGED = new Set<string>(['passed', 'failed', 'warning', 'observed'] satisfies RuleStatus[]);

/**
 * Why the gate fails. A rule failed now that did not fail before is a regression, whatever the
 * first report said of it; a MUST or SHOULD rule that was judged and is not now may have broken
 * unseen (a configuration slip that skips fifty rules must not pass as "0 newly failed"), so it
 * fails the gate too, and so does one judged before and absent now (a second report narrowed by
 * --service or --rule). MAY and UNSPECIFIED rules never fail a run: newly failing or losing them
 * is shown and does not fail this.
 */
function gate(c: Pick<Comparison, 'newlyFailed' | 'noLongerJudged'>): Comparison['gate'] {
  const lost = c.noLongerJudged.filter((r) => gates(r.level)).length;
  const failed = c.newlyFailed.filter((r) => gates(r.level)).length;
  const why = [
    ...(failed ? [`${failed} newly failed`] : []),
    ...(lost ? [`${lost} MUST or SHOULD ${lost === 1 ? 'rule' : 'rules'} no longer judged`] : []),
  ];
  return { passed: !why.length, why };
}

/** What the deployment did for a rule, as its result records it. */
function detail(r: RuleResult & { warning?: unknown }): string | undefined {
  if (r.observed?.length) return r.observed.join('; ');
  if (r.failure) return `${r.failure.title}: expected ${r.failure.expected}; received ${r.failure.received}`;
  const w = r.warning as { detail?: string; received?: string } | string | undefined;
  if (typeof w === 'string') return w;
  if (w && typeof w === 'object') return w.detail ?? w.received;
  return r.reason;
}

/** Rule by rule, how `after` differs from `before`. */
export function compareReports(before: ConformanceReport, after: ConformanceReport): Comparison {
  const old = new Map(before.rules.map((r) => [r.id, r]));
  const now = new Set(after.rules.map((r) => r.id));
  const c: Omit<Comparison, 'gate'> = {
    newlyFailed: [],
    noLongerJudged: [],
    newlyPassed: [],
    newlyWarned: [],
    otherChanges: [],
    observedBoth: [],
    unchanged: 0,
    onlyBefore: before.rules.filter((r) => !now.has(r.id)).map((r) => r.id),
    onlyAfter: [],
  };
  // Judged before and absent now: no longer judged, as much as one skipped now.
  for (const b of before.rules)
    if (!now.has(b.id) && JUDGED.has(String(b.status)))
      c.noLongerJudged.push({
        id: b.id,
        level: b.level,
        before: String(b.status),
        after: 'absent',
        beforeDetail: detail(b),
      });
  for (const a of after.rules) {
    const b = old.get(a.id);
    if (!b) {
      c.onlyAfter.push(a.id);
      if (a.status === 'failed')
        c.newlyFailed.push({ id: a.id, level: a.level, before: 'absent', after: 'failed', afterDetail: detail(a) });
      continue;
    }
    const before_ = String(b.status);
    const after_ = String(a.status);
    const change: RuleChange = { id: a.id, level: a.level, before: before_, after: after_ };
    const withDetail = () => ({ ...change, beforeDetail: detail(b), afterDetail: detail(a) });
    if (after_ === before_) {
      c.unchanged++;
      if (after_ === 'observed' || after_ === 'warning') c.observedBoth.push(withDetail());
    } else if (after_ === 'failed') c.newlyFailed.push(withDetail());
    else if (JUDGED.has(before_) && !JUDGED.has(after_)) c.noLongerJudged.push(withDetail());
    else if (after_ === 'passed') c.newlyPassed.push(withDetail());
    else if (after_ === 'warning') c.newlyWarned.push(withDetail());
    else c.otherChanges.push(withDetail());
  }
  return { gate: gate(c), ...c };
}
