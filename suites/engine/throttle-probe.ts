/**
 * The rules judged on the target's throttle ("Temporary throttling: status 429"): they need a
 * client the target throttles (`principals.throttled`) and a target that throttles it, or
 * throttling met by chance. `doctor` names them; the certificate says whether they were judged.
 * In the catalog's order.
 */
export const THROTTLE_RULES = [
  'technical-token-manager/throttling/too-many-requests',
  'notification/errors/code-too-many-requests',
  'notification/limits/throttling-429',
] as const;

/**
 * How far the throttle probe goes (`--probe-throttling`, on when `principals.throttled` is
 * configured): bursts of `burst` requests at once as the throttled principal, one after another,
 * until the target throttles one, or `maxRequests` requests or `maxMs` have gone. A slow or
 * loaded target serves a burst too slowly to meet its own threshold; the next bursts still can.
 */
export const THROTTLE_PROBE = { burst: 12, maxRequests: 120, maxMs: 30_000 } as const;

export interface ThrottleProbeBounds {
  burst: number;
  maxRequests: number;
  maxMs: number;
}

export interface ThrottleProbeResult<R> {
  /** Every answer of the probe, in the order of its bursts. */
  responses: R[];
  /** Whether the target throttled a request of the probe. */
  met: boolean;
  elapsedMs: number;
}

/**
 * Sends bursts of `send()` until `met()` says the target throttled one, or a bound is reached;
 * `now` is the clock the time bound reads.
 */
export async function probeThrottle<R>(
  send: () => Promise<R>,
  met: () => boolean,
  bounds: ThrottleProbeBounds = THROTTLE_PROBE,
  now: () => number = Date.now,
): Promise<ThrottleProbeResult<R>> {
  const start = now();
  const responses: R[] = [];
  while (!met() && responses.length < bounds.maxRequests && now() - start < bounds.maxMs) {
    const n = Math.min(bounds.burst, bounds.maxRequests - responses.length);
    responses.push(...(await Promise.all(Array.from({ length: n }, send))));
  }
  return { responses, met: met(), elapsedMs: now() - start };
}

/** Why a probe that met no throttle judged nothing: what it sent, and its bounds. */
export function unmetThrottleReason(service: string, probe: ThrottleProbeResult<unknown>): string {
  const s = (probe.elapsedMs / 1000).toFixed(1);
  return `the target throttled no ${service} request: the probe sent ${probe.responses.length} requests as principals.throttled over ${s} s (it stops at ${THROTTLE_PROBE.maxRequests} requests or ${THROTTLE_PROBE.maxMs / 1000} s) and none was throttled (a 429, or an answer with Retry-After)`;
}
