import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceRunConfig, THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { honouredCommands } from './github-runner.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** A rule the fault breaks, listed in the baseline: a known failure. */
const KNOWN = 'technical-token-manager/access-token/access-token-jwt';

const action = yaml.load(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** Reads a `name=value` (or `name<<DELIM`) file as the runner does. */
function readCommandFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('='))
      out[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
  }
  return out;
}

/** Evaluates the `${{ inputs.x }}` and `${{ steps.id.outputs.x }}` expressions the action uses (and only those). */
function expand(text: string, inputs: Record<string, string>, steps: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) {
      expect(action.inputs, `unknown input ${m[1]}`).toHaveProperty(m[1]);
      return inputs[m[1]] ?? action.inputs[m[1]].default ?? '';
    }
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return steps[m[1]]?.[m[2]] ?? '';
    throw new Error(`action.yml uses an expression this test does not evaluate: ${expr}`);
  });
}

function bash(
  script: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // As the runner runs a `shell: bash` step.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the composite action's `run:` steps in order, as GitHub's runner would: each step with its
 * own output and summary files, its `env:` evaluated, stopping at the first failing step. `uses:`
 * steps (actions/setup-node) are not run: this machine's Node stands in.
 */
async function runAction(inputs: Record<string, string>, workspaceFiles: Record<string, string> = {}) {
  const workspace = tempDir('action-workspace');
  for (const [name, content] of Object.entries(workspaceFiles)) writeFileSync(join(workspace, name), content);
  const files = tempDir('action-files');
  const steps: Record<string, Record<string, string>> = {};
  let summary = '';
  let log = '';
  let failedStep: string | undefined;
  let exitCode = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.uses) {
      expect(step.uses).toMatch(/^actions\/setup-node@/);
      continue;
    }
    expect(step.if, 'a step with a condition: the test would have to evaluate it').toBeUndefined();
    expect(step.shell).toBe('bash');
    const output = join(files, `output-${i}`);
    const stepSummary = join(files, `summary-${i}`);
    writeFileSync(output, '');
    writeFileSync(stepSummary, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: root,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: stepSummary,
      GITHUB_ENV: join(files, 'env'),
      GITHUB_PATH: join(files, 'path'),
      RUNNER_TEMP: files,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), inputs, steps);
    const res = await bash(expand(step.run ?? '', inputs, steps), env, workspace);
    log += res.stdout + res.stderr;
    if (step.id) steps[step.id] = readCommandFile(output);
    summary += readFileSync(stepSummary, 'utf8');
    if (res.code !== 0) {
      failedStep = step.name ?? step.id;
      exitCode = res.code ?? 1;
      break;
    }
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([k, o]) => [k, expand(o.value, inputs, steps)]),
  );
  return { summary, log, outputs, failedStep, exitCode, workspace };
}

let ref: RunningReference | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action whose inputs are the ones documented', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['config', 'target', 'services', 'baseline', 'max-time', 'strict', 'read-only', 'shard']),
    );
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['verdict', 'report-dir', 'failed', 'known']));
    // Inputs reach scripts as variables: an input spliced into a script's text could run as code.
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toMatch(/\$\{\{/);
  });

  it('against a conformant deployment: summary, outputs verdict=passed and failed=0, exit 0', async () => {
    ref = await startReference({ host: '127.0.0.1', port: 0, throttle: 8, throttledClients: THROTTLED_CLIENTS });
    const res = await runAction({
      config: JSON.stringify(referenceRunConfig(ref, ref.baseUrl)),
      services: 'technical-token-manager',
      args: '--seed 3 --probe-throttling',
      'report-dir': 'reports/tm',
    });
    expect(res.failedStep, res.log.slice(-3000)).toBeUndefined();
    expect(res.summary).toMatch(/^## ✅ Conformance passed/m);
    expect(res.summary).toContain('| technical-token-manager |');
    expect(res.outputs).toMatchObject({
      verdict: 'passed',
      failed: '0',
      known: '0',
      'report-dir': join(res.workspace, 'reports/tm'),
      'exit-code': '0',
    });
    expect(existsSync(join(res.workspace, 'reports/tm/conformance-report.json'))).toBe(true);
    expect(res.log).not.toMatch(/^::error/m);
  }, 180_000);

  it('against a deployment that breaks rules, with a baseline: failed counts the new failures, known the accepted; annotations name them and why it fails', async () => {
    ref = await startReference({ host: '127.0.0.1', port: 0, faults: ['access-token-not-a-jwt'] });
    const res = await runAction(
      {
        config: JSON.stringify(referenceRunConfig(ref, ref.baseUrl)),
        services: 'technical-token-manager',
        strict: 'true',
        shard: '1/1',
        baseline: 'known-failures.json',
        args: '--seed 3',
      },
      { 'known-failures.json': JSON.stringify({ failures: [KNOWN] }) },
    );
    expect(res.failedStep).toBe('Verdict');
    expect(res.exitCode).toBe(1);
    expect(res.summary).toMatch(/^## ❌ Conformance failed/m);
    expect(res.outputs.verdict).toBe('failed');
    expect(res.outputs.known).toBe('1');
    const report = JSON.parse(
      readFileSync(join(res.workspace, 'conformance-report/conformance-report.json'), 'utf8'),
    ) as ConformanceReport;
    expect(report.baseline?.accepted).toEqual([KNOWN]);
    expect(Number(res.outputs.failed)).toBe(report.baseline?.newFailures.length);
    expect(Number(res.outputs.failed)).toBeGreaterThan(0);
    expect(res.outputs['report-dir']).toBe(join(res.workspace, 'conformance-report'));
    const annotations = honouredCommands(res.log).filter((c) => c.command === 'error');
    const perRule = annotations.filter((a) => a.line.startsWith('::error title=technical-token-manager/'));
    expect(perRule.length).toBe(Math.min(Number(res.outputs.failed), 50));
    expect(perRule.map((a) => a.line).join('\n')).not.toContain(`title=${KNOWN}::`);
    for (const a of perRule) expect(a.line).toMatch(/^::error title=technical-token-manager\/[^:, ]+::[^\r\n]+$/);
    // And one that says why the run failed, naming what the baseline accepted.
    expect(annotations.length - perRule.length).toBe(1);
    expect(annotations.at(-1)!.line).toMatch(
      new RegExp(
        `^::error title=conformance run::exit 1: ${res.outputs.failed} rules? failed \\(.*; 1 known failure accepted by the baseline$`,
      ),
    );
  }, 180_000);

  it('when the configuration is bad: no report, verdict=error, exit 2, and one annotation that says why', async () => {
    const res = await runAction({ config: '{"target": 1}', services: 'technical-token-manager' });
    expect(res.failedStep).toBe('Verdict');
    expect(res.exitCode).toBe(2);
    expect(res.outputs).toMatchObject({ verdict: 'error', failed: '0', known: '0', 'exit-code': '2' });
    expect(res.summary).toContain('no report (exit 2)');
    const annotations = honouredCommands(res.log).filter((c) => c.command === 'error');
    expect(annotations.map((a) => a.line)).toEqual([
      expect.stringMatching(
        /^::error title=conformance run::exit 2: bad usage or configuration: CONFORMANCE_CONFIG is not valid: target: must be a string/,
      ),
    ]);
  }, 60_000);

  it('when the run ended some other way without a report (killed): one annotation says so', async () => {
    const res = await runAction({ config: '{"target": 1}', args: '--seed' }, {});
    // Exit 2 from the command line's parser: the tool annotates it itself.
    expect(res.exitCode).toBe(2);
    expect(honouredCommands(res.log).filter((c) => c.command === 'error')).toHaveLength(1);
    const file = join(tempDir('action-outputs'), 'output');
    writeFileSync(file, '');
    const script = await bash(
      `"${root}/node_modules/.bin/tsx" "${root}/deploy/github/action-outputs.ts" no-such-dir 137`,
      { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: file },
      root,
    );
    expect(script.stdout).toMatch(/^::error title=conformance run::the run wrote no report \(exit 137\)/m);
    expect(readCommandFile(file)).toMatchObject({ verdict: 'error', failed: '0', known: '0' });
  }, 60_000);

  // The exits that end a run before its report: the run itself leaves the one annotation.
  it.each([
    [
      2,
      ['--seed', 'x'],
      /^::error title=conformance run::exit 2: bad usage or configuration: --seed takes a whole number/,
    ],
    [3, [], /^::error title=conformance run::exit 3: target unreachable: cannot reach http:\/\/127\.0\.0\.1:1: /],
  ])('exit %i with --reporter github: one annotation that says why', async (code, args, annotation) => {
    const dir = tempDir('action-exits');
    const config = join(dir, 'run.json');
    const credentials = { clientId: 'c', clientSecret: 's', appName: 'a', appVersion: '1', hostTenant: 't' };
    writeFileSync(config, JSON.stringify({ target: 'http://127.0.0.1:1', tokenManager: credentials }));
    const res = await runCli([
      'run',
      '--config',
      config,
      '--service',
      'technical-token-manager',
      '--reporter',
      'github',
      '--report-dir',
      join(dir, 'r'),
      ...args,
    ]);
    expect(res.code).toBe(code);
    const annotations = honouredCommands(res.stdout + res.stderr).filter((c) => c.command === 'error');
    expect(annotations.map((a) => a.line)).toEqual([expect.stringMatching(annotation)]);
  });
});
