import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './conformance-report.ts';
import { htmlReport } from './html-report.ts';
import { junitXml } from './junit-xml.ts';
import { summaryMarkdown } from './summary-markdown.ts';
import { jsonForFile } from './untrusted-text.ts';
import { writeOutputFile } from '../suites/engine/safe-write.ts';

/** Every file a run writes from its report, one renderer each (report.html also from a previous report, when given). */
export const OUTPUTS: ReadonlyArray<{
  file: string;
  render: (r: ConformanceReport, previous?: ConformanceReport) => string;
}> = [
  { file: 'conformance-report.json', render: (r) => `${jsonForFile(r, 2)}\n` },
  { file: 'report.html', render: (r, previous) => htmlReport(r, previous) },
  { file: 'junit.xml', render: junitXml },
  { file: 'summary.md', render: (r) => summaryMarkdown(r) },
];

/** Writes all outputs into `dir`, comparing with `previous` where an output shows that; returns their paths. */
export function writeOutputs(dir: string, report: ConformanceReport, previous?: ConformanceReport): string[] {
  mkdirSync(dir, { recursive: true });
  return OUTPUTS.map((o) => {
    const file = join(dir, o.file);
    writeOutputFile(file, o.render(report, previous));
    return file;
  });
}
