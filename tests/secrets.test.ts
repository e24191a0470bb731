import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ClientCredentials } from '../suites/engine/run-config.ts';
import { spaceAuthKey } from '../suites/engine/token-provider.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

let ref: RunningReference;

beforeAll(async () => {
  // Faults that put tokens into the bodies the failures quote.
  ref = await startReference({
    port: 0,
    faults: ['sixth-user-tenant-accepted', 'jti-repeated', 'refresh-token-issued'],
  });
});
afterAll(async () => {
  await ref.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('secrets in the outputs of a run', () => {
  it('appear in no report, HAR, Allure result, ledger or console line', async () => {
    const dir = tempDir('secrets');
    const config = referenceRunConfig(ref, ref.baseUrl);
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(config));
    const reportDir = join(dir, 'out');
    const res = await runCli(
      ['run', '--config', file, '--service', 'technical-token-manager', '--report-dir', reportDir],
      { timeoutMs: 120_000 },
    );
    expect(res.code).toBe(1);
    // A failing report is valid against the report's JSON Schema too.
    expect(reportSchemaErrors(JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')))).toEqual(
      [],
    );
    const creds: ClientCredentials[] = [
      config.tokenManager!,
      config.principals!.noScopes as ClientCredentials,
      config.principals!.otherTenant as ClientCredentials,
      ...(Object.values(config.principals!.withoutScope!) as ClientCredentials[]),
    ];
    const secrets = creds.flatMap((c) => [c.clientSecret, spaceAuthKey(c).slice('Basic '.length)]);
    const outputs = filesUnder(reportDir).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    outputs.push({ f: 'console', text: res.stdout + res.stderr });
    expect(outputs.map((o) => o.f).some((f) => f.includes('allure-results'))).toBe(true);
    // The HAR holds every exchange: its bearer tokens are markers that keep only the claims.
    const har = outputs.find((o) => o.f.endsWith('exchanges.har'));
    expect(har).toBeDefined();
    expect(har!.text).toMatch(/Bearer \[REDACTED claims \{\\"scope\\":/);
    expect(har!.text).toContain('"x-space-auth-key","value":"[REDACTED]"');
    const leaks: string[] = [];
    for (const { f, text } of outputs) {
      for (const s of secrets) if (text.includes(s)) leaks.push(`${f}: a client secret or key`);
      const jwt = /eyJ[A-Za-z0-9_-]{8,}/.exec(text);
      if (jwt) leaks.push(`${f}: something shaped like a JWT (${jwt[0].slice(0, 12)}…)`);
      if (/refresh-[0-9a-f-]{36}/.test(text)) leaks.push(`${f}: a refresh token`);
    }
    process.stdout.write(
      `secrets: searched ${outputs.length} outputs for ${secrets.length} secrets and JWT shapes: ${leaks.length} found\n`,
    );
    expect(leaks).toEqual([]);
  }, 130_000);
});
