import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../contracts/services.ts';
import yaml from 'js-yaml';
import {
  buildCoverage,
  coverageRows,
  renderCoverage,
  renderCoverageRows,
  type CoverageRow,
} from '../cli/coverage-command.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const withSuite = SERVICES.filter((s) => {
  const dir = join(root, 'suites', s);
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.spec.ts'));
});

// Collected once (the suites' tests are collected, not run) for both blocks.
const built = buildCoverage();

// The coverage list is computed, never stored: these are the invariants it must keep.
describe('the coverage of the catalog (computed)', async () => {
  const coverage = await built;

  for (const service of withSuite) {
    const of = Object.entries(coverage).filter(([id]) => id.startsWith(`${service}/`));

    it(`gives every testable ${service} rule a test, and no untestable one`, () => {
      expect(of.filter(([, e]) => e.testable && e.tests.length === 0).map(([id]) => id)).toEqual([]);
      expect(of.filter(([, e]) => !e.testable && e.tests.length > 0).map(([id]) => id)).toEqual([]);
    });

    it(`gives every testable MUST and SHOULD ${service} rule a fault variant that must make it fail`, () => {
      const missing = of.filter(
        ([, e]) => e.testable && (e.level === 'MUST' || e.level === 'SHOULD') && e.faults.length === 0,
      );
      expect(missing.map(([id]) => id)).toEqual([]);
    });
  }
});

/** The text of line `line` (1-based) of a project file. */
const lineOf = (file: string, line: number) => readFileSync(join(root, file), 'utf8').split('\n')[line - 1];

describe('conformance coverage: the listing', async () => {
  const coverage = await built;

  it('places every test of the list at the call that declares it', () => {
    const rows = coverageRows(coverage);
    const tests = rows.flatMap((r) => r.tests);
    expect(tests.length).toBeGreaterThan(rows.length);
    expect(tests.filter((x) => x.line === undefined).map((x) => `${x.file} › ${x.name}`)).toEqual([]);
    // A rule a response check judges on every answer is placed at the check's definition.
    const notACall = tests.filter(
      (x) => !/\w*[tT]est(?:\.each)?\(|^export const \w+: ResponseCheck = /.test(lineOf(x.file, x.line!)),
    );
    expect(notACall.map((x) => `${x.file}:${x.line}`)).toEqual([]);
  });

  it('shows each rule with its tests (file:line) and fault variants, and says what a rule lacks', () => {
    const [id, entry] = Object.entries(coverage).find(([, e]) => e.tests.length && e.faults.length)!;
    const text = renderCoverageRows(coverageRows({ [id]: entry }));
    expect(text).toMatch(new RegExp(`^${id}  ${entry.level}$`, 'm'));
    expect(text).toMatch(/^ {2}test {3}suites\/\S+\.spec\.ts:\d+ {2}\S/m);
    for (const f of entry.faults) expect(text).toContain(`  fault  ${f}\n`);

    const bare: CoverageRow = coverageRows({ 'x/y/z': { level: 'MUST', testable: true, tests: [], faults: [] } })[0];
    expect(bare.gaps).toEqual(['no-test', 'no-fault-variant']);
    expect(renderCoverageRows([bare])).toBe('x/y/z  MUST\n  test   none\n  fault  none\n');
    expect(coverageRows({ 'x/y/z': { level: 'MAY', testable: false, tests: [], faults: [] } })[0].gaps).toEqual([]);
  });

  it('--service, --rule and --json select and print the rules as data', async () => {
    const res = await runCli(
      [
        'coverage',
        '--service',
        'technical-token-manager',
        '--rule',
        'technical-token-manager/access-token/*',
        '--json',
      ],
      { timeoutMs: 120_000 },
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { rules: CoverageRow[]; summary: Record<string, number> };
    const wanted = Object.keys(coverage).filter((id) => id.startsWith('technical-token-manager/access-token/'));
    expect(out.rules.map((r) => r.id)).toEqual(wanted);
    expect(out.summary.rules).toBe(wanted.length);
    for (const r of out.rules) {
      expect(r.tests.map((x) => `${x.file} › ${x.name}`)).toEqual(coverage[r.id].tests);
      expect(r.tests.every((x) => typeof x.line === 'number')).toBe(true);
      expect(r.faults).toEqual(coverage[r.id].faults);
    }
  }, 150_000);

  it('--uncovered lists only the rules with a gap (none for the token manager)', async () => {
    const res = await runCli(['coverage', '--service', 'technical-token-manager', '--uncovered'], {
      timeoutMs: 120_000,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^0 rules with a gap, 0 testable/m);
  }, 150_000);

  it("--write FILE keeps the selected rules' list as YAML", async () => {
    const file = join(tempDir('coverage'), 'coverage.yaml');
    const res = await runCli(
      [
        'coverage',
        '--service',
        'technical-token-manager',
        '--rule',
        'technical-token-manager/identification/*',
        '--write',
        file,
      ],
      {
        timeoutMs: 120_000,
      },
    );
    expect(res.code, res.stderr).toBe(0);
    const wanted = Object.fromEntries(
      Object.entries(coverage).filter(([id]) => id.startsWith('technical-token-manager/identification/')),
    );
    expect(readFileSync(file, 'utf8')).toBe(renderCoverage(wanted));
    expect(yaml.load(readFileSync(file, 'utf8'))).toEqual(wanted);
  }, 150_000);
});
