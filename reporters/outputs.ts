import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './conformance-report.ts';
import { htmlReport } from './html-report.ts';
import { junitXml } from './junit-xml.ts';
import { summaryMarkdown } from './summary-markdown.ts';
import { jsonForFile } from './untrusted-text.ts';
import { markKnownFailures } from './allure-results.ts';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { assembleHar } from '../suites/engine/har.ts';

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

/** What a run (or a recording) leaves beside its report, from which the traced outputs are finished. */
export interface Traces {
  /** The exchanges, one HAR entry per line, as the run appended them (absent: none recorded). */
  harLines?: string;
  /** The Allure results the run's tests wrote (absent: none). */
  allureDir?: string;
  /** The tool's version, for the HAR's creator. */
  creatorVersion: string;
  /** The baseline file whose accepted failures the Allure results mark as known. */
  baselineFile?: string;
}

/**
 * Every output finished from a run's traces rather than rendered from its report: each says
 * whether it wrote its file (an output whose trace is absent writes nothing).
 */
export const TRACED_OUTPUTS: ReadonlyArray<{
  file: string;
  finish: (dir: string, traces: Traces, report: ConformanceReport) => boolean;
}> = [
  {
    file: 'exchanges.har',
    finish: (dir, t) => {
      if (t.harLines === undefined) return false;
      assembleHar(t.harLines, join(dir, 'exchanges.har'), t.creatorVersion);
      return true;
    },
  },
  {
    file: 'allure-results/',
    finish: (_dir, t, report) => {
      if (!t.allureDir || !existsSync(t.allureDir)) return false;
      if (t.baselineFile && report.baseline) markKnownFailures(t.allureDir, report.baseline.accepted, t.baselineFile);
      return true;
    },
  },
];

/**
 * Writes all outputs into `dir`: the ones rendered from the report (comparing with `previous`
 * where an output shows that) and, given a run's `traces`, the ones finished from them; returns
 * the paths written.
 */
export function writeOutputs(
  dir: string,
  report: ConformanceReport,
  previous?: ConformanceReport,
  traces?: Traces,
): string[] {
  mkdirSync(dir, { recursive: true });
  const written = OUTPUTS.map((o) => {
    const file = join(dir, o.file);
    writeOutputFile(file, o.render(report, previous));
    return file;
  });
  if (traces) for (const o of TRACED_OUTPUTS) if (o.finish(dir, traces, report)) written.push(join(dir, o.file));
  return written;
}
