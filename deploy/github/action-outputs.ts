// The GitHub Action's last word on a run (action.yml): its outputs, read from the run's
// conformance-report.json. Run as a script:
//   tsx deploy/github/action-outputs.ts REPORT_DIR EXIT_CODE
// It appends `verdict`, `failed`, `known` and `report-dir` to $GITHUB_OUTPUT. The run's `github`
// console reporter has already annotated each failed rule, said why the run exits non-zero and
// written the step summary, and a run that ended before writing a report (bad configuration,
// unreachable target) annotated why; only when the run ended some other way without a report (it
// was killed, it could not start) does this print the one annotation that says so.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXITS_WITHOUT_REPORT } from '../../cli/exit-codes.ts';
import { gatingFailures, type ConformanceReport } from '../../reporters/conformance-report.ts';
import { forWorkflowCommand, forWorkflowCommandProperty } from '../../reporters/untrusted-text.ts';

export { annotations, MAX_ANNOTATIONS } from '../../reporters/github-annotations.ts';

/**
 * The Action's outputs: the verdict (or `error` when no report was written); `failed`, the failed
 * rules that fail the run (without a baseline every failed MUST or SHOULD rule, with one its new
 * failures); `known`, the failures the baseline accepted; the report folder.
 */
export function actionOutputs(report: ConformanceReport | undefined, reportDir: string): Record<string, string> {
  const failed = report ? (report.baseline?.newFailures.length ?? gatingFailures(report.rules).length) : 0;
  return {
    verdict: report ? report.verdict : 'error',
    failed: String(failed),
    known: String(report?.baseline?.accepted.length ?? 0),
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
  if (!report && !EXITS_WITHOUT_REPORT.includes(Number(exitCode)))
    process.stdout.write(
      `::error title=${forWorkflowCommandProperty('conformance run')}::${forWorkflowCommand(`the run wrote no report (exit ${exitCode}): see the step's log`)}\n`,
    );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
