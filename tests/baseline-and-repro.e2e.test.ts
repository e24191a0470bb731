import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { root, runCli, type CliResult } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

/**
 * One verdict in every artifact: a baseline's known failures, stale entries and typos read the
 * same in the exit code, the console, JUnit, summary.md and a merge of shards; and a failure's
 * reproduction runs as printed.
 */
const run = promisify(execFile);
const RULE = 'technical-token-manager/tokens-payload/too-many-user-tenants';
const SERVICE = ['--service', 'technical-token-manager'];

const PASSING = 'technical-token-manager/tokens-payload/required-fields';
const NOT_RUN = 'notification/recipients/name-unique';
const RECIPIENT_RULE = 'notification/recipients/delete-by-id';

let ref: RunningReference;
/** A deployment whose recipients outlive their DELETE: a failure on a resource the run created. */
let recipients: RunningReference;
let dir: string;
let config: string;
let first: CliResult;
let baseline: CliResult;
let accepted: CliResult;
let stale: CliResult;
let typo: CliResult;
let shards: CliResult[];
let recipientRun: CliResult;

const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');
const report = (d: string) => JSON.parse(read(d, 'conformance-report.json')) as ConformanceReport;
const ttm = (out: string, extra: string[] = []) =>
  runCli(['run', '--config', config, ...SERVICE, '--report-dir', join(dir, out), ...extra], { timeoutMs: 240_000 });
const shardDirs = () => [1, 2, 3].map((i) => join(dir, `shard-${i}`));

// The runs are made here, side by side where one does not need another's output (each waits on
// the deployment as much as it computes); the tests read what each left.
beforeAll(async () => {
  ref = await startReference({ port: 0, faults: ['sixth-user-tenant-accepted'] });
  recipients = await startReference({ port: 0, faults: ['recipient-delete-does-not-delete'] });
  dir = tempDir('baseline');
  config = join(dir, 'run.json');
  writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
  const recipientsConfig = join(dir, 'recipients.json');
  writeFileSync(recipientsConfig, JSON.stringify(referenceRunConfig(recipients, recipients.baseUrl)));
  writeFileSync(join(dir, 'stale.json'), JSON.stringify({ failures: [RULE, PASSING, NOT_RUN] }));
  writeFileSync(join(dir, 'typo.json'), JSON.stringify([`${RULE}s`]));
  [first, stale, typo, recipientRun] = await Promise.all([
    ttm('first'),
    ttm('stale', ['--baseline', join(dir, 'stale.json')]),
    ttm('typo', ['--baseline', join(dir, 'typo.json')]),
    runCli(
      [
        'run',
        '--config',
        recipientsConfig,
        '--service',
        'notification',
        '--rule',
        RECIPIENT_RULE,
        '--report-dir',
        join(dir, 'recipients'),
        '--reporter',
        'list',
      ],
      { timeoutMs: 240_000 },
    ),
  ]);
  // The baseline the later runs use is the one `conformance baseline` writes from the first report.
  baseline = await runCli(['baseline', join(dir, 'first')]);
  writeFileSync(join(dir, 'known-failures.json'), baseline.stdout);
  const known = ['--baseline', join(dir, 'known-failures.json')];
  [accepted, ...shards] = await Promise.all([
    ttm('accepted', known),
    // The shards of one run take one seed (merge refuses shards of different runs).
    ...shardDirs().map((_, i) => ttm(`shard-${i + 1}`, ['--shard', `${i + 1}/3`, '--seed', '5', ...known])),
  ]);
}, 600_000);
afterAll(async () => {
  await ref?.close();
  await recipients?.close();
});

describe('a baseline reaches every artifact', () => {
  test('the first run fails the rule; `conformance baseline` writes the baseline from its report', async () => {
    expect(first.code).toBe(1);
    expect(report(join(dir, 'first')).rules.find((r) => r.id === RULE)?.status).toBe('failed');
    expect(baseline.code).toBe(0);
    expect(JSON.parse(baseline.stdout)).toEqual({ failures: [RULE] });
  });

  test('with every failure accepted: exit 0, JUnit without failures, the rule a known failure everywhere', async () => {
    const out = join(dir, 'accepted');
    const res = accepted;
    expect(res.code, res.stdout).toBe(0);
    expect(read(out, 'junit.xml')).toMatch(/<testsuites [^>]*failures="0"/);
    expect(read(out, 'junit.xml')).toMatch(/known failure, accepted by the baseline/);
    const summary = read(out, 'summary.md');
    expect(summary).toMatch(/### Known failures/);
    expect(summary).not.toMatch(/### Failed rules/);
    expect(res.stdout).toMatch(/1 known failure accepted/);
    expect(res.stdout).not.toMatch(/Failed rules:/);
  }, 130_000);

  test('a stale entry is named as the reason in the console, JUnit and summary.md; rules not run are never stale', async () => {
    const passing = PASSING;
    const out = join(dir, 'stale');
    const res = stale;
    const r = report(out);
    expect(r.rules.find((x) => x.id === passing)?.status).toBe('passed');
    expect(r.baseline?.stale).toEqual([passing]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toContain(`stale: ${passing}`);
    expect(read(out, 'junit.xml')).toContain('stale baseline entry');
    expect(read(out, 'summary.md')).toMatch(/### Stale baseline entries/);
  }, 130_000);

  test('an ID that is not a rule is refused as a configuration slip (exit 2), not called stale', async () => {
    const res = typo;
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /not a rule of the catalog: technical-token-manager\/tokens-payload\/too-many-user-tenantss/,
    );
  });

  test('merge of shards that each passed with the baseline passes, with one HAR and the Allure results of all', async () => {
    for (const res of shards) expect(res.code, res.stdout).toBe(0);
    const out = join(dir, 'merged');
    const res = await runCli(['merge', ...shardDirs(), '--report-dir', out]);
    expect(res.code, res.stdout).toBe(0);
    expect(report(out).baseline?.accepted).toEqual([RULE]);
    const entries = (JSON.parse(read(out, 'exchanges.har')) as { log: { entries: unknown[] } }).log.entries.length;
    const perShard = shardDirs().map(
      (s) => (JSON.parse(read(s, 'exchanges.har')) as { log: { entries: unknown[] } }).log.entries.length,
    );
    expect(entries).toBe(perShard.reduce((a, b) => a + b, 0));
    expect(read(out, 'junit.xml')).toMatch(/<testsuites [^>]*failures="0"/);
  }, 400_000);
});

describe('a reproduction runs as printed', () => {
  test('the replay line names the config and the report folder as given (absolute here); replay goes to the configured target', async () => {
    const failure = report(join(dir, 'first')).rules.find((r) => r.id === RULE)!.failure!;
    expect(failure.replay).toBe(
      `npx conformance replay ${join(dir, 'first')}/conformance-report.json ${RULE} --config ${config}`,
    );
    // The line as printed, in a shell, where the run ran.
    const { stdout } = await run('bash', ['-c', failure.replay ?? ''], {
      cwd: root,
      env: { ...process.env, CONFORMANCE_TARGET: '', CONFORMANCE_CONFIG: '' },
      encoding: 'utf8',
      timeout: 120_000,
    }).catch((e: { stdout: string; code: number }) => {
      expect(e.code).toBe(1);
      return e;
    });
    expect(stdout).toContain(`against ${ref.baseUrl} (your configuration's target)`);
    expect(stdout).toContain(`STILL FAILS: ${RULE}`);
  }, 130_000);

  test('the curl sends to CONFORMANCE_TARGET with the credentials `conformance token` prints for it', async () => {
    const failure = report(join(dir, 'first')).rules.find((r) => r.id === RULE)!.failure!;
    // No host in it: the reader of a report or a log sends to the deployment they name.
    expect(failure.curl).not.toContain(new URL(ref.baseUrl).host);
    // POST /oauthTokens authenticates with the X-SPACE-AUTH-KEY; other requests with a bearer token.
    expect(failure.curl).toContain('${CONFORMANCE_SPACE_AUTH_KEY:?');
    const env = { CONFORMANCE_TARGET: ref.baseUrl };
    const key = await runCli(['token', '--config', config, '--space-auth-key'], { env });
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout.trim()).toMatch(/^Basic [A-Za-z0-9+/=]+$/);
    const token = await runCli(['token', '--config', config], { env });
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]*$/);
    // The curl as printed, in a shell, with the key from the command: the deployment answers it as
    // in the run (the fault issues tokens for six user tenants).
    // Asynchronously: the reference answers from this process, which must not block while curl waits.
    const { stdout: answer } = await run('bash', ['-c', failure.curl!], {
      env: { ...process.env, ...env, CONFORMANCE_SPACE_AUTH_KEY: key.stdout.trim() },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    // Unset, the shell says how to set each, and sends nothing.
    const message = async (extra: Record<string, string>) => {
      try {
        await run('bash', ['-c', failure.curl!], {
          env: { PATH: process.env.PATH, ...extra },
          encoding: 'utf8',
          timeout: 30_000,
        });
      } catch (e) {
        return String((e as { stderr?: string }).stderr);
      }
      return '';
    };
    expect(await message({})).toContain('CONFORMANCE_TARGET: set it to the deployment to send this to');
    expect(await message(env)).toContain(`npx conformance token --config ${config}`);
  });

  test('a failure on a resource the run created says that its curl alone cannot recreate it, and to replay', async () => {
    // The rule fails on GET of a recipient the run created (and deleted: the fault keeps it).
    const out = join(dir, 'recipients');
    const rule = RECIPIENT_RULE;
    const res = recipientRun;
    expect(res.code).toBe(1);
    const failure = report(out).rules.find((r) => r.id === rule)!.failure!;
    expect(failure.created).toEqual({ kind: 'recipient', id: expect.stringMatching(/^\d+$/) as string });
    expect(failure.curl).toContain(`/recipient/${failure.created!.id}'`);
    const note = `Note: the request names recipient ${failure.created!.id}, which the run created and its cleanup deletes: the curl alone cannot recreate it; the replay command does`;
    expect(res.stdout).toContain(note);
    expect(read(out, 'junit.xml')).toContain(note);
  });
});
