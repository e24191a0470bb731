import { STATUS_RANK } from '../suites/engine/outcome-status.ts';
import { countRules, gatingFailures, type ConformanceReport, type RuleResult } from './conformance-report.ts';

/** Merges the reports of the shards of one run into one: per rule, the strongest evidence. */
export function mergeReports(reports: ConformanceReport[]): ConformanceReport {
  if (!reports.length) throw new Error('nothing to merge');
  const [first] = reports;
  const byId = new Map<string, RuleResult>();
  for (const rep of reports) {
    for (const r of rep.rules) {
      const prev = byId.get(r.id);
      if (!prev) byId.set(r.id, { ...r, tests: [...r.tests] });
      else {
        const best = STATUS_RANK[r.status] > STATUS_RANK[prev.status] ? { ...r } : prev;
        best.tests = [...new Set([...prev.tests, ...r.tests])];
        if (best.status === 'observed') best.observed = [...new Set([...(prev.observed ?? []), ...(r.observed ?? [])])];
        byId.set(r.id, best);
      }
    }
  }
  const rules = [...byId.values()];
  const errors = reports.flatMap((r) => r.errors);
  const interrupted = reports.some((r) => r.interrupted);
  // A shard that stopped early (its time ran out, or the target stopped answering) stops the whole.
  const stops = reports.filter((r) => r.stopped);
  const stopped = stops.length
    ? {
        reason: stops[0].stopped!.reason,
        detail: stops.map((r) => `${r.shard ?? 'a shard'}: ${r.stopped!.detail}`).join('; '),
      }
    : undefined;
  const gate = gatingFailures(rules).length > 0;
  const sum = (k: 'requests' | 'throttled' | 'retriedAfter429' | 'transportErrors') =>
    reports.reduce((n, r) => n + (r.http?.[k] ?? 0), 0);
  const startedAt = reports.map((r) => r.startedAt).sort()[0];
  const finishedAt = reports
    .map((r) => r.finishedAt)
    .sort()
    .at(-1)!;
  const { stopped: _firstStop, tests: _firstTests, ...rest } = first;
  // Every shard's tests on one time line, from the earliest shard's start.
  const tests = reports
    .flatMap((r) =>
      (r.tests ?? []).map((t) => ({ ...t, startMs: t.startMs + Date.parse(r.startedAt) - Date.parse(startedAt) })),
    )
    .sort((a, b) => a.startMs - b.startMs || a.name.localeCompare(b.name));
  return {
    ...rest,
    startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
    interrupted,
    ...(stopped ? { stopped } : {}),
    verdict: gate || errors.length || interrupted ? 'failed' : 'passed',
    counts: countRules(rules),
    http: {
      requests: sum('requests'),
      throttled: sum('throttled'),
      retriedAfter429: sum('retriedAfter429'),
      transportErrors: sum('transportErrors'),
    },
    cleanup: {
      created: reports.reduce((n, r) => n + (r.cleanup?.created ?? 0), 0),
      deleted: reports.reduce((n, r) => n + (r.cleanup?.deleted ?? 0), 0),
      outstanding: reports.flatMap((r) => r.cleanup?.outstanding ?? []),
    },
    errors,
    shard: `merged ${reports.map((r) => r.shard ?? '?').join(', ')}`,
    rules,
    ...(tests.length ? { tests } : {}),
  };
}
