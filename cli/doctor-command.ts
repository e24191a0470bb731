import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { checkRegularFile, INPUT_BOUNDS } from '../reporters/untrusted-input.ts';
import { SERVICE_INFO } from '../contracts/services.ts';
import { HttpClient, TransportError, type HttpResponse } from '../suites/engine/http-client.ts';
import { loadFilterDialect } from '../suites/engine/filter-dialect.ts';
import { probeDialect } from '../suites/engine/filter-dialect-probe.ts';
import { describeKey, type RunConfig } from '../suites/engine/run-config.ts';
import { TokenProvider } from '../suites/engine/token-provider.ts';
import { THROTTLE_PROBE, THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';
import { collectTests, configurationRows, unjudgedBy, unusedFixtureKeys, type Row } from './readiness.ts';
import { parseDuration } from './duration.ts';
import { UsageError } from './usage-error.ts';

/** Largest difference between the target's Date header and this machine's clock that judges nothing wrongly. */
export const MAX_CLOCK_SKEW_S = 10;

export interface DoctorOptions {
  config?: string;
  target?: string;
  ca?: string;
  insecure?: boolean;
  timeout?: string;
}

/** Exit codes of `conformance doctor`. */
export const DOCTOR_EXIT = { ready: 0, notReady: 1, usage: 2, unreachable: 3 } as const;

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/**
 * What the 429 rules need besides a configuration doctor can check: a client the target throttles
 * (`principals.throttled`), and a target that throttles it; doctor sends no burst to find out.
 */
function throttleNote(configured: boolean): string {
  const { burst, maxRequests, maxMs } = THROTTLE_PROBE;
  const how = configured
    ? `a run sends principals.throttled bursts of ${burst} requests until the target answers one 429 (at most ${maxRequests} requests or ${maxMs / 1000} s per service), and skips them when it never does`
    : 'configure principals.throttled, a client the target throttles: without it they are judged only if the target happens to throttle the run, and skipped otherwise';
  return `\nThe ${THROTTLE_RULES.length} 429 rules need a target that throttles principals.throttled (doctor sends no burst to find out): ${how}.\n${THROTTLE_RULES.map((id) => `  ${id}\n`).join('')}`;
}

/** `conformance doctor`: checks a configuration against its target without running the suites. */
export async function doctorCommand(opts: DoctorOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  // --target is merged before validation, as `run` does: a configuration kept in a secret may leave target out.
  const source = loadRunConfig(opts.config, process.env, opts.target);
  if (!source) throw new UsageError(`doctor needs --config FILE (or ${CONFIG_ENV} holding the configuration)`);
  const config: RunConfig = source.config;
  if (opts.ca) checkRegularFile(opts.ca, 'a CA certificate file', INPUT_BOUNDS.certificate);
  const dialect = await loadFilterDialect(config.filterDialect);
  const timeoutMs =
    parseDuration(opts.timeout, '--timeout', { bare: 'ms', minMs: 100 }) ?? config.options?.timeout ?? 10_000;

  const rows: Row[] = [];
  const http = new HttpClient({
    target: config.target,
    timeoutMs,
    maxBodyBytes: 8 * 1024 * 1024,
    rate: 0,
    concurrency: 4,
    ca: opts.ca,
    insecure: !!opts.insecure,
    max429Retries: 3,
    maxRetryAfterMs: 10_000,
    breakAfter: 3,
  });
  try {
    out.write(`conformance doctor — ${t(config.target)}\n\n`);
    // Reachable: any HTTP answer will do; what it says is for the rules to judge.
    let first: HttpResponse;
    try {
      first = await http.send({ method: 'GET', path: `${SERVICE_INFO['event-management'].basePath}/` });
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      out.write(`${pad('reachable', 34)}failed    ${t(e.code)}: ${t(e.message)}\n`);
      out.write(`\nThe target cannot be reached: nothing else can be checked.\n`);
      return DOCTOR_EXIT.unreachable;
    }
    rows.push({
      check: 'reachable',
      status: 'ready',
      detail: `GET / of event management answered HTTP ${first.status}`,
    });

    const https = config.target.startsWith('https:');
    rows.push({
      check: 'TLS',
      status: https ? 'ready' : 'n/a',
      detail: https
        ? opts.insecure
          ? 'handshake made; the certificate was not verified (--insecure)'
          : `the certificate was verified${opts.ca ? ` against ${opts.ca}` : ''}`
        : 'plain HTTP target: no TLS to check',
    });

    const date = first.headers.date ? Date.parse(first.headers.date) : NaN;
    if (Number.isNaN(date)) {
      rows.push({ check: 'clock skew', status: 'n/a', detail: 'the answer has no Date header to compare with' });
    } else {
      const skew = Math.round((date - Date.now()) / 1000);
      rows.push({
        check: 'clock skew',
        status: Math.abs(skew) <= MAX_CLOCK_SKEW_S ? 'ready' : 'failed',
        detail: `the target's Date header is ${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} this machine's clock (at most ${MAX_CLOCK_SKEW_S} s judges token times rightly)`,
      });
    }

    rows.push(...(await configurationRows(config, http)));

    // The filter dialect: one equality, one IN, one timestamp range and one sort on GET /events.
    if (!rows.some((r) => r.stopsRun)) {
      const entityIds = (config.fixtures?.eventManagement as { entityIds?: unknown } | undefined)?.entityIds;
      try {
        const authorization = await new TokenProvider(http, config).authorization('full');
        const verdict = await probeDialect(
          dialect,
          (query) =>
            http.send({
              method: 'GET',
              path: `${SERVICE_INFO['event-management'].basePath}/events`,
              query,
              headers: { authorization },
            }),
          Array.isArray(entityIds) && typeof entityIds[0] === 'string' ? entityIds[0] : undefined,
        );
        rows.push({
          check: 'filterDialect',
          status: verdict.understood ? 'ready' : 'failed',
          detail: verdict.summary,
        });
      } catch (e) {
        rows.push({
          check: 'filterDialect',
          status: 'failed',
          detail: `GET /events could not be probed: ${(e as Error).message}`,
        });
      }
    }

    // The same computation a run makes to decide which tests not to start (cli/readiness.ts); a
    // piece some test needs that no row names yet is added to the table as missing.
    const tests = await collectTests(config);
    const unjudged = unjudgedBy(rows, tests, config);
    const width = Math.max(...rows.map((r) => r.check.length)) + 2;
    out.write(`${pad('check', width)}${pad('status', 10)}detail\n`);
    for (const r of rows) out.write(`${pad(r.check, width)}${pad(r.status, 10)}${t(r.detail)}\n`);
    const unused = unusedFixtureKeys(config, tests);
    if (unused.length)
      out.write(`\nConfigured, but no selected rule uses (${unused.length}): ${unused.map((k) => t(k)).join(', ')}\n`);

    const notReady = rows.filter((r) => r.status === 'missing' || r.status === 'failed');
    const throttled = !!config.principals?.throttled;
    if (!notReady.length) {
      out.write(
        throttled
          ? `\nEverything is ready: no rule will be skipped for want of configuration.\n`
          : `\nEverything is ready but principals.throttled (below).\n`,
      );
      out.write(throttleNote(throttled));
      return DOCTOR_EXIT.ready;
    }
    out.write(throttleNote(throttled));
    out.write(`\nNot ready (${notReady.length}), and the rules each will leave unjudged:\n`);
    for (const r of notReady) {
      const rules = r.stopsRun
        ? ['every rule: the run stops at its start (exit 3)']
        : (unjudged.byRow.find((x) => x.row === r)?.rules ?? []);
      // A refused dialect skips a test when it sends a filter the deployment refused, as it meets it.
      const none =
        r.check === 'filterDialect'
          ? 'the tests that write a refused operator are skipped when they send it (not listed here)'
          : 'no rule left unjudged by it alone';
      out.write(
        `\n  ${r.check} (${r.status}): ${rules.length ? `${rules.length} rule${rules.length === 1 ? '' : 's'}` : none}\n`,
      );
      // What the piece is, in the words of the configuration's schema (run-config.schema.json).
      const what = describeKey(r.key ?? r.check);
      if (what) out.write(`    what it is: ${what}\n`);
      for (const id of rules) out.write(`    ${id}\n`);
    }
    if (!notReady.some((r) => r.stopsRun)) {
      out.write(
        `\nA run will skip ${unjudged.rules.length} rule${unjudged.rules.length === 1 ? '' : 's'} for want of configuration:\n`,
      );
      for (const id of unjudged.rules) out.write(`  ${id}\n`);
    }
    return DOCTOR_EXIT.notReady;
  } finally {
    await http.close();
  }
}
