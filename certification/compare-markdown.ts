import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { forMarkdown as md, markdownCode as code } from '../reporters/untrusted-text.ts';
import type { Comparison, RuleChange } from './compare-reports.ts';

const cell = (s: string | undefined, max = 160) => md(s ?? '—', max) || '—';

function describe(r: ConformanceReport): string {
  return `${code(r.target)} (${md(r.tool?.name ?? '?')} ${md(r.tool?.version ?? '?')}, ${md(String(r.finishedAt).slice(0, 19))}, seed ${md(r.seed)})`;
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
        `| ${code(r.id)} | ${md(r.level)} | ${md(r.before)} | ${md(r.after)} | ${cell(r.beforeDetail)} | ${cell(r.afterDetail)} |`,
    ),
    '',
  ];
}

/**
 * The headline's mark: ❌ the gate fails; ⚠️ it passes, yet rules were lost or the second report
 * failed (nothing regressed, and still not all is well); ✅ otherwise.
 */
function mark(after: ConformanceReport, c: Comparison): string {
  if (!c.gate.passed) return '❌';
  return c.noLongerJudged.length || after.verdict !== 'passed' ? '⚠️' : '✅';
}

/** The comparison as Markdown, for a terminal or a CI step summary. */
export function compareMarkdown(before: ConformanceReport, after: ConformanceReport, c: Comparison): string {
  const lost = c.noLongerJudged.length ? `${c.noLongerJudged.length} no longer judged, ` : '';
  const lines = [
    `## ${mark(after, c)} Conformance compared: ${c.newlyFailed.length} newly failed, ${lost}${c.newlyPassed.length} newly passed, ${c.newlyWarned.length} newly warned, ${c.unchanged} unchanged`,
    '',
    `- before: ${describe(before)}, ${md(before.verdict)}`,
    `- after: ${describe(after)}, ${md(after.verdict)}`,
    ...(c.gate.passed ? [] : [`- the gate fails (exit 1): ${c.gate.why.map((w) => md(w)).join('; ')}`]),
    '',
    ...table('Newly failed', c.newlyFailed),
    ...table('No longer judged (judged before, skipped or not exercised now)', c.noLongerJudged),
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
  if (c.onlyBefore.length) lines.push(`Only in the first report: ${c.onlyBefore.map((x) => code(x)).join(', ')}`, '');
  if (c.onlyAfter.length) lines.push(`Only in the second report: ${c.onlyAfter.map((x) => code(x)).join(', ')}`, '');
  return `${lines.join('\n')}\n`;
}
