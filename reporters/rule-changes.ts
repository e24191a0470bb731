import type { ConformanceReport, RuleResult } from './conformance-report.ts';

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
  newlyFailed: RuleChange[];
  newlyPassed: RuleChange[];
  newlyWarned: RuleChange[];
  /** Any other change of status (e.g. passed to skipped). */
  otherChanges: RuleChange[];
  /** Observed or warning in both: what the deployment did in each. */
  observedBoth: RuleChange[];
  unchanged: number;
  onlyBefore: string[];
  onlyAfter: string[];
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
  const c: Comparison = {
    newlyFailed: [],
    newlyPassed: [],
    newlyWarned: [],
    otherChanges: [],
    observedBoth: [],
    unchanged: 0,
    onlyBefore: before.rules.filter((r) => !now.has(r.id)).map((r) => r.id),
    onlyAfter: [],
  };
  for (const a of after.rules) {
    const b = old.get(a.id);
    if (!b) {
      c.onlyAfter.push(a.id);
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
    else if (after_ === 'passed') c.newlyPassed.push(withDetail());
    else if (after_ === 'warning') c.newlyWarned.push(withDetail());
    else c.otherChanges.push(withDetail());
  }
  return c;
}
