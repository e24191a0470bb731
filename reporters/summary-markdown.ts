import { earlyEnd, type ConformanceReport } from './conformance-report.ts';

/** A short Markdown summary for a CI step summary: verdict, counts per service, failed rules. */
export function summaryMarkdown(report: ConformanceReport, maxFailures = 20): string {
  const lines: string[] = [];
  const icon = report.verdict === 'passed' ? '✅' : '❌';
  lines.push(`## ${icon} Conformance ${report.verdict}${earlyEnd(report)}`);
  lines.push('');
  if (report.stopped) lines.push(`Stopped early: ${report.stopped.detail}`, '');
  lines.push(
    `Target \`${report.target}\` · seed \`${report.seed}\` · ${(report.durationMs / 1000).toFixed(1)} s · contracts ${Object.values(report.contracts.versions).join(', ')}`,
  );
  lines.push('');
  lines.push('| service | passed | failed | warning | observed | skipped | not exercised |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const s of [...new Set(report.rules.map((r) => r.service))]) {
    const rs = report.rules.filter((r) => r.service === s);
    const n = (st: string) => rs.filter((r) => r.status === st).length;
    lines.push(
      `| ${s} | ${n('passed')} | ${n('failed')} | ${n('warning')} | ${n('observed')} | ${n('skipped')} | ${n('not-exercised')} |`,
    );
  }
  const failed = report.rules.filter((r) => r.status === 'failed');
  if (failed.length) {
    lines.push('');
    lines.push('### Failed rules');
    for (const r of failed.slice(0, maxFailures)) {
      lines.push(
        `- **${r.id}** (${r.level}): ${r.failure?.title ?? ''}. Expected ${r.failure?.expected ?? '?'}; received ${(r.failure?.received ?? '?').slice(0, 160)}`,
      );
    }
    if (failed.length > maxFailures) lines.push(`- … ${failed.length - maxFailures} more in the report`);
  }
  const warned = report.rules.filter((r) => r.status === 'warning');
  if (warned.length) {
    lines.push('');
    lines.push('### Warnings (our reading of a sentence the documents leave open; they do not fail the run)');
    for (const r of warned.slice(0, maxFailures)) {
      const w = r.warning;
      lines.push(
        `- **${r.id}** (${r.level}) reading \`${w?.reading ?? '?'}\`: ${w?.text ?? ''} Quote: "${r.quote}". Expected ${w?.expected ?? '?'}; the deployment: ${(w?.received ?? '?').slice(0, 160)}`,
      );
    }
    if (warned.length > maxFailures) lines.push(`- … ${warned.length - maxFailures} more in the report`);
  }
  if (report.errors.length) {
    lines.push('');
    lines.push(
      `### Errors\n${report.errors
        .slice(0, 5)
        .map((e) => `- ${e.split('\n')[0]}`)
        .join('\n')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
