import { failureBlock, failureBlockLines } from '../reporters/failure-block.ts';
import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { readReportFile } from '../reporters/read-report.ts';
import { runCommand } from './run-command.ts';
import { UsageError } from './usage-error.ts';

export interface ReplayOptions {
  target?: string;
  config?: string;
}

/**
 * `conformance replay REPORT RULE-ID`: re-runs the failing case of a rule — the property with
 * its recorded seed and shrink path, or the test with the run's seed — and says whether the
 * rule still fails (exit 1) or now holds (exit 0).
 */
export async function replayCommand(reportFile: string, ruleId: string, opts: ReplayOptions): Promise<number> {
  const report = readReportFile(reportFile);
  const rule = report.rules.find((r) => r.id === ruleId);
  if (!rule) throw new UsageError(`${reportFile} has no rule ${t(ruleId)}`);
  if (rule.status !== 'failed')
    process.stdout.write(
      `note: ${t(ruleId)} did not fail in that run (it was ${t(rule.status)}); replaying its tests anyway\n`,
    );
  if (!report.embeddedReference && !opts.config) {
    throw new UsageError(
      `the report is of ${t(report.target)}; give --config with the credentials (reports never hold secrets)`,
    );
  }
  const f = rule.failure;
  // The report's own target unless --target says otherwise; the config gives credentials only.
  const target = opts.target ?? (report.embeddedReference ? undefined : report.target);
  process.stdout.write(
    `replaying ${t(ruleId)} against ${
      target
        ? `${t(target)} (${opts.target ? '--target' : "the report's target"})`
        : 'a fresh embedded reference deployment (the report was of one)'
    }\n`,
  );
  if (f?.seed !== undefined) process.stdout.write(`  property seed ${t(f.seed)}, path ${t(f.path ?? '(none)')}\n`);
  if (f?.curl) process.stdout.write(`  recorded request: ${t(f.curl)}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-replay-'));
  try {
    const options = report.options as { runs?: number; timeoutMs?: number };
    await runCommand({
      config: opts.config,
      target,
      service: [rule.service],
      rule: [ruleId],
      seed: String(report.seed),
      runs: options.runs ? String(options.runs) : undefined,
      timeout: options.timeoutMs ? String(options.timeoutMs) : undefined,
      reportDir: dir,
      replay: f?.seed !== undefined ? { rule: ruleId, seed: f.seed, path: f.path } : undefined,
      quiet: true,
    });
    const again = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const now = again.rules.find((r) => r.id === ruleId);
    if (now?.status === 'failed') {
      process.stdout.write(
        [
          `STILL FAILS: ${t(ruleId)}`,
          ...(now.failure ? failureBlockLines(failureBlock(now.failure), '  ', t) : []),
          '',
        ].join('\n'),
      );
      return 1;
    }
    process.stdout.write(
      `no longer fails: ${t(ruleId)} is ${t(now?.status ?? 'not reported')}${now?.reason ? ` (${t(now.reason)})` : ''}\n`,
    );
    return now?.status === 'passed' || now?.status === 'observed' ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
