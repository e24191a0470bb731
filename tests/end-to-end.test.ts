import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';
import { sharedRunDir, sharedRunSeed } from './shared-run-report.ts';

let ref: RunningReference;
const dir = tempDir('e2e');

beforeAll(async () => {
  ref = await startReference({ port: 0 });
});
afterAll(async () => {
  await ref.close();
});

function writeConfig(name: string, mutate: (c: ReturnType<typeof referenceRunConfig>) => void = () => {}): string {
  const c = referenceRunConfig(ref, ref.baseUrl);
  mutate(c);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

describe('conformance run against the reference deployment', () => {
  // The run every other test of `npm test` shares (tests/shared-run.ts): all three services.
  it('passes every rule of the three services and reports each one', async () => {
    const reportDir = await sharedRunDir();
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'warning');
    expect(failed.map((r) => `${r.id}: ${r.failure?.received ?? r.warning?.received}`)).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(report.verdict).toBe('passed');
    expect(report.seed).toBe(sharedRunSeed());
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.rules.filter((r) => r.status === 'not-exercised')).toEqual([]);
    // Every rule it did not judge says why, as a code.
    expect(report.rules.filter((r) => r.status === 'skipped' && !r.reasonCode).map((r) => r.id)).toEqual([]);
    expect(report.rules.filter((r) => r.level === 'UNSPECIFIED' && r.status === 'observed').length).toBeGreaterThan(0);
    // The cleanup deleted all the run created.
    expect(report.cleanup?.outstanding).toEqual([]);
    for (const f of ['report.html', 'junit.xml', 'summary.md', 'exchanges.har'])
      expect(existsSync(join(reportDir, f)), f).toBe(true);
  });

  // Any refusal of the main application's token, not only a 401: with none, nothing can be judged,
  // and a slip must not read as the target's failure (a 400 once passed the token manager's suite
  // with its rules skipped and failed the other services' rules as token errors).
  it.each([
    [
      'a wrong secret',
      'clientSecret',
      'not-the-secret',
      /refused the credentials \(HTTP 401\): wrong client ID or secret\?/,
    ],
    ['a wrong appName', 'appName', 'not-the-app', /refused the credentials \(HTTP 400\): wrong appName/],
  ] as const)('exits 3 when the target refuses the configured credentials (%s)', async (_, key, value, said) => {
    const file = writeConfig(`wrong-${key}.json`, (c) => {
      (c.tokenManager as unknown as Record<string, string>)[key] = value;
    });
    for (const service of ['technical-token-manager', 'notification']) {
      const res = await runCli([
        'run',
        '--config',
        file,
        '--service',
        service,
        '--report-dir',
        join(dir, `wrong-${key}`),
      ]);
      expect(res.code, res.stdout + res.stderr).toBe(3);
      expect(res.stderr).toMatch(said);
      expect(res.stderr + res.stdout).not.toContain('not-the-secret');
    }
    // The token command a failure's curl tells its reader to paste: the same slip, one line, exit 3.
    const token = await runCli(['token', '--config', file]);
    expect(token.code, token.stderr).toBe(3);
    expect(token.stderr).toMatch(said);
    expect(token.stderr.trim().split('\n')).toHaveLength(1);
    expect(token.stderr + token.stdout).not.toContain('not-the-secret');
  });

  it('lists what it would exercise with --dry-run, sending nothing', async () => {
    const res = await runCli([
      'run',
      '--config',
      writeConfig('dry.json'),
      '--service',
      'technical-token-manager',
      '--dry-run',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/dry run: nothing is sent/);
    expect(res.stdout).toMatch(/at most \d+ requests in all/);
  });
});

// `export CONFORMANCE_TOKEN=$(npx conformance token …)` prints what a target answered: only a bearer
// token's characters, and never a secret of the configuration given back as the token.
describe('token prints only a bearer token', () => {
  const SECRET = 'x7Qz-9fLw2-kT4m';
  it.each([
    [
      'terminal escapes and a line a CI log reads as a command',
      '\u001b]0;TITLE\u0007abc\n::error::x',
      /is not a bearer token/,
    ],
    ['the client secret, given back', SECRET, /gave back a client secret of the configuration/],
    ['70,000 characters', 'a'.repeat(70_000), /an access_token of 70000 characters, more than 65536 taken/],
  ])('refuses a token of %s (exit 3, one line, nothing on stdout)', async (_, accessToken, said) => {
    const server = createServer((req, res) =>
      req.url?.includes('/oauth/token')
        ? res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 300 }))
        : res.writeHead(404).end(),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const file = join(dir, 'token-target.json');
      writeFileSync(
        file,
        JSON.stringify({
          target: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
          tokenManager: { clientId: 'c1', clientSecret: SECRET, appName: 'a', appVersion: '1', hostTenant: 'h' },
        }),
      );
      const res = await runCli(['token', '--config', file]);
      expect(res.code, res.stderr).toBe(3);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(said);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).not.toContain(SECRET);
      expect(res.stderr).not.toContain('\u001b');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
