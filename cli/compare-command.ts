import { compareMarkdown } from '../certification/compare-markdown.ts';
import { compareReports, loadReport } from '../certification/compare-reports.ts';
import { UsageError } from './usage-error.ts';

/** `conformance compare OLD NEW`: what changed between two reports or bundles; 1 when a rule newly fails. */
export async function compareCommand(oldPath: string, newPath: string, opts: { json?: boolean }): Promise<number> {
  const load = async (p: string) => {
    try {
      return await loadReport(p);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  };
  const before = await load(oldPath);
  const after = await load(newPath);
  const c = compareReports(before, after);
  process.stdout.write(opts.json ? `${JSON.stringify(c, null, 2)}\n` : compareMarkdown(before, after, c));
  return c.newlyFailed.length ? 1 : 0;
}
