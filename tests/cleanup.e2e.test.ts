import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { census } from './resource-census.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const dir = tempDir('cleanup');

async function setup(faults: string[] = []): Promise<{ ref: RunningReference; config: string; auth: string }> {
  const ref = await startReference({ port: 0, faults });
  const app = ref.ctx.seed.applications.find((a) => a.role === 'full')!;
  const auth = `Bearer ${(await ref.ctx.tokens.issue(app, app.hostTenant)).access_token}`;
  const config = join(dir, `run-${faults.join('-') || 'plain'}-${Date.now()}.json`);
  writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
  return { ref, config, auth };
}

/** What the home tenant and the other tenant hold, through the public API. */
async function everything(ref: RunningReference, auth: string): Promise<Record<string, number>> {
  const other = ref.ctx.seed.applications.find((a) => a.role === 'otherTenant')!;
  const otherAuth = `Bearer ${(await ref.ctx.tokens.issue(other, other.hostTenant)).access_token}`;
  const home = await census(ref.baseUrl, auth);
  const away = await census(ref.baseUrl, otherAuth);
  return { ...home, ...Object.fromEntries(Object.entries(away).map(([k, v]) => [`other.${k}`, v])) };
}

describe('nothing is left behind on the target', () => {
  let refs: RunningReference[] = [];
  beforeAll(() => {
    refs = [];
  });
  afterAll(async () => {
    for (const r of refs) await r.close();
  });

  it('after a full run', async () => {
    const { ref, config, auth } = await setup();
    refs.push(ref);
    const before = await everything(ref, auth);
    const res = await runCli(['run', '--config', config, '--report-dir', join(dir, 'full')], { timeoutMs: 170_000 });
    expect(res.code, res.stdout.slice(-1500)).toBe(0);
    const after = await everything(ref, auth);
    process.stdout.write(`full run: before ${JSON.stringify(before)}\n          after  ${JSON.stringify(after)}\n`);
    expect(after).toEqual(before);
  }, 180_000);

  it('after a run with failures', async () => {
    // Faults that make tests fail half-way through what they create.
    const { ref, config, auth } = await setup([
      'stale-if-match-accepted-on-put',
      'etag-not-incremented-on-update',
      'duplicate-group-name-accepted',
      'jti-repeated',
    ]);
    refs.push(ref);
    const before = await everything(ref, auth);
    const res = await runCli(['run', '--config', config, '--report-dir', join(dir, 'failing')], { timeoutMs: 170_000 });
    expect(res.code).toBe(1);
    const after = await everything(ref, auth);
    expect(after).toEqual(before);
  }, 180_000);

  it('after a run interrupted with SIGINT', async () => {
    const { ref, config, auth } = await setup();
    refs.push(ref);
    const before = await everything(ref, auth);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(root, 'bin/conformance.js'),
          'run',
          '--config',
          config,
          '--service',
          'notification',
          'event-management',
          '--report-dir',
          join(dir, 'int'),
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let sent = false;
      child.stdout.on('data', (d) => {
        out += d;
        // Interrupt in the middle: once a dozen tests have finished.
        if (!sent && (out.match(/ (notification|event-management) › /g) ?? []).length >= 12) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('close', (c) => resolve(c));
    });
    expect(code).toBe(130);
    const after = await everything(ref, auth);
    expect(after).toEqual(before);
  }, 180_000);
});
