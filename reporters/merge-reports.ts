import { STATUS_RANK } from '../suites/engine/outcome-status.ts';
import { countRules, gatingFailures, type ConformanceReport, type RuleResult } from './conformance-report.ts';
import { asText, forTerminalLine } from './untrusted-text.ts';

/** A report handed to `merge`: as its reader named it, the file it was read from, and what it says. */
export interface GivenReport {
  source: string;
  /** The file's real path: one file named twice is one report. */
  file: string;
  report: ConformanceReport;
}

/**
 * What makes a report part of one run: the shards of one run agree on each. The reports carry no
 * run ID (each shard is its own run, with its own prefix), so a run is its target, seed, tool,
 * contracts and the options that choose and judge the tests; the pacing options (rate,
 * concurrency, timeouts, --max-time) may differ between machines and do not change what is judged.
 */
const RUN_FACTS: ReadonlyArray<[string, (r: ConformanceReport) => unknown]> = [
  ['target', (r) => (r.embeddedReference ? 'the embedded reference' : r.target)],
  ['seed', (r) => r.seed],
  ['tool', (r) => `${asText(r.tool?.name)} ${asText(r.tool?.version)}`],
  ['contract versions', (r) => r.contracts?.versions],
  ['contracts', (r) => r.contracts?.hash],
];
const PACING_OPTIONS = new Set(['rate', 'concurrency', 'timeoutMs', 'cleanupTimeoutMs', 'jobDeadlineMs', 'maxTimeMs']);

/** A report's `--shard i/n`, or undefined for a report that is not one shard's (a whole run, a merge). */
export function shardOf(report: Pick<ConformanceReport, 'shard'>): { index: number; total: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(report.shard ?? '');
  if (!m) return undefined;
  const [index, total] = [Number(m[1]), Number(m[2])];
  return index >= 1 && index <= total ? { index, total } : undefined;
}

/** Where two reports of a merge differ as runs: the first fact they disagree on, as "what: a ≠ b". */
function runDifference(a: ConformanceReport, b: ConformanceReport): string | undefined {
  for (const [what, fact] of RUN_FACTS) {
    const [x, y] = [asText(fact(a)), asText(fact(b))];
    if (x !== y) return `${what} ${x} ≠ ${y}${what === 'seed' ? ' (every shard of a run takes the same --seed)' : ''}`;
  }
  const keys = new Set([...Object.keys(a.options ?? {}), ...Object.keys(b.options ?? {})]);
  for (const k of [...keys].filter((key) => !PACING_OPTIONS.has(key)).sort()) {
    const [x, y] = [asText(a.options?.[k]) || 'unset', asText(b.options?.[k]) || 'unset'];
    if (x !== y) return `${k === 'profile' ? 'profile' : `option ${k}`} ${x} ≠ ${y}`;
  }
  const [n, m] = [shardOf(a)?.total, shardOf(b)?.total];
  if (n !== m) return `shards ${shardOf(a)?.index}/${n} and ${shardOf(b)?.index}/${m} of different layouts`;
  return undefined;
}

/**
 * Why the given reports are not every shard of one run, each once (undefined: they are). One
 * report that is not a shard's stands alone; a set with a shard missing is refused, never merged
 * into a verdict, as a shard that did not report cannot have passed. Shown on one line, escaped.
 */
export function shardSetProblem(given: readonly GivenReport[]): string | undefined {
  const name = (g: GivenReport) => forTerminalLine(g.source);
  const seen = new Map<string, GivenReport>();
  for (const g of given) {
    const twin = seen.get(g.file);
    if (twin)
      return twin.source === g.source ? `${name(g)} is given twice` : `${name(twin)} and ${name(g)} are one report`;
    seen.set(g.file, g);
  }
  const whole = given.find((g) => !shardOf(g.report));
  if (whole)
    return given.length === 1
      ? undefined
      : `${name(whole)} is not one shard's report (${whole.report.shard ? `its shard: ${forTerminalLine(whole.report.shard)}` : 'a run without --shard'}): it merges with no other report`;
  const [first] = given;
  for (const g of given.slice(1)) {
    const diff = runDifference(first.report, g.report);
    if (diff) return `${name(first)} and ${name(g)} are not shards of one run: ${forTerminalLine(diff)}`;
  }
  const byIndex = new Map<number, GivenReport>();
  for (const g of given) {
    const { index, total } = shardOf(g.report)!;
    const twin = byIndex.get(index);
    if (twin) return `shard ${index}/${total} is given twice: ${name(twin)} and ${name(g)}`;
    byIndex.set(index, g);
  }
  const total = shardOf(first.report)!.total;
  const count = total - byIndex.size;
  if (!count) return undefined;
  // Named up to ten, the first ones: a layout of a million shards is not listed in full.
  const named: string[] = [];
  for (let i = 1; i <= total && named.length < 10; i++) if (!byIndex.has(i)) named.push(`${i}/${total}`);
  const more = count > named.length ? ` and ${count - named.length} more` : '';
  return count === 1
    ? `shard ${named[0]} of the run is missing: a merge without it would pass rules that never ran`
    : `shards ${named.join(', ')}${more} of the run are missing: a merge without them would pass rules that never ran`;
}

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
    // Shards say which were merged; a report that is not a shard's (merged alone) keeps its own word.
    ...(reports.every((r) => shardOf(r))
      ? {
          shard: `merged ${[...reports]
            .sort((a, b) => shardOf(a)!.index - shardOf(b)!.index)
            .map((r) => r.shard)
            .join(', ')}`,
        }
      : {}),
    rules,
    ...(tests.length ? { tests } : {}),
  };
}
