import { earlyEnd, gates, NOT_GATING_HEADING, type ConformanceReport } from './conformance-report.ts';
import { knownFailures } from './baseline.ts';
import { forMarkdown as md, markdownCode as code } from './untrusted-text.ts';

/** A short Markdown summary for a CI step summary: verdict, counts per service, failed rules. */
export function summaryMarkdown(report: ConformanceReport, maxFailures = 20): string {
  const lines: string[] = [];
  const icon = report.verdict === 'passed' ? '✅' : '❌';
  lines.push(`## ${icon} Conformance ${md(report.verdict)}${md(earlyEnd(report))}`);
  lines.push('');
  if (report.stopped) lines.push(`Stopped early: ${md(report.stopped.detail)}`, '');
  lines.push(
    `Target ${code(report.target)} · seed ${code(report.seed)} · ${md((Number(report.durationMs) / 1000).toFixed(1))} s · contracts ${md(Object.values(report.contracts.versions).join(', '))}`,
  );
  lines.push('');
  lines.push('| service | passed | failed | warning | observed | skipped | not exercised |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  const accepted = new Set(report.baseline?.accepted ?? []);
  for (const s of [...new Set(report.rules.map((r) => r.service))]) {
    const rs = report.rules.filter((r) => r.service === s);
    const n = (st: string) => rs.filter((r) => r.status === st).length;
    // A failure the baseline accepted is counted apart, as every artifact shows it: a known failure.
    const known = rs.filter((r) => r.status === 'failed' && accepted.has(r.id)).length;
    const failed = `${n('failed') - known}${known ? ` (+${known} known)` : ''}`;
    lines.push(
      `| ${md(s)} | ${n('passed')} | ${failed} | ${n('warning')} | ${n('observed')} | ${n('skipped')} | ${n('not-exercised')} |`,
    );
  }
  if (report.baseline) {
    const b = report.baseline;
    // A blank line first: a line right after a table's rows is read as one more row.
    lines.push(
      '',
      `Baseline ${code(b.file)}: ${knownFailures(b.accepted.length)} accepted, ${b.newFailures.length} new, ${b.stale.length} stale`,
      '',
    );
  }
  const failed = report.rules.filter((r) => r.status === 'failed' && !accepted.has(r.id));
  for (const [heading, listed] of [
    ['### Failed rules', failed.filter((r) => gates(r.level))],
    [`### ${NOT_GATING_HEADING}`, failed.filter((r) => !gates(r.level))],
  ] as const) {
    if (!listed.length) continue;
    lines.push('');
    lines.push(heading);
    for (const r of listed.slice(0, maxFailures)) {
      lines.push(
        `- ${code(r.id)} (${md(r.level)}): ${md(r.failure?.title ?? '')}. Expected ${md(r.failure?.expected ?? '?', 300)}; received ${md(r.failure?.received ?? '?', 160)}`,
      );
    }
    if (listed.length > maxFailures) lines.push(`- … ${listed.length - maxFailures} more in the report`);
  }
  if (report.baseline?.stale.length) {
    lines.push('');
    lines.push(`### Stale baseline entries (they now pass: remove them from ${code(report.baseline.file)})`);
    for (const id of report.baseline.stale.slice(0, maxFailures)) lines.push(`- ${code(id)}`);
  }
  const known = report.rules.filter((r) => accepted.has(r.id));
  if (known.length) {
    lines.push('');
    lines.push('### Known failures (accepted by the baseline; they do not fail the run)');
    for (const r of known.slice(0, maxFailures))
      lines.push(`- ${code(r.id)} (${md(r.level)}): ${md(r.failure?.title ?? '')}`);
    if (known.length > maxFailures) lines.push(`- … ${known.length - maxFailures} more in the report`);
  }
  const warned = report.rules.filter((r) => r.status === 'warning');
  if (warned.length) {
    lines.push('');
    lines.push('### Warnings (our reading of a sentence the documents leave open; they do not fail the run)');
    for (const r of warned.slice(0, maxFailures)) {
      const w = r.warning;
      lines.push(
        `- ${code(r.id)} (${md(r.level)}) reading ${code(w?.reading ?? '?')}: ${md(w?.text ?? '')} Quote: "${md(r.quote)}". Expected ${md(w?.expected ?? '?', 300)}; the deployment: ${md(w?.received ?? '?', 160)}`,
      );
    }
    if (warned.length > maxFailures) lines.push(`- … ${warned.length - maxFailures} more in the report`);
  }
  if (report.errors.length) {
    lines.push('');
    lines.push(
      `### Errors\n${report.errors
        .slice(0, 5)
        .map((e) => `- ${md(String(e).split('\n')[0], 300)}`)
        .join('\n')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
