import { AsyncLocalStorage } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * A run stopping early (SIGINT, SIGTERM, `--max-time`): the command line announces it, and the
 * suites' worker, which runs in another thread, hears it. From then on no wait is kept (a 429's
 * `Retry-After`, a back-off), the tests' requests are no longer sent, and only the cleanup of what
 * the run created goes on, within a short budget, so that the run ends with a report inside the
 * grace period a scheduler gives (Kubernetes: 30 s).
 */

const CHANNEL = 'platform-conformance:stop';

/** How long the cleanup may go on once a run is stopping. */
export const STOP_CLEANUP_MS = 10_000;

/** Tells the suites' worker of run `runId` that the run is stopping. */
export function announceStop(runId: string): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ stop: runId });
  channel.close();
}

const signals = new Map<string, AbortController>();
let listening: BroadcastChannel | undefined;

/** The signal that aborts when run `runId` is announced to be stopping. */
export function stopSignalOf(runId: string): AbortSignal {
  if (!listening) {
    listening = new BroadcastChannel(CHANNEL);
    listening.onmessage = (e) => {
      const id = (e as { data?: { stop?: unknown } }).data?.stop;
      if (typeof id === 'string') controllerOf(id).abort();
    };
    // Listening must not keep a worker alive.
    (listening as unknown as { unref?: () => void }).unref?.();
  }
  return controllerOf(runId).signal;
}

function controllerOf(runId: string): AbortController {
  let c = signals.get(runId);
  if (!c) {
    signals.set(runId, (c = new AbortController()));
    // Every wait of the run listens on it (a request waiting out a 429's Retry-After, a poll):
    // many at once is the design, not a leak.
    setMaxListeners(0, c.signal);
  }
  return c;
}

const cleaning = new AsyncLocalStorage<true>();

/** Runs `fn` as cleanup: its requests are still sent while the run stops. */
export function asCleanup<T>(fn: () => Promise<T>): Promise<T> {
  return cleaning.run(true, fn);
}

/** Whether the caller runs as cleanup (`asCleanup`). */
export function inCleanup(): boolean {
  return cleaning.getStore() === true;
}

/** A sleep that ends early when `signal` aborts. */
export function sleepUnless(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
