import type { ConformanceReport } from './conformance-report.ts';
import { reportSchemaErrors } from './report-schema.ts';
import { INPUT_BOUNDS, parseUntrustedJson, readBoundedFile, UntrustedInputError } from './untrusted-input.ts';

/** A report's JSON text checked against the report schema (and its rule IDs unique) before anything reads it. */
export function parseReport(text: string, source: string): ConformanceReport {
  const value = parseUntrustedJson(text, source, 'a conformance report');
  const errors = reportSchemaErrors(value);
  if (errors.length)
    throw new UntrustedInputError(
      'not-valid',
      `${source}: not a conformance report of this tool: ${errors.slice(0, 3).join('; ')}`,
    );
  const report = value as ConformanceReport;
  const seen = new Set<string>();
  for (const r of report.rules) {
    if (seen.has(r.id)) throw new UntrustedInputError('not-valid', `${source}: rule ${r.id} is listed twice`);
    seen.add(r.id);
  }
  return report;
}

/** A `conformance-report.json` someone handed over, read within the size bound and checked. */
export function readReportFile(file: string): ConformanceReport {
  return parseReport(readBoundedFile(file, 'a conformance report', INPUT_BOUNDS.report).toString('utf8'), file);
}
