import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { probeThrottle, THROTTLE_PROBE, THROTTLE_RULES, unmetThrottleReason } from './throttle-probe.ts';

/** A target that throttles the `throttleAt`-th request and after (never, when undefined), on a clock of its own. */
function target(throttleAt?: number, msPerRequest = 10) {
  let sent = 0;
  let clock = 0;
  return {
    send: async () => {
      sent++;
      clock += msPerRequest;
      return sent;
    },
    met: () => throttleAt !== undefined && sent >= throttleAt,
    now: () => clock,
    sent: () => sent,
  };
}

describe('the throttle probe', () => {
  it('sends bursts until the target throttles one, and no more', async () => {
    const t = target(30);
    const probe = await probeThrottle(t.send, t.met, THROTTLE_PROBE, t.now);
    expect(probe.met).toBe(true);
    // A loaded target met its threshold only in the third burst: one burst would have judged nothing.
    expect(t.sent()).toBe(3 * THROTTLE_PROBE.burst);
    expect(probe.responses).toHaveLength(3 * THROTTLE_PROBE.burst);
  });

  it('stops at its request bound when nothing is throttled', async () => {
    const t = target(undefined, 1);
    const probe = await probeThrottle(t.send, t.met, THROTTLE_PROBE, t.now);
    expect(probe.met).toBe(false);
    expect(t.sent()).toBe(THROTTLE_PROBE.maxRequests);
    expect(unmetThrottleReason('token manager', probe)).toMatch(
      /^the target throttled no token manager request: the probe sent 120 requests as principals\.throttled over 0\.1 s \(it stops at 120 requests or 30 s\)/,
    );
  });

  it('stops at its time bound when the target is slow', async () => {
    const t = target(undefined, 1_000);
    const probe = await probeThrottle(t.send, t.met, THROTTLE_PROBE, t.now);
    expect(probe.met).toBe(false);
    // Each burst is sent whole; none starts once the time is spent.
    expect(t.sent()).toBe(Math.ceil(THROTTLE_PROBE.maxMs / (1_000 * THROTTLE_PROBE.burst)) * THROTTLE_PROBE.burst);
    expect(t.sent()).toBeLessThan(THROTTLE_PROBE.maxRequests);
  });

  it('sends nothing when the run has met the throttle already', async () => {
    const t = target(0);
    expect((await probeThrottle(t.send, t.met, THROTTLE_PROBE, t.now)).responses).toEqual([]);
  });
});

describe('the 429 rules', () => {
  it('are MUST rules of the catalog, each declared by a test that probes the throttle', () => {
    const rules = new Map(loadRules().map((r) => [r.id, r]));
    const suites = join(import.meta.dirname, '..');
    const probing = readdirSync(suites, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.spec.ts'))
      .map((f) => readFileSync(join(suites, f), 'utf8'))
      .filter((text) => text.includes('probeThrottle('));
    for (const id of THROTTLE_RULES) {
      expect(rules.get(id)?.level, id).toBe('MUST');
      expect(
        probing.some((text) => text.includes(`'${id}'`)),
        id,
      ).toBe(true);
    }
  });
});
