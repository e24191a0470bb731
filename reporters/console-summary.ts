import { earlyEnd, gates, NOT_GATING_HEADING, type ConformanceReport } from './conformance-report.ts';
import { knownFailures } from './baseline.ts';
import { failureBlock, failureBlockLines } from './failure-block.ts';
import { forTerminalLine as t } from './untrusted-text.ts';

/** What a run's profile and gates were: `read-only profile, strict, shard 1/3, baseline known.json`. */
export function profileText(o: { profile?: unknown; strict?: boolean; shard?: string; baseline?: string }): string {
  const parts = [`${typeof o.profile === 'string' ? o.profile : 'full'} profile`];
  if (o.strict) parts.push('strict');
  if (o.shard) parts.push(`shard ${o.shard}`);
  if (o.baseline) parts.push(`baseline ${o.baseline}`);
  return parts.join(', ');
}

/** The report's profile, when it is a run's (an audit or a proxy has none). */
function reportProfile(report: ConformanceReport): string | undefined {
  if (report.options.profile === undefined) return undefined;
  return profileText({
    profile: report.options.profile,
    strict: !!report.options.strict,
    shard: report.shard,
    baseline: report.baseline?.file,
  });
}

/** The verdict line: `Conformance PASSED (timed-out) — read-only profile — target (embedded reference deployment)`. */
export function consoleHeadline(report: ConformanceReport): string {
  const profile = reportProfile(report);
  return `Conformance ${t(String(report.verdict).toUpperCase())}${t(earlyEnd(report))}${profile ? ` — ${t(profile)}` : ''} — ${t(report.target)}${report.embeddedReference ? ' (embedded reference deployment)' : ''}`;
}

/**
 * The one-screen summary a run ends with: counts, failed rules with their quotes, paths, seed.
 * `headline: false` leaves out the verdict line, for a caller that prints it in colour.
 */
export function consoleSummary(
  report: ConformanceReport,
  paths: string[],
  opts: { maxFailures?: number; headline?: boolean } = {},
): string {
  const maxFailures = opts.maxFailures ?? 15;
  const c = report.counts.byStatus;
  const lines: string[] = [];
  if (opts.headline !== false) {
    lines.push('');
    lines.push(consoleHeadline(report));
  }
  if (report.options.profile === 'read-only')
    lines.push(
      `  read-only profile: only requests that change nothing were sent; the ${t(c.skipped)} rules skipped include every rule that needs another request`,
    );
  // The baseline's accepted entries are exactly its listed rules that failed.
  const known = report.baseline?.accepted.length ?? 0;
  const failedCount = `${t(Number(c.failed) - known)}${known ? ` (+${known} known)` : ''}`;
  lines.push(
    `  rules: ${t(report.counts.total)}  passed ${t(c.passed)}  failed ${failedCount}  warning ${t(c.warning)}  observed ${t(c.observed)}  skipped ${t(c.skipped)}  not exercised ${t(c['not-exercised'])}`,
  );
  if (report.http) {
    lines.push(
      `  requests: ${t(report.http.requests)}  429s absorbed: ${t(report.http.retriedAfter429)}  transport errors: ${t(report.http.transportErrors)}  time: ${t((Number(report.durationMs) / 1000).toFixed(1))} s`,
    );
  }
  const accepted = new Set(report.baseline?.accepted ?? []);
  const failed = report.rules.filter((r) => r.status === 'failed' && !accepted.has(r.id));
  // The failures that decide the verdict first; a MAY rule's, under a heading that says it does not.
  for (const [heading, listed] of [
    ['Failed rules:', failed.filter((r) => gates(r.level))],
    [`${NOT_GATING_HEADING}:`, failed.filter((r) => !gates(r.level))],
  ] as const) {
    if (!listed.length) continue;
    lines.push('');
    lines.push(heading);
    for (const r of listed.slice(0, maxFailures)) {
      lines.push(`  ✗ ${t(r.id)} [${t(r.level)}]`);
      lines.push(`      "${t(r.quote)}"`);
      if (r.failure) lines.push(...failureBlockLines(failureBlock(r.failure, { receivedMax: 200 }), '      ', t));
      const more = (r.failures?.length ?? 1) - 1;
      if (more > 0)
        lines.push(`      … and ${more} more distinct failure${more > 1 ? 's' : ''} of this rule in the report`);
    }
    if (listed.length > maxFailures) lines.push(`  … and ${listed.length - maxFailures} more in the report`);
  }
  if (report.baseline) {
    const b = report.baseline;
    lines.push('');
    lines.push(
      `Baseline ${t(b.file)}: ${knownFailures(b.accepted.length)} accepted (${b.accepted.map(t).join(', ') || 'none'}), ${b.newFailures.length} new, ${b.stale.length} stale`,
    );
    for (const id of b.stale) lines.push(`  ✗ stale: ${t(id)} now passes; remove it from the baseline`);
  }
  const warned = report.rules.filter((r) => r.status === 'warning');
  if (warned.length) {
    lines.push('');
    lines.push('Warnings (our reading of a sentence the documents leave open; --strict fails them):');
    for (const r of warned.slice(0, maxFailures)) {
      lines.push(`  ! ${t(r.id)} [${t(r.level)}] reading ${t(r.warning?.reading ?? '?')}`);
      lines.push(`      "${t(r.quote)}"`);
      if (r.warning) {
        lines.push(`      Our reading: ${t(r.warning.text)}`);
        lines.push(`      Expected: ${t(r.warning.expected)}`);
        lines.push(`      The deployment: ${t(String(r.warning.received).slice(0, 200))}`);
      }
    }
    if (warned.length > maxFailures) lines.push(`  … and ${warned.length - maxFailures} more in the report`);
  }
  if (report.stopped) lines.push(`  stopped early: ${t(report.stopped.detail)}`);
  const outstanding = report.cleanup?.outstanding.length ?? 0;
  if (outstanding) {
    lines.push(`  ${outstanding} created resources could not be deleted (listed in the report)`);
    if (report.cleanup?.sweep) lines.push(`  ${t(report.cleanup.sweep)}`);
  }
  if (report.errors.length) {
    lines.push('');
    lines.push('Errors outside the tests:');
    for (const e of report.errors.slice(0, 5)) lines.push(`  ! ${t(String(e).split('\n')[0])}`);
  }
  lines.push('');
  for (const p of paths) lines.push(`  report: ${t(p)}`);
  // An audit of recorded traffic generated nothing: it has no seed to rerun with.
  if (report.options.mode !== 'audit') lines.push(`  seed: ${t(report.seed)} (rerun with --seed ${t(report.seed)})`);
  return `${lines.join('\n')}\n`;
}
