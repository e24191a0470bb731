import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig, THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { PODMAN, RUN_LIMITS, importBaseImage, nativeAddons } from './container-base-image.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// The image of the Containerfile, built and run with podman as this machine has it (no Docker
// engine, no registry: the base is this machine's Node, imported). Skipped only where podman
// cannot run at all.
const podmanWorks = spawnSync(PODMAN[0], [...PODMAN.slice(1), 'info'], { stdio: 'ignore' }).status === 0;
if (!podmanWorks)
  console.warn(
    'tests/container-image.test.ts skipped: podman cannot run here (`podman --storage-driver vfs --runtime runc info` failed; .ci/run installs podman and runc with apt)',
  );

interface Exec {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs podman without blocking the event loop (the reference it talks to runs in this process). */
function podman(args: string[], env: Record<string, string> = {}): Promise<Exec> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(PODMAN[0], [...PODMAN.slice(1), ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

const tag = `${process.pid}-${Date.now().toString(36)}`;
const base = `localhost/conformance-node-base:${tag}`;
const image = `localhost/conformance:${tag}`;
let ref: RunningReference;
let built: Exec | undefined;

describe.skipIf(!podmanWorks)('the container image', () => {
  beforeAll(async () => {
    ref = await startReference({ host: '127.0.0.1', port: 0, throttle: 8, throttledClients: THROTTLED_CLIENTS });
    const started = Date.now();
    importBaseImage(join(tempDir('base-rootfs'), 'rootfs'), nativeAddons(join(root, 'node_modules')), base);
    const baseMs = Date.now() - started;
    // --layers=false: one commit instead of one per instruction (the vfs driver copies the whole
    // tree at each); the registry is reached by the build's `npm ci` only.
    built = await podman([
      'build',
      '--layers=false',
      '--network',
      'host',
      ...RUN_LIMITS,
      '--build-arg',
      `NODE_BASE=${base}`,
      '-f',
      join(root, 'Containerfile'),
      '-t',
      image,
      root,
    ]);
    console.log(`container image: base imported in ${baseMs} ms, built in ${built.ms} ms`);
  }, 600_000);

  afterAll(async () => {
    await podman(['rmi', '-f', image, base]);
    await ref?.close();
  });

  it('builds from the Containerfile on a Node base given as NODE_BASE', async () => {
    expect(built?.code, built?.stderr.slice(-3000)).toBe(0);
    const inspect = await podman(['image', 'inspect', image, '--format', '{{json .Config}} {{.Size}}']);
    const [config, size] = [
      inspect.stdout.slice(0, inspect.stdout.lastIndexOf(' ')),
      inspect.stdout.trim().split(' ').pop(),
    ];
    const c = JSON.parse(config) as { User: string; Entrypoint: string[]; Env: string[]; WorkingDir: string };
    expect(c.User).toBe('node');
    expect(c.Entrypoint).toEqual(['node', '/opt/conformance/bin/conformance.js']);
    expect(c.Env).toContain('CONFORMANCE_REPORT_DIR=/reports');
    expect(c.WorkingDir).toBe('/reports');
    console.log(`container image: ${(Number(size) / 1e6).toFixed(0)} MB (the stand-in base included)`);
    // Production dependencies only, and no tests.
    const ls = await podman([
      'run',
      '--rm',
      ...RUN_LIMITS,
      '--entrypoint',
      'sh',
      image,
      '-c',
      'ls /opt/conformance/node_modules; ls /opt/conformance; ls /opt/conformance/cli',
    ]);
    expect(ls.stdout).toMatch(/^tsx$/m);
    expect(ls.stdout).toMatch(/^vitest$/m);
    expect(ls.stdout).not.toMatch(/^(typescript|eslint|prettier|playwright-core)$/m);
    expect(ls.stdout).not.toMatch(/^tests$/m);
    expect(ls.stdout).not.toMatch(/\.test\.ts$/m);
  });

  it('runs one service against a deployment on the host, configured by CONFORMANCE_CONFIG, reporting to /reports', async () => {
    const reports = tempDir('container-reports');
    chmodSync(reports, 0o777); // the image runs as uid 1000, the folder is root's
    const run = await podman(
      [
        'run',
        '--rm',
        '--network',
        'host',
        ...RUN_LIMITS,
        '-v',
        `${reports}:/reports`,
        '-e',
        'CONFORMANCE_CONFIG',
        image,
        'run',
        '--service',
        'technical-token-manager',
        '--probe-throttling',
        '--seed',
        '7',
      ],
      { CONFORMANCE_CONFIG: JSON.stringify(referenceRunConfig(ref, ref.baseUrl)) },
    );
    console.log(`container image: one-service run in ${run.ms} ms`);
    expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
    const report = JSON.parse(readFileSync(join(reports, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('passed');
    expect(report.target).toBe(ref.baseUrl);
    expect(report.seed).toBe(7);
    expect(new Set(report.rules.map((r) => r.service))).toEqual(new Set(['technical-token-manager']));
    expect(report.rules.filter((r) => r.status === 'passed').length).toBeGreaterThan(40);
    for (const f of ['summary.md', 'junit.xml', 'report.html', 'exchanges.har'])
      expect(statSync(join(reports, f)).uid, f).toBe(1000);
    // The secret the variable carried is in no output.
    const secret = referenceRunConfig(ref, ref.baseUrl).tokenManager!.clientSecret;
    expect(readFileSync(join(reports, 'exchanges.har'), 'utf8')).not.toContain(secret);
  }, 300_000);

  it('downloads nothing at run time: with no network at all it runs rules against its embedded reference', async () => {
    const reports = tempDir('container-offline');
    chmodSync(reports, 0o777);
    const res = await podman([
      'run',
      '--rm',
      '--network',
      'none',
      ...RUN_LIMITS,
      '-v',
      `${reports}:/reports`,
      image,
      'run',
      '--service',
      'technical-token-manager',
      '--rule',
      'technical-token-manager/identification/*',
    ]);
    expect(res.code, `${res.stdout.slice(-2000)}\n${res.stderr.slice(-2000)}`).toBe(0);
    const report = JSON.parse(readFileSync(join(reports, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.embeddedReference).toBe(true);
    expect(report.verdict).toBe('passed');
  }, 120_000);

  it('reads a mounted configuration file: doctor --config /config/run.json', async () => {
    const config = tempDir('container-config');
    chmodSync(config, 0o755);
    writeFileSync(join(config, 'run.json'), JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
    chmodSync(join(config, 'run.json'), 0o644);
    const res = await podman([
      'run',
      '--rm',
      '--network',
      'host',
      ...RUN_LIMITS,
      '-v',
      `${config}:/config:ro`,
      image,
      'doctor',
      '--config',
      '/config/run.json',
    ]);
    expect(res.code, `${res.stdout}\n${res.stderr}`).not.toBe(2);
    expect(res.stdout).toContain(`conformance doctor — ${ref.baseUrl}`);
    expect(res.stdout).toMatch(/tokenManager\s+ready/);
  }, 120_000);
});
