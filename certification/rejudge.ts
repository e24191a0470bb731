import type { ServiceName } from '../contracts/services.ts';
import type { RuleResult } from '../reporters/conformance-report.ts';

/** A rule whose status, judged again from the recorded traffic, is not the report's. */
export interface Disagreement {
  rule: string;
  reported: string;
  rejudged: string;
}

const JUDGED = new Set(['passed', 'failed', 'observed', 'warning']);

/**
 * Compares the report with per-rule outcomes judged again from the run's recorded exchanges (the
 * passively judgeable rules of the claimed services). A contradiction is a rule both judged, with
 * different verdicts, or one the traffic judges and the report does not: the evidence does not
 * support the report, and verify refuses the bundle. A rule the report judged and the traffic
 * cannot (an opaque token hides its scopes, a body was cut at the HAR's size limit) is only
 * unsupported: the summary lists it.
 */
export function rejudgeDisagreements(
  rules: readonly Pick<RuleResult, 'id' | 'service' | 'status'>[],
  outcomes: Readonly<Record<string, { status: string }>>,
  services: readonly ServiceName[],
): { contradictions: Disagreement[]; unsupported: Disagreement[] } {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const contradictions: Disagreement[] = [];
  const unsupported: Disagreement[] = [];
  for (const [rule, o] of Object.entries(outcomes)) {
    const r = byId.get(rule);
    if (!r || !services.includes(r.service)) continue;
    const d = { rule, reported: String(r.status), rejudged: o.status };
    if (d.reported === d.rejudged) continue;
    if (JUDGED.has(d.rejudged)) contradictions.push(d);
    else if (JUDGED.has(d.reported)) unsupported.push(d);
  }
  return { contradictions, unsupported };
}
