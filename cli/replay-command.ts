import { failureBlock, failureBlockLines } from '../reporters/failure-block.ts';
import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { readReportFile } from '../reporters/read-report.ts';
import { runCommand } from './run-command.ts';
import { UsageError } from './usage-error.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';

/** The origin of a URL (as written when it does not parse). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export interface ReplayOptions {
  target?: string;
  config?: string;
}

/** The statuses of a rule a check of it ran for. */
const JUDGED = new Set(['passed', 'observed', 'warning']);

/**
 * What a replay says of a rule that did not fail again: judged and not failed (a warning is a
 * reading that did not hold, not a failure), exit 0; or not judged at all (a principal or fixture
 * missing, nothing to judge), exit 1: a replay that judged nothing does not show the failure gone.
 */
export function notFailing(
  ruleId: string,
  now: { status: string; reason?: string } | undefined,
): { line: string; code: 0 | 1 } {
  const status = `${t(ruleId)} is ${t(now?.status ?? 'not reported')}${now?.reason ? ` (${t(now.reason)})` : ''}`;
  return now && JUDGED.has(now.status)
    ? { line: `no longer fails: ${status}`, code: 0 }
    : { line: `NOT JUDGED: ${status}; the replay could not judge it, so it does not show the failure gone`, code: 1 };
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
  const f = rule.failure;
  // Credentials go only to a target the user named: --target, CONFORMANCE_TARGET, or the target of
  // their own configuration; never to the one a report names (a report is anyone's to hand over).
  const source = loadRunConfig(opts.config, process.env, opts.target);
  if (!report.embeddedReference && !source)
    throw new UsageError(
      `the report is of ${t(report.target)}; give --config with the credentials (or ${CONFIG_ENV}; reports never hold secrets)`,
    );
  let target: string | undefined;
  if (source) {
    target = source.config.target;
    const theirs = originOf(report.target);
    if (!report.embeddedReference && source.targetFrom === 'configuration' && originOf(target) !== theirs)
      throw new UsageError(
        `the report is of ${t(theirs)}, your configuration's target is ${t(originOf(target))}: replay sends your credentials only to a target you name; add --target ${t(originOf(target))} to replay against yours (or --target with the report's, if you mean to send them there)`,
      );
  }
  process.stdout.write(
    `replaying ${t(ruleId)} against ${
      target
        ? `${t(target)} (${source?.targetFrom === 'configuration' ? "your configuration's target" : source?.targetFrom})`
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
          // Without the replay line: it names this replay's own report, gone once it ends.
          ...(now.failure ? failureBlockLines(failureBlock({ ...now.failure, replay: undefined }), '  ', t) : []),
          '',
        ].join('\n'),
      );
      return 1;
    }
    const { line, code } = notFailing(ruleId, now);
    process.stdout.write(`${line}\n`);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
