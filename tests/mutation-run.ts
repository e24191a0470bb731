import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { startMutationProxy, type MutationProxyOptions } from './mutation-proxy.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

export interface MutationRunOptions {
  /** One service, or every service when absent. */
  service?: string;
  seed: number;
  /** Share of the answers the proxy spoils. */
  share?: number;
  delayMs?: number;
  rewrite?: MutationProxyOptions['rewrite'];
  hold?: MutationProxyOptions['hold'];
  reset?: MutationProxyOptions['reset'];
  /** The run must end within this long (ms), report written. */
  budgetMs: number;
  /** More `conformance run` arguments. */
  args?: string[];
}

export interface MutationRunResult {
  service: string;
  seed: number;
  code: number | null;
  seconds: number;
  /** The run did not end within its budget (it was killed). */
  overBudget: boolean;
  report?: ConformanceReport;
  schemaErrors: string[];
  /** Errors of the suite's own code: run errors, and failures that are a TypeError and the like. */
  suiteErrors: string[];
  failedRules: number;
  mutations: Record<string, number>;
  output: string;
}

/** What the engine's own code throws when it misreads an answer, as opposed to judging it. */
const SUITE_ERROR =
  /\b(TypeError|ReferenceError|RangeError)\b|Cannot read propert|is not a function|is not iterable|Cannot convert undefined|unhandled/i;

/** The errors of a report that come from the suite's code rather than from the target's answers. */
export function suiteErrorsOf(report: ConformanceReport): string[] {
  return [
    ...report.errors,
    ...report.rules
      .filter((r) => r.failure && SUITE_ERROR.test(`${r.failure.title} ${r.failure.received}`))
      .map((r) => `${r.id}: ${r.failure?.title}: ${r.failure?.received.slice(0, 300)}`),
  ];
}

/**
 * One `conformance run` of a service against the reference behind a mutation proxy: whether
 * it ended within its budget, wrote a schema-valid report, and met no error of its own code.
 */
export async function mutationRun(opts: MutationRunOptions): Promise<MutationRunResult> {
  const dir = tempDir('mutation');
  const ref = await startReference({ port: 0 });
  const proxy = await startMutationProxy({
    upstream: ref.baseUrl,
    seed: opts.seed,
    share: opts.share,
    delayMs: opts.delayMs,
    rewrite: opts.rewrite,
    hold: opts.hold,
    reset: opts.reset,
  });
  try {
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(ref, proxy.url)));
    const reportDir = join(dir, 'report');
    const started = Date.now();
    const res = await runCli(
      [
        'run',
        '--config',
        config,
        ...(opts.service ? ['--service', opts.service] : []),
        '--seed',
        String(opts.seed),
        '--report-dir',
        reportDir,
        ...(opts.args ?? []),
      ],
      { timeoutMs: opts.budgetMs },
    ).catch((e: Error) => ({ code: null, stdout: e.message, stderr: '' }));
    const seconds = (Date.now() - started) / 1000;
    const file = join(reportDir, 'conformance-report.json');
    const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
    return {
      service: opts.service ?? 'all',
      seed: opts.seed,
      code: res.code,
      seconds,
      overBudget: res.code === null,
      report,
      schemaErrors: report ? reportSchemaErrors(report) : ['no report written'],
      suiteErrors: report ? suiteErrorsOf(report) : [],
      failedRules: report?.rules.filter((r) => r.status === 'failed').length ?? 0,
      mutations: { ...proxy.counts },
      output: (res.stdout + res.stderr).slice(-3000),
    };
  } finally {
    await proxy.close();
    await ref.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
