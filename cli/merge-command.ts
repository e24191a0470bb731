import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readHar } from '../audit/read-har.ts';
import { applyBaseline, BaselineError, readBaseline } from '../reporters/baseline.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { consoleSummary } from '../reporters/console-summary.ts';
import { mergeReports, shardSetProblem } from '../reporters/merge-reports.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { readReportFile } from '../reporters/read-report.ts';
import { jsonForFile } from '../reporters/untrusted-text.ts';
import { harLog, type HarEntry } from '../suites/engine/har.ts';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { toolVersion } from './run-command.ts';
import { UsageError } from './usage-error.ts';

/**
 * The baseline of the merged run: `--baseline FILE`, else the one the shards applied (each
 * report keeps its entries), applied again to the whole so that a rule one shard did not run is
 * neither accepted nor stale there.
 */
function mergedBaseline(reports: ConformanceReport[], file?: string): { file: string; entries: string[] } | undefined {
  if (file) {
    try {
      return { file, entries: readBaseline(file) };
    } catch (e) {
      if (e instanceof BaselineError) throw new UsageError(e.message);
      throw e;
    }
  }
  const applied = reports.map((r) => r.baseline).filter((b) => b !== undefined);
  if (!applied.length) return undefined;
  return { file: applied[0].file, entries: [...new Set(applied.flatMap((b) => b.entries ?? b.accepted))] };
}

/** Every shard's exchanges in one HAR (each shard's file read as untrusted input). */
function mergeHars(folders: string[], out: string): string | undefined {
  const hars = folders.map((d) => join(d, 'exchanges.har')).filter((f) => existsSync(f));
  if (!hars.length) return undefined;
  const entries: HarEntry[] = hars.flatMap((f) => readHar(f).log.entries);
  const file = join(out, 'exchanges.har');
  writeOutputFile(file, `${jsonForFile(harLog(entries, toolVersion(), `merged from ${hars.length} shards`))}\n`);
  return file;
}

/** Every shard's Allure results in one folder (regular files only: a link is not followed). */
function mergeAllure(folders: string[], out: string): string | undefined {
  const sources = folders
    .map((d) => join(d, 'allure-results'))
    .filter((d) => existsSync(d) && statSync(d).isDirectory());
  if (!sources.length) return undefined;
  const target = join(out, 'allure-results');
  mkdirSync(target, { recursive: true });
  for (const dir of sources)
    for (const f of readdirSync(dir))
      if (lstatSync(join(dir, f)).isFile() && !lstatSync(join(target, f), { throwIfNoEntry: false }))
        copyFileSync(join(dir, f), join(target, f));
  return `${target}/`;
}

/** `conformance merge DIR…`: one report (and HAR and Allure results) from the reports of every shard of one run. */
export function mergeCommand(dirs: string[], opts: { reportDir: string; baseline?: string }): number {
  const files = dirs.map((d) =>
    existsSync(join(d, 'conformance-report.json')) ? join(d, 'conformance-report.json') : d,
  );
  const given = files.map((f, i) => {
    const report = readReportFile(f);
    return { source: dirs[i], file: realpathSync(f), report };
  });
  // Only every shard of one run, each once, merges: anything else is refused before a file is written.
  const problem = shardSetProblem(given);
  if (problem)
    throw new UsageError(
      `merge refused, nothing written: ${problem}; merge takes every shard's report of one run, each once`,
    );
  const reports = given.map((g) => g.report);
  const { baseline: _shardBaseline, ...whole } = mergeReports(reports);
  let merged: ConformanceReport = whole;
  const baseline = mergedBaseline(reports, opts.baseline);
  if (baseline) merged = applyBaseline(merged, baseline.file, baseline.entries);
  const out = resolve(opts.reportDir);
  const written = writeOutputs(out, merged);
  const folders = files.map((f) => dirname(f));
  const har = mergeHars(folders, out);
  if (har) written.push(har);
  const allure = mergeAllure(folders, out);
  if (allure) written.push(allure);
  process.stdout.write(consoleSummary(merged, written));
  return merged.verdict === 'passed' ? 0 : 1;
}
