import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { Comparison, RuleChange } from './compare-reports.ts';

const cell = (s: string | undefined, max = 160) =>
  (s ?? '—').replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, max) || '—';

function describe(r: ConformanceReport): string {
  return `\`${r.target}\` (${r.tool?.name ?? '?'} ${r.tool?.version ?? '?'}, ${String(r.finishedAt).slice(0, 19)}, seed ${r.seed})`;
}

function table(title: string, rows: RuleChange[]): string[] {
  if (!rows.length) return [];
  return [
    `### ${title} (${rows.length})`,
    '',
    '| rule | level | before | after | before: what the deployment did | after: what the deployment did |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.id}\` | ${r.level} | ${r.before} | ${r.after} | ${cell(r.beforeDetail)} | ${cell(r.afterDetail)} |`,
    ),
    '',
  ];
}

/** The comparison as Markdown, for a terminal or a CI step summary. */
export function compareMarkdown(before: ConformanceReport, after: ConformanceReport, c: Comparison): string {
  const icon = c.newlyFailed.length ? '❌' : '✅';
  const lines = [
    `## ${icon} Conformance compared: ${c.newlyFailed.length} newly failed, ${c.newlyPassed.length} newly passed, ${c.newlyWarned.length} newly warned, ${c.unchanged} unchanged`,
    '',
    `- before: ${describe(before)}, ${before.verdict}`,
    `- after: ${describe(after)}, ${after.verdict}`,
    '',
    ...table('Newly failed', c.newlyFailed),
    ...table('Newly passed', c.newlyPassed),
    ...table('Newly warned', c.newlyWarned),
    ...table('Other changes of status', c.otherChanges),
    ...table(
      'Observed or warned in both: what the deployment did',
      c.observedBoth.filter((r) => r.beforeDetail !== r.afterDetail),
    ),
  ];
  const sameObserved = c.observedBoth.filter((r) => r.beforeDetail === r.afterDetail).length;
  if (sameObserved) lines.push(`${sameObserved} observed or warned rules did the same in both.`, '');
  if (c.onlyBefore.length)
    lines.push(`Only in the first report: ${c.onlyBefore.map((x) => `\`${x}\``).join(', ')}`, '');
  if (c.onlyAfter.length) lines.push(`Only in the second report: ${c.onlyAfter.map((x) => `\`${x}\``).join(', ')}`, '');
  return `${lines.join('\n')}\n`;
}
