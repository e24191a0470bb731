import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig, THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { isLeftover, LEFTOVER_AGE_MS } from '../suites/engine/leftovers.ts';
import { census } from './resource-census.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// The shards of one run, started together against one deployment as a CI matrix or an Indexed
// Job starts them, merge to the verdict of one unsharded run on the same seed, rule by rule, and
// leave the deployment as they found it. Notification alone (the service that creates the most
// resources) keeps the file near a minute and a half on two busy cores, most of it the start-up
// of eight processes at once; with all three services the same held for N = 1, 3 and 8 (README,
// "Containers, GitHub Actions and Kubernetes").
const SERVICES = ['notification'];
const SEED = '11';
const dir = tempDir('shard-merge');
let ref: RunningReference;
let config: string;
let unsharded: ConformanceReport;

const read = (d: string) => JSON.parse(readFileSync(join(d, 'conformance-report.json'), 'utf8')) as ConformanceReport;
/** How many tests a run wrote an Allure result of. */
const allureResults = (d: string) =>
  readdirSync(join(d, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
const statuses = (r: ConformanceReport) => Object.fromEntries(r.rules.map((x) => [x.id, x.status]));
const run = (args: string[]) =>
  runCli(['run', '--config', config, '--service', ...SERVICES, '--seed', SEED, '--probe-throttling', ...args], {
    timeoutMs: 240_000,
  });

/** What the home tenant holds, through the public API. */
async function holdings(): Promise<Record<string, number>> {
  const app = ref.ctx.seed.applications.find((a) => a.role === 'full')!;
  return census(ref.baseUrl, `Bearer ${(await ref.ctx.tokens.issue(app, app.hostTenant)).access_token}`);
}

describe('sharding', () => {
  beforeAll(async () => {
    ref = await startReference({ host: '127.0.0.1', port: 0, throttle: 8, throttledClients: THROTTLED_CLIENTS });
    config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
    const res = await run(['--report-dir', join(dir, 'unsharded')]);
    expect(res.code, res.stdout.slice(-2000)).toBe(0);
    unsharded = read(join(dir, 'unsharded'));
  }, 240_000);

  afterAll(async () => {
    await ref?.close();
  });

  it.each([1, 3, 8])(
    '%i shards run together on one deployment merge to the unsharded verdict, rule by rule, and leave nothing behind',
    async (n) => {
      const before = await holdings();
      const started = Date.now();
      const shards = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          run(['--shard', `${i + 1}/${n}`, '--report-dir', join(dir, `n${n}-${i + 1}`)]),
        ),
      );
      const ms = Date.now() - started;
      for (const [i, s] of shards.entries()) expect(s.code, `shard ${i + 1}/${n}\n${s.stdout.slice(-2000)}`).toBe(0);
      const dirs = shards.map((_, i) => join(dir, `n${n}-${i + 1}`));
      for (const d of dirs) {
        const shard = read(d);
        // Each shard deleted what it created.
        expect(shard.cleanup?.outstanding ?? []).toEqual([]);
        expect(shard.cleanup?.deleted).toBe(shard.cleanup?.created);
      }
      const merged = await runCli(['merge', ...dirs, '--report-dir', join(dir, `merged-${n}`)]);
      expect(merged.code).toBe(0);
      const report = read(join(dir, `merged-${n}`));
      expect(report.verdict).toBe(unsharded.verdict);
      expect(statuses(report)).toEqual(statuses(unsharded));
      expect(report.counts.byStatus).toEqual(unsharded.counts.byStatus);
      expect(await holdings()).toEqual(before);
      // Allure: each test once across the shards, as in the unsharded run (no skipped twin of a test another shard ran).
      expect(dirs.reduce((sum, d) => sum + allureResults(d), 0)).toBe(allureResults(join(dir, 'unsharded')));
      process.stdout.write(
        `${n} shard(s) of ${SERVICES.join(' + ')}: ${ms} ms together; unsharded ${unsharded.durationMs} ms; ${JSON.stringify(report.counts.byStatus)}\n`,
      );
    },
    300_000,
  );

  it("one shard's leftover sweep spares the resources of the run's other shards", () => {
    // Shards of one run start within seconds of each other (a queued pod, minutes): their
    // prefixes differ, and a sweep deletes only prefixes more than an hour old.
    const now = Date.now();
    const prefix = (t: number, hex: string) => `cfz${t.toString(36)}${hex}`;
    const mine = prefix(now, 'a1b2');
    for (const otherStart of [now, now - 1, now - 5 * 60_000, now - LEFTOVER_AGE_MS + 60_000])
      expect(isLeftover(`${prefix(otherStart, 'c3d4')}-recipient`, now, mine)).toBe(false);
    // What a crashed run left more than an hour ago goes.
    expect(isLeftover(`${prefix(now - LEFTOVER_AGE_MS - 60_000, 'c3d4')}-recipient`, now, mine)).toBe(true);
  });
});
