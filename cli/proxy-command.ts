import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { auditReport } from '../audit/judge-har.ts';
import { startProxy } from '../audit/proxy.ts';
import { SERVICES, isServiceName, type ServiceName } from '../contracts/services.ts';
import { consoleSummary } from '../reporters/console-summary.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { ownHostGuard } from './own-host-guard.ts';
import { toolVersion } from './tool-version.ts';
import { targetRootProblem } from '../suites/engine/run-config.ts';
import { UsageError } from './usage-error.ts';

/**
 * `conformance proxy --target URL`: forwards traffic to the target, records it, prints a line per
 * rule as soon as an exchange makes it fail, and writes the HAR and the report on SIGINT/SIGTERM.
 */
export async function proxyCommand(opts: {
  target: string;
  listen: string;
  host: string;
  allowHost?: string[];
  allowOrigin?: string[];
  service?: string[];
  reportDir: string;
}): Promise<number> {
  let target: URL;
  try {
    target = new URL(opts.target);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`--target ${opts.target}: not an http(s) URL`);
  }
  const notRoot = targetRootProblem(opts.target);
  if (notRoot) throw new UsageError(`--target ${notRoot}`);
  const port = Number(opts.listen);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--listen takes a port from 0 to 65535, not "${opts.listen}"`);
  for (const s of opts.service ?? []) if (!isServiceName(s)) throw new UsageError(`--service ${s}: no such service`);
  const services = (opts.service ?? [...SERVICES]) as ServiceName[];
  // A page in the user's browser must not reach the target through the proxy, nor write the HAR
  // the verdict is judged from: only requests addressed to the proxy itself, from no other site.
  const refuse = ownHostGuard({
    listenHost: opts.host,
    allowHosts: opts.allowHost,
    allowOrigins: opts.allowOrigin,
    report: (line) => process.stderr.write(`conformance proxy: ${line}\n`),
  });
  const reportDir = resolve(opts.reportDir);
  mkdirSync(reportDir, { recursive: true });
  const linesFile = join(reportDir, 'exchanges.har.jsonl');
  rmSync(linesFile, { force: true });
  const startedAt = new Date().toISOString();
  const proxy = await startProxy({
    target: target.toString(),
    host: opts.host,
    port,
    services,
    linesFile,
    refuse,
    onFailure: (f) =>
      process.stdout.write(`FAIL ${t(f.rule)}: ${t(f.verdict.title)} — expected ${t(f.verdict.expected)}\n`),
  });
  process.stdout.write(`conformance proxy: ${proxy.url} → ${target.origin}${target.pathname.replace(/\/$/, '')}\n`);
  process.stdout.write('recording and judging; stop with Ctrl-C (SIGINT) or SIGTERM to write the report\n');
  const signal = await new Promise<NodeJS.Signals>((r) => {
    process.once('SIGINT', () => r('SIGINT'));
    process.once('SIGTERM', () => r('SIGTERM'));
  });
  await proxy.close();
  const harFile = join(reportDir, 'exchanges.har');
  const { report, coverage } = auditReport(
    { outcomes: proxy.judge.outcomes(), exchanges: proxy.judge.exchanges },
    {
      services,
      target: target.origin,
      startedAt,
      toolVersion: toolVersion(),
      reportFile: `${opts.reportDir}/conformance-report.json`,
      sources: [harFile],
    },
  );
  const files = writeOutputs(reportDir, report, undefined, { harLines: linesFile, creatorVersion: toolVersion() });
  process.stdout.write(
    `\n${signal}: ${proxy.count()} exchanges recorded; ${coverage.judged} of the ${coverage.passiveRules} passively judgeable rules (of ${coverage.catalogRules} in the catalog) judged\n`,
  );
  process.stdout.write(consoleSummary(report, files));
  return report.verdict === 'passed' ? 0 : 1;
}
