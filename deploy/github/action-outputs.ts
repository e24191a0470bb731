// The GitHub Action's last word on a run (action.yml): its outputs and an annotation per failed
// rule, read from the run's conformance-report.json. Run as a script:
//   tsx deploy/github/action-outputs.ts REPORT_DIR EXIT_CODE
// It appends `verdict`, `failed` and `report-dir` to $GITHUB_OUTPUT and prints the annotations.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConformanceReport } from '../../reporters/conformance-report.ts';

/** Annotations shown at most: GitHub shows 10 errors per step anyway; the rest are in the summary. */
export const MAX_ANNOTATIONS = 50;

// Terminal control characters (C0 but tab and line breaks, DEL, C1): the target's answers reach
// the log through the annotations, and must not drive the reader's terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A workflow command's message, escaped as GitHub's runner unescapes it: %, CR, LF. */
export function escapeData(text: string): string {
  return text.replace(CONTROL, '').replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: the message's escapes, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error` line per failed rule (at most MAX_ANNOTATIONS, then one line saying how many more). */
export function annotations(report: ConformanceReport): string[] {
  const failed = report.rules.filter((r) => r.status === 'failed');
  const lines = failed.slice(0, MAX_ANNOTATIONS).map((r) => {
    const f = r.failure;
    const message = [
      `${r.level}: ${r.quote}`,
      f ? `${f.title}\nExpected: ${f.expected}\nReceived: ${f.received.slice(0, 500)}` : '',
      f?.replay ? `Replay: ${f.replay}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    return `::error title=${escapeProperty(`${r.id} failed`)}::${escapeData(message)}`;
  });
  if (failed.length > MAX_ANNOTATIONS)
    lines.push(
      `::error title=${escapeProperty('more failed rules')}::${failed.length - MAX_ANNOTATIONS} more in the report`,
    );
  return lines;
}

/** The Action's outputs: the verdict (or `error` when no report was written), the failed count, the report folder. */
export function actionOutputs(report: ConformanceReport | undefined, reportDir: string): Record<string, string> {
  return {
    verdict: report ? report.verdict : 'error',
    failed: String(report ? report.rules.filter((r) => r.status === 'failed').length : 0),
    'report-dir': reportDir,
  };
}

function main(argv: string[]): void {
  const [dir = 'conformance-report', exitCode = ''] = argv;
  const reportDir = resolve(dir);
  const file = join(reportDir, 'conformance-report.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  const outputs = actionOutputs(report, reportDir);
  const out = process.env.GITHUB_OUTPUT;
  // Single-line values, so the plain `name=value` form is safe.
  if (out)
    appendFileSync(
      out,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v.replace(/[\r\n]/g, ' ')}\n`)
        .join(''),
    );
  if (!report)
    process.stdout.write(
      `::error title=${escapeProperty('conformance run')}::${escapeData(`the run wrote no report (exit ${exitCode}): see the step's log`)}\n`,
    );
  else for (const line of annotations(report)) process.stdout.write(`${line}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
