import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { consoleSummary } from '../reporters/console-summary.ts';
import { mergeReports } from '../reporters/merge-reports.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { UsageError } from './usage-error.ts';

/** `conformance merge DIR…`: one report from the reports of several shards. */
export function mergeCommand(dirs: string[], opts: { reportDir: string }): number {
  const reports = dirs.map((d) => {
    const file = existsSync(join(d, 'conformance-report.json')) ? join(d, 'conformance-report.json') : d;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
    } catch (e) {
      throw new UsageError(`cannot read a conformance report from ${d}: ${(e as Error).message}`);
    }
  });
  const merged = mergeReports(reports);
  const files = writeOutputs(resolve(opts.reportDir), merged);
  process.stdout.write(consoleSummary(merged, files));
  return merged.verdict === 'passed' ? 0 : 1;
}
