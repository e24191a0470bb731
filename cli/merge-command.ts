import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { consoleSummary } from '../reporters/console-summary.ts';
import { mergeReports } from '../reporters/merge-reports.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { readReportFile } from '../reporters/read-report.ts';

/** `conformance merge DIR…`: one report from the reports of several shards. */
export function mergeCommand(dirs: string[], opts: { reportDir: string }): number {
  const reports = dirs.map((d) =>
    readReportFile(existsSync(join(d, 'conformance-report.json')) ? join(d, 'conformance-report.json') : d),
  );
  const merged = mergeReports(reports);
  const files = writeOutputs(resolve(opts.reportDir), merged);
  process.stdout.write(consoleSummary(merged, files));
  return merged.verdict === 'passed' ? 0 : 1;
}
