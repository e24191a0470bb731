import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';
import { EM, entry, validHar, validReport } from './untrusted-samples.ts';

/** Two reports of `n` rules each (all passed; all failed with a failure), and one that breaks the schema in every rule. */
function bulkReports(dir: string, n: number): { a: string; b: string; bad: string } {
  const base = validReport();
  const rule = base.rules[0];
  const failure = {
    title: 't',
    severity: 'high',
    expected: 'e',
    received: 'r',
    test: 't',
    replay: 'npx conformance replay x',
  };
  const many = (status: string, withFailure: boolean) => ({
    ...base,
    rules: Array.from({ length: n }, (_, i) => ({
      ...rule,
      id: `event-management/bulk/rule-${i}`,
      status,
      ...(withFailure ? { failure } : {}),
    })),
  });
  const files = { a: join(dir, `a-${n}.json`), b: join(dir, `b-${n}.json`), bad: join(dir, `bad-${n}.json`) };
  writeFileSync(files.a, JSON.stringify(many('passed', false)));
  writeFileSync(files.b, JSON.stringify(many('failed', true)));
  // Every rule breaking the schema: refused as fast (collecting every schema error was quadratic).
  writeFileSync(files.bad, JSON.stringify(many('failed', false)));
  return files;
}

/** CPU time (user + system, ms) of a command of the CLI, and its result. */
function cpuOf(args: string[]): { ms: number; code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(
    '/usr/bin/time',
    ['-f', 'cpu-s %U %S', process.execPath, join(root, 'bin/conformance.js'), ...args],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 180_000,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const m = /cpu-s ([\d.]+) ([\d.]+)/.exec(res.stderr);
  return {
    ms: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN,
    code: res.status,
    stdout: res.stdout,
    stderr: res.stderr.replace(/(Command exited with non-zero status \d+\n)?cpu-s .*\n?$/, ''),
  };
}

describe('bounded work on any input', () => {
  // Linear, not quadratic: ten times the rules cost well under a hundred times the CPU. CPU time,
  // not wall time, and a ratio, so that a loaded machine does not change the verdict.
  test('compare of two reports of 100,000 rules costs about ten times 10,000 (linear)', () => {
    const dir = tempDir('big-compare');
    const cost: Record<number, { compared: number; refused: number }> = {};
    for (const n of [10_000, 100_000]) {
      const f = bulkReports(dir, n);
      const compared = cpuOf(['compare', f.a, f.b, '--json']);
      expect(compared.stderr).toBe('');
      expect(compared.code).toBe(1);
      expect((JSON.parse(compared.stdout) as { newlyFailed: unknown[] }).newlyFailed.length).toBe(n);
      const refused = cpuOf(['compare', f.a, f.bad]);
      expect(refused.code).toBe(2);
      cost[n] = { compared: compared.ms, refused: refused.ms };
    }
    process.stdout.write(`compare CPU at 10,000 / 100,000 rules: ${JSON.stringify(cost)}\n`);
    expect(cost[100_000].compared / cost[10_000].compared).toBeLessThan(30);
    expect(cost[100_000].refused / cost[10_000].refused).toBeLessThan(30);
  }, 400_000);

  test('audit and compare of 10 MB inputs stay under 500 MiB', () => {
    const dir = tempDir('memory');
    const har = validHar() as unknown as { log: { entries: unknown[] } };
    const one = entry(`http://127.0.0.1:1${EM}/events`);
    one.response.content.text = JSON.stringify({ items: 'x'.repeat(2000) });
    har.log.entries = Array.from({ length: 4200 }, () => one);
    writeFileSync(join(dir, 'big.har'), JSON.stringify(har));
    const report = validReport();
    const big = { ...report, rules: report.rules.map((r) => ({ ...r, statement: 'y'.repeat(40_000) })) };
    writeFileSync(join(dir, 'big.json'), JSON.stringify(big));
    for (const args of [
      ['audit', join(dir, 'big.har'), '--report-dir', join(dir, 'out')],
      ['compare', join(dir, 'big.json'), join(dir, 'big.json')],
    ]) {
      const res = spawnSync(
        '/usr/bin/time',
        ['-f', 'maxrss-kb %M', process.execPath, join(root, 'bin/conformance.js'), ...args],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 60_000,
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const kb = Number(/maxrss-kb (\d+)/.exec(res.stderr)?.[1]);
      process.stdout.write(
        `${args[0]} of a ${args[0] === 'audit' ? 'HAR' : 'report'} of ~10 MB: peak RSS ${Math.round(kb / 1024)} MiB\n`,
      );
      expect(kb).toBeGreaterThan(0);
      expect(kb / 1024).toBeLessThan(500);
    }
  }, 130_000);
});
