import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { parseReport, readReportFile } from '../reporters/read-report.ts';
import { UntrustedInputError } from '../reporters/untrusted-input.ts';
import { REPORT_FILE } from './manifest.ts';
import { readBundle } from './read-bundle.ts';

export { compareReports, type Comparison, type RuleChange } from '../reporters/rule-changes.ts';

/** A report from a `conformance-report.json`, a report directory, a bundle directory or a bundle `.tar.gz`. */
export async function loadReport(path: string): Promise<ConformanceReport> {
  if (!existsSync(path)) throw new UntrustedInputError('unreadable', `${path}: no such file or directory`);
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, REPORT_FILE)))
      throw new UntrustedInputError('unreadable', `${path}: holds no ${REPORT_FILE}`);
    return readReportFile(join(path, REPORT_FILE));
  }
  if (/\.(tar\.gz|tgz)$/.test(path)) {
    let files: Map<string, Buffer>;
    try {
      files = await readBundle(path);
    } catch (e) {
      throw new UntrustedInputError('not-valid', (e as Error).message);
    }
    const b = files.get(REPORT_FILE);
    if (!b) throw new UntrustedInputError('unreadable', `${path}: the bundle holds no ${REPORT_FILE}`);
    return parseReport(b.toString('utf8'), `${path}:${REPORT_FILE}`);
  }
  return readReportFile(path);
}
