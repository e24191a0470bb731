import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// The CI example the README links, docs/ci/conformance.yml, run as GitHub's runner would run its `run:`
// steps, against the reference with a fault on: the configuration from a "secret" without
// target, the target from a "variable", the baseline made as its header says. Its `uses:` steps
// are not run; the files they read must exist.

interface Step {
  name?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  run?: string;
}

interface Workflow {
  jobs: Record<string, { 'timeout-minutes'?: number; steps: Step[] }>;
}

const FILE = 'docs/ci/conformance.yml';
const text = readFileSync(join(root, FILE), 'utf8');
const workflow = yaml.load(text) as Workflow;
const [job] = Object.values(workflow.jobs);
const INSTALL = 'npm ci --omit=dev --prefix conformance';
const RULE = 'technical-token-manager/tokens-payload/too-many-user-tenants';
/** Keeps the run under a minute: one service, two rules (one the fault breaks, one it does not). */
const SELECTION = `--service technical-token-manager --rule ${RULE} --rule technical-token-manager/access-token/access-token-jwt`;

/** Evaluates the `${{ secrets.X }}` and `${{ vars.X }}` expressions the example uses (and only those). */
function expand(value: string, secrets: Record<string, string>, vars: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const m = /^(secrets|vars)\.(\w+)$/.exec(expr);
    if (!m) throw new Error(`${FILE} uses an expression this test does not evaluate: ${expr}`);
    const value = (m[1] === 'secrets' ? secrets : vars)[m[2]];
    if (value === undefined) throw new Error(`${FILE} reads ${expr}, which the test does not set`);
    return value;
  });
}

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve) => {
    // As the runner runs a `run:` step on Linux: bash --noprofile --norc -eo pipefail.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => resolve({ code, log }));
  });
}

/** Runs the job's `run:` steps in a workspace holding the user's repository (known-failures.json) and the tool at `conformance/`. */
async function runJob(workspace: string, secrets: Record<string, string>, vars: Record<string, string>) {
  const summaryFile = join(workspace, '..', `step-summary-${Date.now()}`);
  writeFileSync(summaryFile, '');
  const ran: { step: string; code: number | null }[] = [];
  let failed = false;
  let log = '';
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? '';
    if (failed && step.if !== 'always()') continue;
    if (step.uses) continue;
    if (step.run?.trim() === INSTALL) {
      // `npm ci` of the tool's checkout: this checkout's node_modules stands in.
      expect(existsSync(join(workspace, 'conformance', 'node_modules'))).toBe(true);
      continue;
    }
    let script = expand(step.run ?? '', secrets, vars);
    if (/conformance\.js run /.test(script)) script = `${script} ${SELECTION}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summaryFile,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), secrets, vars);
    const res = await bash(script, env, workspace);
    log += res.log;
    ran.push({ step: name, code: res.code });
    if (res.code !== 0) failed = true;
  }
  return { ran, log, summary: readFileSync(summaryFile, 'utf8') };
}

/** The paths the `uses:` steps that run whatever happened read. */
function pathsReadLater(): string[] {
  return job.steps
    .filter((s) => s.uses && s.if === 'always()')
    .flatMap((s) => [s.with?.report_paths, s.with?.path])
    .filter((p): p is string => typeof p === 'string');
}

let ref: RunningReference;
let workspace: string;
let config: Record<string, unknown>;

beforeAll(async () => {
  ref = await startReference({ port: 0, faults: ['sixth-user-tenant-accepted'] });
  workspace = join(tempDir('ci-example'), 'workspace');
  const { target: _, ...withoutTarget } = referenceRunConfig(ref, ref.baseUrl);
  config = withoutTarget;
  mkdirSync(workspace, { recursive: true });
  symlinkSync(root, join(workspace, 'conformance'));
});
afterAll(async () => {
  await ref?.close();
});

describe(`the CI example (${FILE})`, () => {
  it('is the workflow the README links, and no stale copy of it is shown', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`](${FILE})`);
    const copies = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .filter((b) => b.includes('name: conformance'));
    for (const copy of copies) expect(copy).toBe(text);
  });

  it('bounds the job, publishes JUnit and keeps the report whatever the run did, and says where the baseline comes from', () => {
    expect(job['timeout-minutes']).toBeGreaterThan(0);
    const junit = job.steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'));
    expect(junit?.if).toBe('always()');
    expect(junit?.with?.report_paths).toBe('conformance-report/junit.xml');
    expect(job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.if).toBe('always()');
    expect(text).toMatch(/npx conformance baseline conformance-report > known-failures\.json/);
    const run = job.steps.find((s) => /conformance\.js run /.test(s.run ?? ''));
    expect(run?.run).toMatch(/--target "\$STAGING_URL"/);
    expect(run?.run).toMatch(/--baseline known-failures\.json/);
    expect(run?.env?.CONFORMANCE_CONFIG).toBe('${{ secrets.CONFORMANCE_CONFIG }}');
    // No step outside `run:` bodies reads a file with cat: a missing file would fail the step.
    for (const s of job.steps) expect(s.run ?? '', s.name).not.toMatch(/^\s*cat /m);
  });

  it('with a failure not in the baseline: the run fails, the summary, JUnit and report are there for the later steps', async () => {
    writeFileSync(join(workspace, 'known-failures.json'), '{"failures": []}\n');
    const res = await runJob(workspace, { CONFORMANCE_CONFIG: JSON.stringify(config) }, { STAGING_URL: ref.baseUrl });
    expect(res.ran.find((r) => r.step === 'Conformance run')?.code, res.log.slice(-3000)).toBe(1);
    expect(res.ran.every((r) => r.step === 'Conformance run' || r.code === 0)).toBe(true);
    expect(res.summary).toMatch(/Conformance failed/);
    expect(res.log).toContain(`::error title=${RULE}`);
    // The console's failure block ends with what reproduces it.
    expect(res.log, res.log.slice(-4000)).toMatch(/^ {6}Reproduce with:\n {8}curl /m);
    expect(res.log).toContain(`Replay: npx conformance replay conformance-report/conformance-report.json ${RULE}`);
    for (const p of pathsReadLater()) expect(existsSync(join(workspace, p)), p).toBe(true);
    expect(readFileSync(join(workspace, 'conformance-report', 'junit.xml'), 'utf8')).toMatch(/failures="1"/);
  }, 120_000);

  it('with the baseline made as the header says: the run passes, JUnit has no failure', async () => {
    // The header's command, with the tool run from its checkout as the workflow runs it.
    const command = /npx conformance baseline conformance-report > known-failures\.json/.exec(text)![0];
    const made = await bash(
      command.replace('npx conformance', 'node conformance/bin/conformance.js'),
      { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      workspace,
    );
    expect(made.code, made.log).toBe(0);
    expect(JSON.parse(readFileSync(join(workspace, 'known-failures.json'), 'utf8'))).toEqual({ failures: [RULE] });
    const res = await runJob(workspace, { CONFORMANCE_CONFIG: JSON.stringify(config) }, { STAGING_URL: ref.baseUrl });
    expect(
      res.ran.map((r) => r.code),
      res.log.slice(-3000),
    ).toEqual(res.ran.map(() => 0));
    expect(res.summary).toMatch(/Conformance passed/);
    // The baseline's line is a paragraph of its own, not one more row of the table above it.
    expect(res.summary).toMatch(/\|\n\nBaseline `known-failures\.json`/);
    for (const p of pathsReadLater()) expect(existsSync(join(workspace, p)), p).toBe(true);
    const junit = readFileSync(join(workspace, 'conformance-report', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    expect(junit).toMatch(/known failure, accepted by the baseline/);
  }, 120_000);

  it('with a configuration the run refuses (exit 2): the step summary still says so, and no later step fails', async () => {
    const { tokenManager: _, ...broken } = config;
    const fresh = join(tempDir('ci-example'), 'workspace');
    mkdirSync(fresh, { recursive: true });
    symlinkSync(root, join(fresh, 'conformance'));
    writeFileSync(join(fresh, 'known-failures.json'), '{"failures": []}\n');
    const res = await runJob(fresh, { CONFORMANCE_CONFIG: JSON.stringify(broken) }, { STAGING_URL: ref.baseUrl });
    expect(res.ran.find((r) => r.step === 'Conformance run')?.code, res.log.slice(-3000)).toBe(2);
    expect(res.ran.filter((r) => r.step !== 'Conformance run').every((r) => r.code === 0)).toBe(true);
    expect(res.summary).toMatch(/no report/);
  }, 60_000);
});
