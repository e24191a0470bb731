import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { createReferenceDeployment, type ReferenceDeployment } from '../fixtures/reference/server.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

let deployment: ReferenceDeployment;
let baseUrl = '';
const arrivals: number[] = [];
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  deployment = await createReferenceDeployment();
  deployment.app.addHook('onRequest', async () => {
    arrivals.push(performance.now());
    maxInFlight = Math.max(maxInFlight, ++inFlight);
  });
  deployment.app.addHook('onResponse', async () => {
    inFlight--;
  });
  await deployment.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(deployment.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await deployment.app.close();
});

/** The most requests that arrived within any one-second window. */
function peakPerSecond(times: number[]): number {
  let peak = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= 1000) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

describe('load on the target', () => {
  it('holds --rate and --concurrency, counted at the target', async () => {
    const dir = tempDir('load');
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(deployment, baseUrl)));
    arrivals.length = 0;
    maxInFlight = 0;
    const res = await runCli(
      [
        'run',
        '--config',
        config,
        '--service',
        'technical-token-manager',
        '--rate',
        '25',
        '--concurrency',
        '2',
        '--report-dir',
        join(dir, 'r'),
      ],
      { timeoutMs: 120_000 },
    );
    expect(res.code, res.stdout.slice(-1500)).toBe(0);
    const peak = peakPerSecond(arrivals);
    process.stdout.write(
      `--rate 25: ${arrivals.length} requests, peak ${peak} in any second, at most ${maxInFlight} in flight\n`,
    );
    expect(arrivals.length).toBeGreaterThan(40);
    // The preflight (a request and a token) runs before the limited client: allow those two.
    expect(peak).toBeLessThanOrEqual(25 + 2);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  }, 130_000);
});
