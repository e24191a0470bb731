import { compareMarkdown } from '../certification/compare-markdown.ts';
import { compareReports, loadReport } from '../certification/compare-reports.ts';
import { UsageError } from './usage-error.ts';

/** `conformance compare OLD NEW`: what changed between two reports or bundles; 1 when a rule newly fails. */
export function compareCommand(oldPath: string, newPath: string, opts: { json?: boolean }): number {
  const load = (p: string) => {
    try {
      return loadReport(p);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  };
  const before = load(oldPath);
  const after = load(newPath);
  const c = compareReports(before, after);
  process.stdout.write(opts.json ? `${JSON.stringify(c, null, 2)}\n` : compareMarkdown(before, after, c));
  return c.newlyFailed.length ? 1 : 0;
}
