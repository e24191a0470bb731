import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { readOperationOf } from '../contracts/read-operations.ts';
import { REFERENCE_THROTTLE, THROTTLED_CLIENTS, referenceRunConfig } from '../cli/reference-config.ts';
import { createReferenceDeployment, type ReferenceDeployment } from '../fixtures/reference/server.ts';
import { SERVICES } from '../contracts/services.ts';
import { docText, figure } from './readme-text.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

interface ReportRule {
  id: string;
  service: string;
  status: string;
  reason?: string;
  detail?: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the read-only profile against a reference (optionally with faults), counting every request at the target. */
async function readOnlyRun(faults: string[] = []): Promise<{
  code: number | null;
  output: string;
  arrived: string[];
  rules: ReportRule[];
}> {
  // Throttling the throttled application, as `serve` does: the 429 probe meets the throttle.
  const deployment: ReferenceDeployment = await createReferenceDeployment({
    faults,
    throttle: REFERENCE_THROTTLE,
    throttledClients: THROTTLED_CLIENTS,
  });
  const arrived: string[] = [];
  deployment.app.addHook('onRequest', async (req) => {
    arrived.push(`${req.method} ${req.url}`);
  });
  await deployment.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const baseUrl = `http://127.0.0.1:${(deployment.app.server.address() as AddressInfo).port}`;
    const dir = tempDir('readonly');
    dirs.push(dir);
    writeFileSync(join(dir, 'run.json'), JSON.stringify(referenceRunConfig(deployment, baseUrl)));
    const res = await runCli(
      ['run', '--config', join(dir, 'run.json'), '--profile', 'read-only', '--report-dir', join(dir, 'r')],
      { timeoutMs: 120_000 },
    );
    const report = JSON.parse(readFileSync(join(dir, 'r', 'conformance-report.json'), 'utf8')) as {
      rules: ReportRule[];
    };
    return { code: res.code, output: res.stdout + res.stderr, arrived, rules: report.rules };
  } finally {
    await deployment.app.close();
  }
}

/** Requests that are not read operations of the contracts. */
function writes(arrived: string[]): string[] {
  return arrived.filter((line) => {
    const [method, url] = line.split(' ');
    return !readOperationOf(method, url.split('?')[0]);
  });
}

describe('--profile read-only', () => {
  it('sends only read operations, passes the reference, and gives a reason for every rule it leaves out', async () => {
    const run = await readOnlyRun();
    expect(run.code, run.output.slice(-2000)).toBe(0);
    expect(run.arrived.length).toBeGreaterThan(100);
    expect(writes(run.arrived)).toEqual([]);
    const byService: Record<string, { judged: number; skipped: number }> = {};
    for (const r of run.rules) {
      const s = (byService[r.service] ??= { judged: 0, skipped: 0 });
      if (['passed', 'observed', 'failed'].includes(r.status)) s.judged++;
      else s.skipped++;
      expect(['passed', 'observed', 'skipped', 'not-exercised'], r.id).toContain(r.status);
      if (r.status === 'skipped') expect(r.reason ?? r.detail ?? '', r.id).not.toBe('');
    }
    // A test that changes the target is left out with that reason.
    const changes = run.rules.filter((r) => /read-only/.test(r.reason ?? r.detail ?? ''));
    expect(changes.length).toBeGreaterThan(50);
    process.stdout.write(
      `read-only profile: ${run.arrived.length} requests at the target, all reads; rules judged per service: ${Object.entries(
        byService,
      )
        .map(([s, c]) => `${s} ${c.judged} (skipped ${c.skipped})`)
        .join(', ')}\n`,
    );
    // The README's figures for this profile are this run's: rules judged per service exactly, requests within 15 %.
    const said =
      /sends\s+about ([\d,]+) requests and judges \(passed or observed\) ([\d,]+) of the token manager's [\d,]+ rules, ([\d,]+) of\s+notification's [\d,]+ and ([\d,]+) of event management's/.exec(
        docText('README.md'),
      );
    expect(said, 'README.md no longer gives the read-only figures').not.toBeNull();
    expect(said!.slice(2)).toEqual(SERVICES.map((s) => figure(byService[s]?.judged ?? 0)));
    const requests = Number(said![1].replace(/,/g, ''));
    expect(Math.abs(run.arrived.length - requests) / requests, `${run.arrived.length} requests`).toBeLessThan(0.15);
  }, 130_000);

  it('still sends nothing that could change a deployment that would accept it', async () => {
    // Each variant accepts a request the read-only profile must never send.
    const run = await readOnlyRun([
      'scope-not-checked-on-publish',
      'scope-not-checked-on-broadcast',
      'scope-not-checked-on-certificate-update',
      'token-not-required-on-paramtype',
    ]);
    expect(run.arrived.length).toBeGreaterThan(100);
    expect(writes(run.arrived)).toEqual([]);
  }, 130_000);
});
