import { inject } from 'vitest';
import { loadFilterDialect, type FilterDialect } from './filter-dialect.ts';
import type { DialectVerdict } from './filter-dialect-probe.ts';
import { HarRecorder } from './har.ts';
import { HttpClient } from './http-client.ts';
import { DEFAULT_CLEANUP_TIMEOUT_MS, ResourceLedger } from './ledger.ts';
import { stopSignalOf } from './run-stop.ts';
import type { RunContext } from './run-context.ts';
import { TokenProvider } from './token-provider.ts';

/** Longest wait a `Retry-After` imposes on one request (it is obeyed five times at most). */
export const MAX_RETRY_AFTER_MS = 10_000;

/** The per-worker objects of a run: one HTTP client, one token provider, one ledger. */
export interface Session {
  context: RunContext;
  http: HttpClient;
  tokens: TokenProvider;
  ledger: ResourceLedger;
  /** The run's leftover sweep (once per run, before the first test; `worker-setup.ts`). */
  leftoverSweep?: Promise<number>;
  /** How the deployment spells filters and sorts (the configuration's `filterDialect`). */
  filterDialect: Promise<FilterDialect>;
  /** Whether the deployment understands that dialect: probed once, before the first filtered request. */
  dialectVerdict?: Promise<DialectVerdict>;
}

let current: Session | undefined;
const harRecorders: HarRecorder[] = [];

/** Writes out the exchanges the sessions' HAR recorders still hold. */
export function flushHar(): void {
  for (const r of harRecorders) r.flush();
}

/** The session of this run, built once per worker from the injected run context. */
export function session(): Session {
  if (current) return current;
  const context = inject('runContext');
  if (!context) throw new Error('no run context: the suites run through `conformance run`');
  current = newSession(context);
  return current;
}

/**
 * Replaces the session with one for `context`, closing the previous one's connections: the
 * self-test runs many variants, each against its own deployment, in one worker.
 */
export async function replaceSession(context: RunContext): Promise<Session> {
  const previous = current;
  current = newSession(context);
  await previous?.http.close();
  return current;
}

function newSession(context: RunContext): Session {
  const http = new HttpClient({
    target: context.config.target,
    timeoutMs: context.timeoutMs,
    maxBodyBytes: context.maxBodyBytes,
    rate: context.rate,
    concurrency: context.concurrency,
    ca: context.ca,
    insecure: context.insecure,
    max429Retries: 5, // not a contract bound: retries of a 429
    maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    breakAfter: 8,
    readOnly: context.profile === 'read-only',
    stop: stopSignalOf(context.runId),
  });
  if (context.harFile) {
    const har = new HarRecorder(context.harFile);
    http.recorder = (e) => har.record(e);
    harRecorders.push(har);
  }
  const filterDialect = loadFilterDialect(context.config.filterDialect);
  // The command line loaded it once already; a failure here surfaces where it is awaited.
  filterDialect.catch(() => {});
  return {
    context,
    http,
    filterDialect,
    tokens: new TokenProvider(http, context.config),
    ledger: new ResourceLedger(
      context.ledgerFile,
      context.cleanupTimeoutMs ?? DEFAULT_CLEANUP_TIMEOUT_MS,
      stopSignalOf(context.runId),
    ),
  };
}
