import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { attackRunConfig, leakedSecrets, startAttackTarget, type AttackTarget } from './credential-attacks.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';
import { sharedRunDir } from './shared-run-report.ts';

// What a target, a report or a log handed from one person to another can do to the credentials of
// whoever runs the suite: each attack of the hand-over issue, as the attacker would try it.

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every secret of `config` found in the console and in each file under `dir`, by where. */
function leaks(dir: string, console: string, config: ReturnType<typeof attackRunConfig>): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const outputs = [{ f: '(console)', text: console }];
  if (existsSync(dir))
    for (const f of filesUnder(dir)) outputs.push({ f: relative(dir, f), text: readFileSync(f, 'latin1') });
  for (const { f, text } of outputs) {
    const l = leakedSecrets(text, config);
    if (l.length) found[f] = l;
  }
  return found;
}

function readReport(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
}

describe('a target that hands out huge tokens and chooses words of the report as tokens', () => {
  let target: AttackTarget;
  beforeAll(async () => {
    target = await startAttackTarget('huge-tokens');
  });
  afterAll(() => target?.close());

  it('cannot crash the run nor make it print a secret; the report keeps its own words', async () => {
    const dir = tempDir('huge-tokens');
    const config = attackRunConfig(target.url);
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(config));
    const out = join(dir, 'out');
    const res = await runCli(['run', '--config', file, '--report-dir', out, '--runs', '2'], { timeoutMs: 180_000 });
    // 1: the target breaks rules; never 70 (an internal error) with no report.
    expect(res.code, res.stderr.slice(-2000)).toBe(1);
    expect(res.stdout + res.stderr).not.toMatch(/internal error|Regular expression too large/);
    expect(leaks(out, res.stdout + res.stderr, config)).toEqual({});
    const report = readReport(out);
    expect(reportSchemaErrors(report)).toEqual([]);
    // "event-management" and "startedAt" came back as tokens: no rule ID, service or key is redacted.
    expect(report.rules.map((r) => r.id)).toEqual(loadRules().map((r) => r.id));
    expect(report.startedAt).toMatch(/^\d{4}-/);
    // The report stays one the tool's own readers take.
    const compared = await runCli([
      'compare',
      join(out, 'conformance-report.json'),
      join(out, 'conformance-report.json'),
    ]);
    expect(compared.code, compared.stderr).toBe(0);
  }, 200_000);

  it('`doctor` against it prints no secret and no internal error', async () => {
    const dir = tempDir('huge-tokens-doctor');
    const config = attackRunConfig(target.url);
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(config));
    const res = await runCli(['doctor', '--config', file], { timeoutMs: 120_000 });
    expect(res.code).not.toBe(70);
    expect(res.stdout + res.stderr).not.toMatch(/internal error|Regular expression too large/);
    expect(leaks(join(dir, 'none'), res.stdout + res.stderr, config)).toEqual({});
  }, 130_000);
});

describe('a target that echoes the keys it receives', () => {
  let target: AttackTarget;
  beforeAll(async () => {
    target = await startAttackTarget('echo-keys');
  });
  afterAll(() => target?.close());

  it("gives back no secret: the suite's wrong keys, built from the real secret, are redacted too", async () => {
    const dir = tempDir('echo-keys');
    const config = attackRunConfig(target.url, 5);
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(config));
    const out = join(dir, 'out');
    const res = await runCli(
      ['run', '--config', file, '--report-dir', out, '--rule', 'technical-token-manager/auth/space-auth-key-basic'],
      { timeoutMs: 120_000 },
    );
    expect([0, 1]).toContain(res.code);
    // The wrong keys were sent, and echoed.
    const secret = config.tokenManager!.clientSecret;
    const decoded = target.keys.map((k) => Buffer.from(k.replace(/^Basic\s+/, ''), 'base64').toString('latin1'));
    expect(decoded).toContain(`${config.tokenManager!.clientId}:${secret}x`);
    expect(decoded.some((d) => d.endsWith(`unknown:${secret}`))).toBe(true);
    expect(leaks(out, res.stdout + res.stderr, config)).toEqual({});
  }, 130_000);
});

describe('a report someone hands over', () => {
  it('replay refuses to send your credentials to the host it names, and sends nothing there', async () => {
    const theirs = await startAttackTarget('echo-keys');
    const yours = await startAttackTarget('echo-keys');
    try {
      const dir = tempDir('handed-over');
      const report = JSON.parse(
        readFileSync(join(await sharedRunDir(), 'conformance-report.json'), 'utf8'),
      ) as ConformanceReport;
      const crafted = { ...report, target: theirs.url, embeddedReference: false };
      const file = join(dir, 'conformance-report.json');
      writeFileSync(file, JSON.stringify(crafted));
      const config = join(dir, 'run.json');
      writeFileSync(config, JSON.stringify(attackRunConfig(yours.url)));
      const rule = report.rules[0].id;
      const res = await runCli(['replay', file, rule, '--config', config], { timeoutMs: 60_000 });
      expect(res.code).toBe(2);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(theirs.url);
      expect(lines[0]).toContain(yours.url);
      expect(theirs.requests).toBe(0);
      expect(yours.requests).toBe(0);
    } finally {
      await theirs.close();
      await yours.close();
    }
  });
});
