import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './conformance-report.ts';
import { htmlReport } from './html-report.ts';
import { junitXml } from './junit-xml.ts';
import { summaryMarkdown } from './summary-markdown.ts';
import { jsonForFile } from './untrusted-text.ts';
import { writeOutputFile } from '../suites/engine/safe-write.ts';

/** Every file a run writes from its report, one renderer each. */
export const OUTPUTS: ReadonlyArray<{ file: string; render: (r: ConformanceReport) => string }> = [
  { file: 'conformance-report.json', render: (r) => `${jsonForFile(r, 2)}\n` },
  { file: 'report.html', render: htmlReport },
  { file: 'junit.xml', render: junitXml },
  { file: 'summary.md', render: summaryMarkdown },
];

/** Writes all outputs into `dir`; returns their paths. */
export function writeOutputs(dir: string, report: ConformanceReport): string[] {
  mkdirSync(dir, { recursive: true });
  return OUTPUTS.map((o) => {
    const file = join(dir, o.file);
    writeOutputFile(file, o.render(report));
    return file;
  });
}
