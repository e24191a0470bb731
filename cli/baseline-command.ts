import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readReportFile } from '../reporters/read-report.ts';

/** `conformance baseline REPORT`: the report's failed rules as a baseline file, on stdout. */
export function baselineCommand(path: string, out: NodeJS.WritableStream = process.stdout): number {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'conformance-report.json') : path;
  const report = readReportFile(file);
  const failures = report.rules
    .filter((r) => r.status === 'failed' || report.baseline?.accepted.includes(r.id))
    .map((r) => r.id)
    .sort();
  out.write(`${JSON.stringify({ failures }, null, 2)}\n`);
  return 0;
}
