import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { harStructureErrors, readHar } from '../audit/read-har.ts';
import { roundTrip } from '../audit/round-trip.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { ClientCredentials, RunConfig } from '../suites/engine/run-config.ts';
import { spaceAuthKey } from '../suites/engine/token-provider.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';
import { referenceStarter } from './har-audit-support.ts';
import { sharedRunDir } from './shared-run-report.ts';

const dir = tempDir('har');
const { reference } = referenceStarter(dir);
let proxies = 0;

describe("a run's exchanges.har", () => {
  it('is HAR 1.2 with every test exchange tagged, and its offline audit agrees with the run on every passive rule', async () => {
    // The run every test of `npm test` shares (tests/shared-run.ts): all three services, the
    // throttle probed.
    const out = await sharedRunDir();
    const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('passed');
    const har = JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8')) as unknown;
    expect(harStructureErrors(har)).toEqual([]);
    const { log } = readHar(join(out, 'exchanges.har'));
    expect(log.version).toBe('1.2');
    expect(log.entries.length).toBeGreaterThan(report.http!.requests * 0.9);
    const tagged = log.entries.filter((e) => e._testName);
    expect(tagged.length).toBeGreaterThan(log.entries.length / 2);
    for (const e of tagged) expect(e._ruleIds!.length).toBeGreaterThan(0);
    expect(
      log.entries.some((e) =>
        /^Bearer \[REDACTED claims \{.*"scope"/.test(
          e.request.headers.find((h) => h.name === 'authorization')?.value ?? '',
        ),
      ),
    ).toBe(true);
    const rt = roundTrip(report, { log });
    process.stdout.write(`round trip (reference): ${rt.agreed}/${rt.compared} passive rules agree\n`);
    expect(rt.compared).toBeGreaterThan(30);
    expect(rt.differences).toEqual([]);
    // The audit command writes the same outputs as a run.
    const auditDir = join(dir, 'audit');
    const res = await runCli(['audit', join(out, 'exchanges.har'), '--report-dir', auditDir]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/rules can be judged from traffic; this traffic judged \d+ of them/);
    for (const f of ['conformance-report.json', 'report.html', 'junit.xml', 'summary.md'])
      expect(existsSync(join(auditDir, f))).toBe(true);
    const audited = JSON.parse(readFileSync(join(auditDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const notPassive = audited.rules.find((r) => r.id === 'event-management/events/severity-range');
    expect(notPassive?.status).toBe('not-exercised');
    expect(notPassive?.reason).toMatch(/not judgeable from recorded traffic/);
  }, 300_000);
});

/** A client's own flow, written without the suite: tokens, an event written and read, a few refusals. */
async function clientFlow(base: string, config: RunConfig): Promise<void> {
  const ttm = `${base}/api/technicaltokenmanager/v3`;
  const em = `${base}/api/eventmanagement/v3`;
  const token = async (c: ClientCredentials): Promise<string> => {
    const res = await request(`${ttm}/oauth/token`, {
      method: 'POST',
      headers: { 'x-space-auth-key': spaceAuthKey(c), 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: c.appName,
        appVersion: c.appVersion,
        hostTenant: c.hostTenant,
        userTenant: c.hostTenant,
      }),
    });
    return `Bearer ${((await res.body.json()) as { access_token: string }).access_token}`;
  };
  const full = await token(config.tokenManager!);
  const noRead = await token(config.principals!.withoutScope!['em.r'] as ClientCredentials);
  const json = async (url: string, init: Parameters<typeof request>[1] = {}) => {
    const res = await request(url, init);
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  };
  const entityId = (config.fixtures?.eventManagement as { entityIds: string[] }).entityIds[0];
  const created = await json(`${em}/events`, {
    method: 'POST',
    headers: { authorization: full, 'content-type': 'application/json' },
    body: JSON.stringify({ entityId, timestamp: new Date().toISOString(), severity: 10, description: 'client flow' }),
  });
  const id = created.body.id as string;
  const got = await json(`${em}/events/${id}`, { headers: { authorization: full } });
  const etag = got.body.etag as number;
  const { _links: _l, etag: _e, ...event } = got.body;
  await json(`${em}/events/${id}`, {
    method: 'PUT',
    headers: { authorization: full, 'content-type': 'application/json', 'if-match': String(etag) },
    body: JSON.stringify({ ...event, severity: 20 }),
  });
  await json(`${em}/events/${id}`, { headers: { authorization: full } });
  // The client retries with the etag it read first: stale now.
  await json(`${em}/events/${id}`, {
    method: 'PUT',
    headers: { authorization: full, 'content-type': 'application/json', 'if-match': String(etag) },
    body: JSON.stringify({ ...event, severity: 30 }),
  });
  await json(`${em}/events?size=5`, { headers: { authorization: full } });
  await json(`${em}/events`);
  await json(`${em}/events/${id}`, { headers: { authorization: noRead } });
  await json(`${ttm}/userTenants`);
}

async function proxyRun(faults: string[]): Promise<{ code: number | null; stdout: string }> {
  const { ref, config } = await reference(faults);
  const out = join(dir, `proxy-${++proxies}`);
  const child = spawn(
    process.execPath,
    [join(root, 'bin/conformance.js'), 'proxy', '--target', ref.baseUrl, '--listen', '0', '--report-dir', out],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  try {
    const deadline = Date.now() + 120_000;
    let url: string | undefined;
    while (!(url = /conformance proxy: (http:\/\/\S+)/.exec(stdout)?.[1])) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`proxy did not start: ${stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await clientFlow(url, config);
    const closed = new Promise<number | null>((r) => child.once('close', r));
    child.kill('SIGTERM');
    const code = await closed;
    expect(harStructureErrors(JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8')))).toEqual([]);
    expect(existsSync(join(out, 'conformance-report.json'))).toBe(true);
    return { code, stdout };
  } finally {
    clearTimeout(killer);
  }
}

describe('conformance proxy with traffic the suite did not write', () => {
  it('forwards a client flow against the reference and finds no failure', async () => {
    const { code, stdout } = await proxyRun([]);
    expect(stdout).not.toMatch(/^FAIL /m);
    expect(stdout).toMatch(/exchanges recorded/);
    expect(code).toBe(0);
  }, 120_000);

  for (const [fault, rule] of [
    ['stale-if-match-accepted-on-put', 'event-management/etags/update-event-stale-412'],
    ['missing-token-answered-403', 'event-management/auth/unauthorized-401'],
    ['scope-not-checked-on-get-event', 'event-management/auth/scopes-get-event'],
    ['user-tenants-served-without-token', 'technical-token-manager/auth/user-tenants-token-required'],
    ['etag-not-incremented-on-update', 'event-management/events/etag-counter'],
  ] as const) {
    it(`prints ${rule} as it fails against ${fault}`, async () => {
      const { code, stdout } = await proxyRun([fault]);
      expect(stdout).toMatch(new RegExp(`^FAIL ${rule}: `, 'm'));
      expect(code).toBe(1);
    }, 120_000);
  }
});
