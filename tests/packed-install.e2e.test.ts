import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from './run-cli.ts';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: none of the npm_* variables of the `npm test` running this file. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
}

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: userEnv(), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({
          code,
          stdout,
          stderr: err && code === -1 ? `${stderr}\n${err.message}` : stderr,
        });
      },
    );
  });
}

describe('the packed package, installed into an empty folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-packed-'));
  const app = join(dir, 'app');
  let tarball = '';
  let installed: Ran;

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], root, 60_000);
    expect(packed.code, packed.stderr).toBe(0);
    tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
    // An empty project of its own; the dependencies come from npm's cache where it holds them, and
    // --engine-strict refuses any of them whose engines do not accept this Node.
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'packed-install-check', private: true }));
    installed = await run(
      'npm',
      ['install', '--prefer-offline', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', tarball],
      app,
      240_000,
    );
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds what users need and none of the project tests, docs images or benchmark', () => {
    const files = tarList(tarball);
    for (const needed of [
      'package/bin/conformance.js',
      'package/cli/main.ts',
      'package/contracts/sources/event-management.md',
      'package/contracts/catalog.ts',
      'package/suites/engine/suite-runner.ts',
      'package/generators/index.ts',
      'package/reporters/conformance-report.schema.json',
      'package/suites/engine/run-config.schema.json',
      'package/suites/engine/filter-dialect-types.d.ts',
      'package/fixtures/reference/server.ts',
      'package/fixtures/faults/registry.ts',
    ])
      expect(files, needed).toContain(needed);
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(files.filter((f) => /^package\/(tests|docs|bench)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /test-(support|client|helpers)\.ts$/.test(f))).toEqual([]);
  });

  it('installs with npm install', () => {
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(join(app, 'node_modules/.bin/conformance'))).toBe(true);
  });

  it('names its configuration schema as editors resolve it from the project, and exports it', async () => {
    // What `serve --write-config run.json` writes as "$schema" in the project's folder.
    const reference = await run(
      'npx',
      [
        '--no-install',
        'tsx',
        '-e',
        "import { configSchemaReference } from './node_modules/platform-conformance/suites/engine/run-config.ts'; console.log(configSchemaReference('run.json'));",
      ],
      app,
      60_000,
    );
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.stdout.trim()).toBe('./node_modules/platform-conformance/suites/engine/run-config.schema.json');
    expect(existsSync(join(app, reference.stdout.trim()))).toBe(true);
    const exported = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        "import schema from 'platform-conformance/run-config.schema.json' with { type: 'json' }; console.log(schema.title);",
      ],
      app,
      60_000,
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim()).toBe('Run configuration of the conformance suite');
  }, 90_000);

  it('npx conformance rules --json lists the catalog', async () => {
    const r = await run('npx', ['--no-install', 'conformance', 'rules', '--json'], app, 60_000);
    expect(r.code, r.stderr).toBe(0);
    const rules = JSON.parse(r.stdout) as { id: string }[];
    expect(rules.length).toBeGreaterThan(400);
    expect(rules.map((x) => x.id)).toContain('event-management/events/severity-range');
  }, 90_000);

  it('npx conformance explain RULE --json finds the tests, fault variants and reference lines of the package', async () => {
    const r = await run(
      'npx',
      ['--no-install', 'conformance', 'explain', 'event-management/events/severity-range', '--json'],
      app,
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const x = JSON.parse(r.stdout) as {
      tests: { file: string; line: number }[];
      faults: unknown[];
      reference: unknown[];
    };
    expect(x.tests.length).toBeGreaterThan(0);
    expect(x.tests.every((t) => t.file.startsWith('suites/') && t.line > 0)).toBe(true);
    // The package ships the fixtures (`files` in package.json); without them explain says so instead.
    expect(x.faults.length).toBeGreaterThan(0);
    expect(x.reference.length).toBeGreaterThan(0);
  }, 90_000);

  it('npx conformance run --service technical-token-manager runs against the embedded reference and passes', async () => {
    const r = await run(
      'npx',
      [
        '--no-install',
        'conformance',
        'run',
        '--service',
        'technical-token-manager',
        '--report-dir',
        'out',
        '--seed',
        '1',
      ],
      app,
      180_000,
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Conformance PASSED');
    const report = JSON.parse(readFileSync(join(app, 'out/conformance-report.json'), 'utf8')) as {
      rules: { id: string; status: string }[];
      tool: { name: string };
    };
    expect(report.tool.name).toBe('platform-conformance');
    expect(report.rules.length).toBeGreaterThan(50);
    expect(report.rules.every((x) => x.id.startsWith('technical-token-manager/'))).toBe(true);
    expect(report.rules.filter((x) => x.status === 'passed').length).toBeGreaterThan(30);
    expect(readdirSync(join(app, 'out/allure-results')).length).toBeGreaterThan(0);
  }, 240_000);
});

/** The paths inside a tarball. */
function tarList(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
}
