import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { describeKey } from '../suites/engine/run-config.ts';
import { THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';
import { runCli } from './run-cli.ts';

let ref: RunningReference;
const dir = mkdtempSync(join(tmpdir(), 'conformance-doctor-'));

beforeAll(async () => {
  ref = await startReference({ port: 0 });
});
afterAll(async () => {
  await ref.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, mutate: (c: ReturnType<typeof referenceRunConfig>) => void = () => {}): string {
  const c = referenceRunConfig(ref, ref.baseUrl);
  mutate(c);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

/** The status and detail of one row of the doctor's table. */
function row(stdout: string, check: string): { status: string; detail: string } | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith(`${check} `));
  const m = line && /^(ready|missing|failed|n\/a)\s+(.*)$/.exec(line.slice(check.length).trim());
  return m ? { status: m[1], detail: m[2] } : undefined;
}

describe('conformance doctor', () => {
  it('finds everything ready against the reference deployment, and exits 0', async () => {
    const res = await runCli(['doctor', '--config', writeConfig('ok.json')], { timeoutMs: 90_000 });
    expect(res.stderr).toBe('');
    expect(row(res.stdout, 'reachable')?.status).toBe('ready');
    expect(row(res.stdout, 'TLS')?.status).toBe('n/a');
    expect(row(res.stdout, 'clock skew')?.status).toBe('ready');
    expect(row(res.stdout, 'tokenManager')?.detail).toMatch(/scopes: .*\bem\.c\b.*\bnose\.se\b/);
    expect(row(res.stdout, 'principals.noScopes')?.detail).toContain('scopes: (none)');
    expect(row(res.stdout, 'principals.withoutScope["em.c"]')?.status).toBe('ready');
    expect(row(res.stdout, 'principals.withoutScope["em.c"]')?.detail).not.toMatch(/\bem\.c\b/);
    expect(row(res.stdout, 'fixtures.eventManagement.sharedEventTypeId')?.detail).toContain('HTTP 200');
    expect(row(res.stdout, 'fixtures.notification.restrictedRecipientId')?.detail).toContain('HTTP 200');
    expect(res.stdout).not.toMatch(/\s(missing|failed)\s/);
    expect(res.stdout).toContain('Everything is ready: no rule will be skipped for want of configuration.');
    // What doctor cannot check without a burst: that the target throttles principals.throttled.
    const note = res.stdout.split('The 3 429 rules need a target that throttles principals.throttled')[1] ?? '';
    expect(note).toMatch(/at most 120 requests or 30 s per service/);
    for (const id of THROTTLE_RULES) expect(note).toContain(`  ${id}\n`);
    expect(res.code).toBe(0);
  }, 120_000);

  it('takes the target from --target when the configuration leaves it out (a configuration kept in a secret)', async () => {
    const file = writeConfig('no-target.json', (c) => {
      delete (c as { target?: string }).target;
      delete c.principals!.throttled;
    });
    const res = await runCli(['doctor', '--config', file, '--target', ref.baseUrl], { timeoutMs: 90_000 });
    expect(res.stderr).toBe('');
    expect(row(res.stdout, 'reachable')?.status).toBe('ready');
    // Without a throttled principal, doctor does not call everything ready: the 429 rules need one.
    expect(row(res.stdout, 'principals.throttled')).toEqual({
      status: 'n/a',
      detail: 'not configured: the 3 429 rules are judged only if the target throttles the run by chance',
    });
    expect(res.stdout).toContain('Everything is ready but principals.throttled (below).');
    expect(res.stdout).toContain('configure principals.throttled, a client the target throttles');
    expect(res.code).toBe(0);
  }, 120_000);

  it('names a wrong secret, a missing principal and a bad fixture, with the rules each leaves unjudged, and exits 1', async () => {
    const file = writeConfig('bad.json', (c) => {
      (c.principals!.noScopes as { clientSecret: string }).clientSecret = 'not-the-secret';
      delete c.principals!.operator;
      (c.fixtures!.eventManagement as Record<string, unknown>).sharedEventTypeId = 'othertenant.nosuchtype';
      c.tokenManager!.userTenants = ['nosuchtenant9', ...(c.tokenManager!.userTenants ?? [])];
    });
    const res = await runCli(['doctor', '--config', file], { timeoutMs: 120_000 });
    expect(row(res.stdout, 'principals.noScopes')).toEqual({
      status: 'failed',
      detail: expect.stringContaining('refused the credentials (HTTP 401)') as string,
    });
    expect(row(res.stdout, 'principals.operator')).toEqual({ status: 'missing', detail: 'not configured' });
    expect(row(res.stdout, 'fixtures.eventManagement.sharedEventTypeId')).toEqual({
      status: 'failed',
      detail: expect.stringContaining('HTTP 404') as string,
    });
    expect(row(res.stdout, 'tokenManager')?.status).toBe('ready');
    // A user tenant the application is not provisioned for: the rules that send it are skipped, not failed.
    expect(row(res.stdout, 'tokenManager.userTenants')).toEqual({
      status: 'failed',
      detail: 'no token for user tenant nosuchtenant9 (is the application provisioned for it?)',
    });
    const unjudged = res.stdout.split('Not ready (4)')[1] ?? '';
    const section = (check: string) => unjudged.split(`\n  ${check} `)[1]?.split('\n\n')[0] ?? '';
    // The 403 rules are judged by the principals without one scope too; the both-scopes refusal only by noScopes.
    expect(section('principals.noScopes')).toContain('notification/auth/scope-both-listed');
    expect(section('principals.noScopes')).not.toContain('event-management/auth/forbidden-403');
    expect(section('principals.operator')).toContain('notification/certificates/operator-lists-all');
    expect(section('tokenManager.userTenants')).toContain(
      'technical-token-manager/tokens-response/one-token-per-user-tenant',
    );
    // What each piece is, in the words of the configuration's schema.
    expect(section('principals.operator')).toContain(`what it is: ${describeKey('principals.operator')}`);
    expect(section('principals.operator')).toContain('An application of the one operator tenant');
    expect(section('fixtures.eventManagement.sharedEventTypeId')).toContain(
      'event-management/event-types/parent-shared-local-400',
    );
    // Every key of the schema is one some test needs: a configuration names none that no rule uses.
    expect(res.stdout).not.toContain('Configured, but no selected rule uses');
    expect(res.stdout + res.stderr).not.toContain('not-the-secret');
    expect(res.code).toBe(1);
  }, 150_000);

  it('exits 2 on a bad configuration and 3 on an unreachable target', async () => {
    const bad = join(dir, 'invalid.json');
    writeFileSync(bad, JSON.stringify({ target: 'ftp://nowhere' }));
    const invalid = await runCli(['doctor', '--config', bad]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/target/);
    expect((await runCli(['doctor'])).code).toBe(2);
    const unreachable = await runCli(
      ['doctor', '--config', writeConfig('far.json'), '--target', 'http://127.0.0.1:9', '--timeout', '2000'],
      { timeoutMs: 60_000 },
    );
    expect(unreachable.stdout).toMatch(/reachable\s+failed\s+REFUSED/);
    expect(unreachable.code).toBe(3);
  }, 90_000);

  it('reports a token endpoint that never answers as failed rows, never a crash', async () => {
    // Everything answers 404 but the token endpoint, which never answers.
    const hanging = createServer((req, res) => {
      if (!req.url?.includes('/oauth/token')) res.writeHead(404).end();
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const { port } = hanging.address() as { port: number };
    try {
      const file = join(dir, 'hanging.json');
      writeFileSync(
        file,
        JSON.stringify({
          target: `http://127.0.0.1:${port}`,
          tokenManager: {
            clientId: 'c1',
            clientSecret: 'x7Qz-9fLw2-k',
            appName: 'a',
            appVersion: '1',
            hostTenant: 'h',
          },
          fixtures: { subTenantIds: ['sub1'] },
        }),
      );
      const res = await runCli(['doctor', '--config', file, '--timeout', '1000'], { timeoutMs: 60_000 });
      expect(res.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(res.stdout).toMatch(/^tokenManager\s+failed\s+no token: TIMEOUT/m);
      expect(res.stdout).toMatch(/^fixtures\.subTenantIds\s+failed\s+no token for sub-tenant sub1: TIMEOUT/m);
      expect(res.code).toBe(1);
    } finally {
      hanging.closeAllConnections();
      await new Promise((r) => hanging.close(r));
    }
  }, 90_000);
});
