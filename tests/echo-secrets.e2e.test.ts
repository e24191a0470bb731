import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig, THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ClientCredentials, PrincipalConfig, RunConfig } from '../suites/engine/run-config.ts';
import { startEchoTarget, type EchoTarget } from './echo-target.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

let ref: RunningReference;
let echo: EchoTarget;

beforeAll(async () => {
  // As the embedded reference of `conformance run` is started.
  ref = await startReference({ host: '127.0.0.1', port: 0, throttle: 8, throttledClients: THROTTLED_CLIENTS });
  echo = await startEchoTarget({ upstream: ref.baseUrl, opaqueTokens: true });
});
afterAll(async () => {
  await echo?.close();
  await ref?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function credentialsOf(config: RunConfig): ClientCredentials[] {
  const p = config.principals ?? {};
  const all: Array<PrincipalConfig | undefined> = [
    config.tokenManager,
    p.full,
    p.noScopes,
    p.otherTenant,
    p.operator,
    p.throttled,
    ...Object.values(p.withoutScope ?? {}),
  ];
  return all.filter((c): c is ClientCredentials => !!c && 'clientSecret' in c);
}

/** Each client secret, and its `clientId:clientSecret` in base64: padded, unpadded and url-safe. */
function configSecrets(config: RunConfig): Array<{ kind: string; value: string }> {
  return credentialsOf(config).flatMap((c) => {
    const b64 = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
    return [
      { kind: 'client secret', value: c.clientSecret },
      { kind: 'base64 key', value: b64 },
      { kind: 'base64 key unpadded', value: b64.replace(/=+$/, '') },
      { kind: 'base64url key', value: Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64url') },
    ];
  });
}

function occurrences(text: string, s: string): number {
  let n = 0;
  for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + s.length)) n++;
  return n;
}

describe('a run against a target that echoes every credential it receives', () => {
  it('leaves no client secret, key or issued token in the report folder or on the console', async () => {
    const dir = tempDir('echo-secrets');
    const config = referenceRunConfig(ref, echo.url);
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(config));
    const reportDir = join(dir, 'out');
    const started = Date.now();
    const res = await runCli(
      ['run', '--config', file, '--runs', '2', '--max-time', '150s', '--report-dir', reportDir],
      { timeoutMs: 240_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    // The verdict does not matter (the echo breaks rules); the run must end with a report.
    // 4: --max-time reached on a slow machine.
    expect([0, 1, 4], res.stderr.slice(-2000)).toContain(res.code);
    const secrets = [
      ...configSecrets(config),
      ...[...echo.issuedTokens].map((value) => ({ kind: 'issued token', value })),
    ];
    expect(echo.issuedTokens.size).toBeGreaterThan(0);
    const outputs = filesUnder(reportDir).map((f) => ({ f: relative(reportDir, f), text: readFileSync(f, 'utf8') }));
    outputs.push({ f: '(console)', text: res.stdout + res.stderr });
    expect(outputs.some((o) => o.f === 'exchanges.har')).toBe(true);
    expect(outputs.some((o) => o.f.startsWith('allure-results'))).toBe(true);
    // The echo reached the outputs (redacted): the search below is not of a run that never saw it.
    const har = outputs.find((o) => o.f === 'exchanges.har')!.text;
    expect(har).toContain('"name":"x-echo-x-space-auth-key","value":"Basic [REDACTED]"');
    expect(har).toMatch(/"mimeType":"[^"]*echo-token=\\"\[REDACTED\]\\"/);
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as {
      verdict: string;
      stopped?: { reason: string };
    };
    const found = new Map<string, number>();
    for (const { f, text } of outputs) {
      const where = f.startsWith('allure-results') ? 'allure-results/' : f;
      for (const { kind, value } of secrets) {
        const n = occurrences(text, value);
        if (n) found.set(`${where}: ${kind}`, (found.get(`${where}: ${kind}`) ?? 0) + n);
      }
    }
    process.stdout.write(
      `echo target: run took ${seconds.toFixed(1)} s (verdict ${report.verdict}${report.stopped ? `, ${report.stopped.reason}` : ''}), ${echo.requests} requests, ${echo.issuedTokens.size} tokens issued; ` +
        `searched ${outputs.length} outputs for ${secrets.length} secrets: ${JSON.stringify(Object.fromEntries(found))}\n`,
    );
    expect(Object.fromEntries(found)).toEqual({});
  }, 260_000);
});
