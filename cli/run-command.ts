import { setFlagsFromString } from 'node:v8';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { checkRegularFile, INPUT_BOUNDS } from '../reporters/untrusted-input.ts';
import { join, resolve } from 'node:path';
import { loadRules } from '../contracts/catalog.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import {
  buildReport,
  gatingFailures,
  replayReportFile,
  type ConformanceReport,
  type RunStop,
} from '../reporters/conformance-report.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { consoleHeadline, consoleSummary, profileText } from '../reporters/console-summary.ts';
import { applyBaseline, readBaseline } from '../reporters/baseline.ts';
import { DEFAULT_MAX_BODY_BYTES, HttpClient, TransportError } from '../suites/engine/http-client.ts';
import { LEFTOVER_AGE_MS } from '../suites/engine/leftovers.ts';
import { redactText } from '../suites/engine/redact.ts';
import { announceStop } from '../suites/engine/run-stop.ts';
import { DEFAULT_CLEANUP_TIMEOUT_MS } from '../suites/engine/ledger.ts';
import { judgedRules } from '../suites/engine/checks/response-checks.ts';
import { ruleSelected } from '../suites/engine/rule-index.ts';
import { loadFilterDialect } from '../suites/engine/filter-dialect.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { CONFIG_ENV, TARGET_ENV, loadRunConfig, namedTarget } from './config-source.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { collectSuites, runSuites } from '../suites/engine/suite-runner.ts';
import { TokenProvider, registerConfigSecrets, tokenRefusal } from '../suites/engine/token-provider.ts';
import { PrincipalUnavailable } from '../suites/engine/unjudged.ts';
import { REFERENCE_THROTTLE, THROTTLED_CLIENTS, referenceRunConfig } from './reference-config.ts';
import { resolveServices } from './rules-command.ts';
import { collectTests, configurationRows, notReadyPieces, unjudgedBy } from './readiness.ts';
import { loadReport } from '../certification/compare-reports.ts';
import { UnreachableError, UsageError } from './usage-error.ts';
import { parseDuration } from './duration.ts';
import { ownHostGuard } from './own-host-guard.ts';
import { toolVersion } from './tool-version.ts';
import { EXIT } from './exit-codes.ts';
import { lockReportDir } from './report-lock.ts';
import type { ConsoleReporter } from '../reporters/console/console-reporter.ts';
import {
  CONSOLE_REPORTERS,
  REPORTER_NAMES,
  defaultReporter,
  type ReporterName,
} from '../reporters/console/reporter-registry.ts';
import { Terminal, colourWanted } from '../reporters/terminal.ts';

export interface RunOptions {
  /** V8 favours size over speed in the suites' worker (created after this is set). */
  lowMemory?: boolean;
  target?: string;
  config?: string;
  service?: string[];
  rule?: string[];
  seed?: string;
  runs?: string;
  reportDir: string;
  rate?: string;
  concurrency?: string;
  timeout?: string;
  maxBody?: string;
  ca?: string;
  insecure?: boolean;
  dryRun?: boolean;
  profile?: string;
  /** The 429 rules' probe as principals.throttled (default: on when it is configured; `--no-probe-throttling` off). */
  probeThrottling?: boolean;
  baseline?: string;
  /** A previous report (directory, JSON or bundle): report.html shows what changed since. */
  compareWith?: string;
  shard?: string;
  /** Warnings (readings of ours that did not hold) fail the run. */
  strict?: boolean;
  /** Most time one cleanup pass may take (a duration). */
  cleanupTimeout?: string;
  jobDeadline?: string;
  /** Most time the whole run may take (a duration). */
  maxTime?: string;
  /** Set by `conformance replay`. */
  replay?: RunContext['replay'];
  /** Print nothing at all (used by replay and selftest). */
  quiet?: boolean;
  /** The console reporter (default: github in GitHub Actions, line on a terminal outside CI, else list). */
  reporter?: string;
}

/**
 * Requests in flight at most, unless `--concurrency` says otherwise: enough to keep a far
 * deployment busy (a full run over 100 ms of latency takes about 43 s at 8, 79 s at 4), few
 * enough for any deployment that serves more than one client.
 */
export const DEFAULT_CONCURRENCY = 8;

export { EXIT };

/** The exit code of a finished run from its report (signals aside). */
export function exitCodeOf(report: ConformanceReport): number {
  if (report.verdict === 'passed') return EXIT.passed;
  const newFailures = report.baseline ? report.baseline.newFailures.length : gatingFailures(report.rules).length;
  if (newFailures || report.errors.length) return EXIT.failed;
  if (report.stopped?.reason === 'target-unresponsive') return EXIT.unresponsive;
  if (report.stopped?.reason === 'timed-out') return EXIT.timedOut;
  if (report.baseline?.stale.length) return EXIT.staleBaseline;
  return EXIT.failed;
}

function num(
  value: string | undefined,
  flag: string,
  opts: { min: number; max?: number; integer?: boolean },
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (
    !Number.isFinite(n) ||
    n < opts.min ||
    (opts.max !== undefined && n > opts.max) ||
    (opts.integer && !Number.isInteger(n))
  ) {
    throw new UsageError(
      `${flag} takes ${opts.integer ? 'a whole number' : 'a number'} from ${opts.min}${opts.max !== undefined ? ` to ${opts.max}` : ''}, not "${value}"`,
    );
  }
  return n;
}

export { toolVersion };

/** Checks that the target answers at all and accepts the configured credentials (exit 3 otherwise). */
async function preflight(config: RunConfig, ctx: RunContext, stop: AbortSignal): Promise<void> {
  const http = new HttpClient({
    stop,
    abortInFlight: true,
    target: config.target,
    timeoutMs: ctx.timeoutMs,
    maxBodyBytes: ctx.maxBodyBytes,
    rate: 0,
    concurrency: 1,
    ca: ctx.ca,
    insecure: ctx.insecure,
    max429Retries: 3,
    maxRetryAfterMs: 10_000,
    readOnly: ctx.profile === 'read-only',
  });
  try {
    await http.send({ method: 'GET', path: '/api/eventmanagement/v3/' });
    if (!config.tokenManager) return;
    const tokens = new TokenProvider(http, config);
    try {
      await tokens.authorization('full');
    } catch (e) {
      // No token for the main application (any answer but a 200 with an access_token): nothing can
      // be judged with it, and a slip (a wrong secret, appName or URL) must not read as the target's failure.
      if (e instanceof PrincipalUnavailable && e.tokenError) {
        throw new UnreachableError(
          `no token for the configured client "${config.tokenManager.clientId}": ${tokenRefusal(e.tokenError)}`,
        );
      }
    }
  } catch (e) {
    // Only a target that cannot be connected to is unreachable; one that answers badly is judged by the rules.
    if (e instanceof TransportError && ['REFUSED', 'DNS', 'TLS'].includes(e.code))
      throw new UnreachableError(`cannot reach ${config.target}: ${e.message}`);
    if (e instanceof TransportError) return;
    throw e;
  } finally {
    await http.close();
  }
}

/**
 * The readiness check `doctor` makes: the tests that need a piece of the configuration it finds
 * missing or failing are not started, and their rules are skipped naming that piece, so that a
 * run skips what `doctor` predicts, and a slip of the configuration never becomes a failure.
 */
async function gateUnready(
  config: RunConfig,
  ctx: RunContext,
  out: { write(s: string): unknown },
  stop: AbortSignal,
): Promise<void> {
  const http = new HttpClient({
    stop,
    abortInFlight: true,
    target: config.target,
    timeoutMs: ctx.timeoutMs,
    maxBodyBytes: ctx.maxBodyBytes,
    rate: ctx.rate,
    // The readiness checks are independent reads: as many in flight as the run allows.
    concurrency: ctx.concurrency,
    ca: ctx.ca,
    insecure: ctx.insecure,
    max429Retries: 3,
    maxRetryAfterMs: 10_000,
    breakAfter: 3,
  });
  try {
    const rows = await configurationRows(config, http);
    ctx.unready = notReadyPieces(rows);
    if (!Object.keys(ctx.unready).length) return;
    // The tests themselves decide from their declared needs (ruleTest); this only counts.
    const unjudged = unjudgedBy(rows, await collectTests(config), config);
    const notReady = rows.filter((r) => r.status === 'missing' || r.status === 'failed');
    out.write(
      `configuration not ready: ${notReady.map((r) => `${r.check} (${r.status})`).join(', ')}; ${unjudged.rules.length} rules will be skipped (npx conformance doctor lists them)\n`,
    );
  } catch (e) {
    // A target that stops answering here is met again by the tests, which say so rule by rule.
    if (!(e instanceof TransportError)) throw e;
  } finally {
    await http.close();
  }
}

/**
 * How what a run could not delete goes later: it carries the run's prefix, and the leftover
 * sweep at the start of any full run deletes prefixed resources once they are an hour old.
 */
function sweepHint(
  context: RunContext,
  configFile: string | undefined,
  configFromEnvironment: boolean,
  startedAt: string,
  outstanding: Array<{ service: string }>,
): string {
  const services = [...new Set(outstanding.map((o) => o.service))];
  const from = new Date(Date.parse(startedAt) + LEFTOVER_AGE_MS).toISOString();
  const config = configFile ? ` --config ${configFile}` : configFromEnvironment ? '' : ' --config run.json';
  // No target: the sweep goes where its reader's --target, CONFORMANCE_TARGET or configuration says.
  return `they carry the prefix ${context.prefix}; the leftover sweep deletes them from ${from} on, at a run of the same services against the same target: npx conformance run${config} --service ${services.join(' ')}`;
}

export { UnreachableError };

/** The durations that always took seconds when bare, at least 1 s. */
const SECONDS = { bare: 's', minMs: 1000 } as const;

/** The console reporter `--reporter` names, or the default for this console. */
function chooseReporter(name: string | undefined): ReporterName {
  if (name === undefined) return defaultReporter(process.stdout);
  if (!(REPORTER_NAMES as readonly string[]).includes(name))
    throw new UsageError(`--reporter takes ${REPORTER_NAMES.join(', ')}, not "${name}"`);
  return name as ReporterName;
}

/** `conformance run`: runs the suites against a deployment and writes the report; returns the exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  const requested = resolveServices(opts.service);
  const ruleGlobs = (opts.rule ?? []).flatMap((r) => r.split(',')).filter(Boolean);
  const selectedRules = loadRules(requested).filter((r) => ruleSelected(r.id, ruleGlobs));
  if (ruleGlobs.length && selectedRules.length === 0)
    throw new UsageError(
      `--rule ${ruleGlobs.join(' ')} selects no rule of ${requested.join(', ')} (a glob over the whole ID, * matching / too: 'notification/*', '*thrott*'; \`conformance rules\` lists the IDs)`,
    );
  // A run loads, readies and sweeps only the services whose rules --rule selects: a one-rule run
  // of the token manager no longer imports and collects the other two services' suites (~0.9 s of CPU).
  const services = requested.filter((s) => selectedRules.some((r) => r.id.startsWith(`${s}/`)));
  const seed =
    num(opts.seed, '--seed', { min: -(2 ** 31), max: 2 ** 31 - 1, integer: true }) ?? randomInt(0, 2 ** 31 - 1);
  if (!['full', 'read-only', 'alternate'].includes(opts.profile ?? 'full'))
    throw new UsageError(`--profile takes full, read-only or alternate, not "${opts.profile}"`);
  // alternate: every rule, against the embedded reference taking the other side of every reading.
  const alternate = opts.profile === 'alternate';
  const profile = (alternate ? 'full' : (opts.profile ?? 'full')) as RunContext['profile'];
  // --target is merged before validation: a configuration from a secret may leave `target` out.
  let config: RunConfig | undefined = alternate
    ? loadRunConfig(opts.config)?.config
    : loadRunConfig(opts.config, process.env, opts.target)?.config;
  if (alternate && (config || opts.target))
    throw new UsageError(
      `--profile alternate runs the embedded reference in its alternate profile; for a deployment of your own use full${config && !opts.config ? ` (${CONFIG_ENV} is set)` : ''}`,
    );
  const named = namedTarget(opts.target);
  if (named && !config && !alternate)
    throw new UsageError(
      `${named.from === '--target' ? '--target' : `${TARGET_ENV} (set in the environment)`} needs --config (or ${CONFIG_ENV}) for the credentials (or run without both to test the embedded reference)`,
    );
  // A dialect module that cannot be loaded is a configuration error (exit 2), not the suites' failure.
  if (config?.filterDialect !== undefined) await loadFilterDialect(config.filterDialect);
  const fromConfig = config?.options ?? {};
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const reportDir = resolve(opts.reportDir);
  const context: RunContext = {
    config: config ?? { target: 'http://127.0.0.1:0' },
    seed,
    runs: num(opts.runs, '--runs', { min: 1, max: 10_000, integer: true }) ?? fromConfig.runs ?? 25,
    timeoutMs: parseDuration(opts.timeout, '--timeout', { bare: 'ms', minMs: 100 }) ?? fromConfig.timeout ?? 10_000,
    maxBodyBytes: num(opts.maxBody, '--max-body', { min: 1024, integer: true }) ?? DEFAULT_MAX_BODY_BYTES,
    rate: num(opts.rate, '--rate', { min: 0 }) ?? fromConfig.rate ?? 0,
    concurrency:
      num(opts.concurrency, '--concurrency', { min: 1, max: 64, integer: true }) ??
      fromConfig.concurrency ??
      DEFAULT_CONCURRENCY,
    ca: opts.ca,
    insecure: !!opts.insecure,
    runId,
    prefix: `cfz${runId}`,
    ruleGlobs,
    profile,
    // The 429 rules' probe goes as principals.throttled whenever it is configured (as certify
    // does), and against the embedded reference, which throttles that client only.
    probeThrottling: opts.probeThrottling ?? (!config || !!config.principals?.throttled),
    services,
    cleanupTimeoutMs: parseDuration(opts.cleanupTimeout, '--cleanup-timeout', SECONDS) ?? DEFAULT_CLEANUP_TIMEOUT_MS,
    jobDeadlineMs: parseDuration(opts.jobDeadline, '--job-deadline', SECONDS),
  };
  const maxTimeMs = parseDuration(opts.maxTime, '--max-time', SECONDS);
  if (opts.ca) checkRegularFile(opts.ca, 'a CA certificate file', INPUT_BOUNDS.certificate);
  if (opts.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(opts.shard);
    if (!m || Number(m[2]) < 1 || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--shard takes i/n with 1 ≤ i ≤ n, not "${opts.shard}"`);
    context.shard = { index: Number(m[1]), total: Number(m[2]) };
  }
  context.replay = opts.replay;
  let baseline: string[] | undefined;
  if (opts.baseline) {
    try {
      baseline = readBaseline(opts.baseline);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const previous = opts.compareWith
    ? await loadReport(opts.compareWith).catch((e: Error) => {
        throw new UsageError(`--compare-with ${e.message}`);
      })
    : undefined;

  const out = opts.quiet ? { write: (_: string) => true } : process.stdout;
  const reporterName: ReporterName = opts.quiet ? 'quiet' : chooseReporter(opts.reporter);
  const terminal = new Terminal(process.stdout, { colour: colourWanted(process.stdout) });
  const reporter: ConsoleReporter = CONSOLE_REPORTERS[reporterName](terminal);
  const headline = !opts.quiet && reporter.headline && !opts.dryRun;
  /** A note of the run (its headline, stopping): one terminal line each, above a status line. */
  const say = (text: string) => {
    if (headline) for (const l of text.split('\n')) terminal.line(l);
  };
  /** A warning: shown by every reporter (on stderr when quiet), never by a silent run. */
  const warn = (text: string) => {
    if (opts.quiet) return;
    if (headline) terminal.line({ style: 'yellow', text });
    else process.stderr.write(`${text}\n`);
  };
  const profileLine = profileText({
    profile: alternate ? 'alternate' : profile,
    strict: !!opts.strict,
    shard: opts.shard,
    baseline: opts.baseline,
  });
  if (opts.dryRun) out.write(`conformance run — seed ${seed} — ${profileLine}\n`);
  else if (!opts.quiet) reporter.onStart?.();
  if (headline)
    terminal.line({ style: 'bold', text: 'conformance run' }, ` — seed ${seed} — `, {
      style: 'cyan',
      text: profileLine,
    });

  if (opts.dryRun) {
    const tests = (await collectSuites(context, services)).filter((t) =>
      judgedRules(t.service, t.rules).some((r) => ruleSelected(r, ruleGlobs)),
    );
    const runnable = tests.filter((t) => profile === 'full' || t.readOnly);
    out.write(
      `dry run: nothing is sent. ${selectedRules.length} rules of ${services.join(', ')}; ${runnable.length} tests would run.\n`,
    );
    for (const s of services) {
      const mine = runnable.filter((t) => t.service === s);
      out.write(`\n${s}: ${mine.length} tests, at most ${mine.reduce((n, t) => n + t.budget, 0)} requests\n`);
      for (const t of mine) out.write(`  - ${t.name}  [${t.rules.join(', ')}]  ≤${t.budget} requests\n`);
    }
    out.write(
      `\nat most ${runnable.reduce((n, t) => n + t.budget, 0)} requests in all (runs per property: ${context.runs})\n`,
    );
    return EXIT.passed;
  }

  let reference: RunningReference | undefined;
  const startedAt = new Date().toISOString();
  const abort = new AbortController();
  let signal: 'SIGINT' | 'SIGTERM' | undefined;
  const onSignal = (sig: 'SIGINT' | 'SIGTERM') => {
    if (signal) return;
    signal = sig;
    say(`${sig}: stopping the run, cleaning up and writing a partial report…`);
    abort.abort();
    announceStop(runId);
  };
  let timedOut = false;
  const maxTimer =
    maxTimeMs === undefined
      ? undefined
      : setTimeout(() => {
          if (abort.signal.aborted) return;
          timedOut = true;
          say(`--max-time ${opts.maxTime} reached: stopping the run, cleaning up and writing the report…`);
          abort.abort();
          announceStop(runId);
        }, maxTimeMs);
  let unlock: (() => void) | undefined;
  const sigint = () => onSignal('SIGINT');
  const sigterm = () => onSignal('SIGTERM');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);
  try {
    if (!config) {
      // The embedded reference throttles only the seed's `throttled` application (8 requests a
      // second), which the 429 rules' bounded burst uses; the rest of the run is not throttled.
      reference = await startReference({
        host: '127.0.0.1',
        port: 0,
        throttle: REFERENCE_THROTTLE,
        throttledClients: THROTTLED_CLIENTS,
        alternate,
        // Reached by the run's own requests only, at its loopback address.
        refuse: ownHostGuard({ listenHost: '127.0.0.1' }),
      });
      config = referenceRunConfig(reference, reference.baseUrl);
      context.config = config;
      say(
        `target: embedded reference deployment${alternate ? ' (alternate profile: the other side of every reading)' : ''} at ${reference.baseUrl}`,
      );
    } else {
      say(`target: ${config.target}`);
      const url = new URL(config.target);
      if (url.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname)) {
        warn(
          `warning: ${config.target} is plain HTTP and not on loopback; the documents say HTTPS only, and credentials will cross the network unencrypted`,
        );
      }
    }
    registerConfigSecrets(config);
    await preflight(config, context, abort.signal);
    // The readiness checks go on while vitest starts; the tests start once they are done.
    const ready = reference || abort.signal.aborted ? undefined : gateUnready(config, context, out, abort.signal);
    ready?.catch(() => {});
    mkdirSync(reportDir, { recursive: true });
    // A second run writing into the same folder would mix its results into this one's.
    unlock = lockReportDir(reportDir);
    context.ledgerFile = join(reportDir, 'ledger.jsonl');
    rmSync(context.ledgerFile, { force: true });
    rmSync(join(reportDir, 'allure-results'), { recursive: true, force: true });
    context.allureDir = join(reportDir, 'allure-results');
    context.harFile = join(reportDir, 'exchanges.har.jsonl');
    rmSync(context.harFile, { force: true });
    say(
      `services: ${services.join(', ')}; rules: ${selectedRules.length}; runs per property: ${context.runs}; concurrency ${context.concurrency}${context.rate ? `; rate ${context.rate}/s` : ''}`,
    );

    // `--low-memory`: set before the suites' worker exists, so that its heap is sized for it too
    // (peak RSS of a full run about 510 → 370 MiB for about a third more CPU; docs/performance.md).
    if (opts.lowMemory) setFlagsFromString('--optimize-for-size');
    const testsStarted = Date.now();
    let result;
    try {
      result = await runSuites(context, services, {
        signal: abort.signal,
        ready,
        reporters: [new (await import('../reporters/allure-vitest-reporter.ts')).AllureReporter(context.allureDir)],
        onProgress: (e) => {
          if (!opts.quiet)
            reporter.onTest({ ...e, elapsedMs: Date.now() - testsStarted, stopping: abort.signal.aborted });
        },
      });
    } finally {
      if (!opts.quiet) reporter.onTestsEnd();
    }
    const state = result.state;
    const stopped: RunStop | undefined = timedOut
      ? { reason: 'timed-out', detail: `the run reached --max-time ${opts.maxTime}` }
      : state?.unresponsiveSince !== undefined
        ? {
            reason: 'target-unresponsive',
            detail: `target unresponsive since ${new Date(state.unresponsiveSince).toISOString()}`,
          }
        : undefined;
    const cleanup = state?.cleanup && {
      ...state.cleanup,
      ...(state.cleanup.outstanding.length
        ? { sweep: sweepHint(context, opts.config, !opts.config && !reference, startedAt, state.cleanup.outstanding) }
        : {}),
    };
    let report = buildReport(selectedRules, result.tests, {
      toolVersion: toolVersion(),
      target: config.target,
      embedded: !!reference,
      startedAt,
      finishedAt: new Date().toISOString(),
      seed,
      options: {
        services,
        rules: ruleGlobs,
        runs: context.runs,
        rate: context.rate,
        concurrency: context.concurrency,
        timeoutMs: context.timeoutMs,
        cleanupTimeoutMs: context.cleanupTimeoutMs,
        ...(context.jobDeadlineMs !== undefined ? { jobDeadlineMs: context.jobDeadlineMs } : {}),
        ...(maxTimeMs !== undefined ? { maxTimeMs } : {}),
        profile: alternate ? 'alternate' : profile,
        insecure: context.insecure,
        ...(context.probeThrottling ? { probeThrottling: true } : {}),
        ...(opts.strict ? { strict: true } : {}),
      },
      interrupted: result.interrupted || abort.signal.aborted || !!stopped,
      stopped,
      http: state?.http,
      cleanup,
      errors: result.unhandledErrors.map(redactText),
      services,
      strict: !!opts.strict,
      reportFile: replayReportFile(opts.reportDir),
      ...(opts.config ? { configFile: opts.config } : config && !reference ? { configFromEnvironment: true } : {}),
    });
    if (context.shard) report.shard = `${context.shard.index}/${context.shard.total}`;
    if (baseline && opts.baseline) report = applyBaseline(report, opts.baseline, baseline);
    const files = writeOutputs(reportDir, report, previous, {
      harLines: context.harFile,
      allureDir: context.allureDir,
      creatorVersion: toolVersion(),
      ...(opts.baseline ? { baselineFile: opts.baseline } : {}),
    });
    if (!opts.quiet) {
      const head = consoleHeadline(report);
      terminal.line();
      terminal.line({ style: ['bold', report.verdict === 'passed' ? 'green' : 'red'], text: head });
      out.write(consoleSummary(report, files, { headline: false }));
    }
    const code = signal ? (signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm) : exitCodeOf(report);
    if (!opts.quiet) reporter.onReport?.(report, code);
    return code;
  } finally {
    if (!opts.quiet) reporter.onEnd?.();
    unlock?.();
    clearTimeout(maxTimer);
    process.off('SIGINT', sigint);
    process.off('SIGTERM', sigterm);
    await reference?.close();
  }
}
