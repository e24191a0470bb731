import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

const dir = tempDir('cli');
const creds = {
  clientId: 'conformance-full',
  clientSecret: 'wrong-secret',
  appName: 'conformanceapp',
  appVersion: '1.0.0',
  hostTenant: 'conformhost',
};

function config(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('conformance command line', () => {
  it('prints help for the command and each subcommand', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/run \[options\]/);
    const run = await runCli(['run', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--target',
      '--config',
      '--service',
      '--rule',
      '--seed',
      '--runs',
      '--report-dir',
      '--rate',
      '--concurrency',
      '--timeout',
      '--dry-run',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });

  it('lists the whole catalog as JSON, and one service on request', async () => {
    const all = await runCli(['rules', '--json']);
    expect(all.code).toBe(0);
    const rules = JSON.parse(all.stdout) as Array<{
      id: string;
      level: string;
      source: { quote: string };
      statement: string;
      operations: string[];
    }>;
    const services = new Set(rules.map((r) => r.id.split('/')[0]));
    expect([...services].sort()).toEqual(['event-management', 'notification', 'technical-token-manager']);
    expect(rules.length).toBeGreaterThan(200);
    expect(rules.every((r) => r.level && r.source.quote && r.statement && Array.isArray(r.operations))).toBe(true);
    const one = JSON.parse(
      (await runCli(['rules', '--json', '--service', 'technical-token-manager'])).stdout,
    ) as Array<{ id: string }>;
    expect(one.every((r) => r.id.startsWith('technical-token-manager/'))).toBe(true);
  });

  it('loads only the services whose rules --rule selects', async () => {
    const res = await runCli(['run', '--rule', 'technical-token-manager/identification/field-types', '--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/1 rules of technical-token-manager; \d+ tests would run/);
    expect(res.stdout).not.toMatch(/^(notification|event-management):/m);
  });

  it('rejects an unknown service with exit 2', async () => {
    const res = await runCli(['rules', '--service', 'nope']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown service nope/);
  });

  it('names the wrong field of a bad configuration (exit 2)', async () => {
    const bad = await runCli([
      'run',
      '--config',
      config('bad.json', { target: 'not a url', tokenManager: { ...creds, clientSecret: 5 } }),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/target/);
    expect(bad.stderr).toMatch(/tokenManager\.clientSecret: must be a string/);
    const notJson = await runCli(['run', '--config', config('garbage.json', '{ nope')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not valid JSON/);
    const missing = await runCli(['run', '--config', join(dir, 'absent.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read configuration file/);
    const flag = await runCli(['run', '--runs', 'many']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--runs takes a whole number/);
  });

  it('says clearly when the target cannot be reached (exit 3)', async () => {
    const res = await runCli(
      [
        'run',
        '--config',
        config('closed.json', { target: 'http://127.0.0.1:9', tokenManager: creds }),
        '--timeout',
        '2000',
      ],
      { timeoutMs: 30_000 },
    );
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});
