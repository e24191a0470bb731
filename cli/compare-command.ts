import { compareMarkdown } from '../certification/compare-markdown.ts';
import { compareReports, loadReport } from '../certification/compare-reports.ts';

/** `conformance compare OLD NEW`: what changed between two reports or bundles; 1 when the gate fails (`Comparison.gate`). */
export async function compareCommand(oldPath: string, newPath: string, opts: { json?: boolean }): Promise<number> {
  // A report or bundle that cannot be read, or does not fit, is refused with one line (exit 2).
  const before = await loadReport(oldPath);
  const after = await loadReport(newPath);
  const c = compareReports(before, after);
  process.stdout.write(opts.json ? `${JSON.stringify(c, null, 2)}\n` : compareMarkdown(before, after, c));
  return c.gate.passed ? 0 : 1;
}
