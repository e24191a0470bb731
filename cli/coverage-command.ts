import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { loadRules } from '../contracts/catalog.ts';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';
import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { ruleSelected } from '../suites/engine/rule-index.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { RESPONSE_CHECKS, responseCheckFile } from '../suites/engine/checks/response-checks.ts';
import { collectSuites } from '../suites/engine/suite-runner.ts';
import { resolveServices } from './rules-command.ts';
import { declares, suiteSites } from './rule-sites.ts';
import { UsageError } from './usage-error.ts';

const FAULTS_REGISTRY = fileURLToPath(new URL('../fixtures/faults/registry.ts', import.meta.url));

/** How the coverage list names what a response check judges: every answer of every test. */
export const EVERY_ANSWER = 'every answer a test receives';

export interface CoverageEntry {
  level: string;
  testable: boolean;
  tests: string[];
  faults: string[];
}

/** The fault variants, or undefined when this installation does not hold them. */
async function faultsIfInstalled(): Promise<FaultVariant[] | undefined> {
  if (!existsSync(FAULTS_REGISTRY)) return undefined;
  const { loadFaults } = (await import(
    pathToFileURL(FAULTS_REGISTRY).href
  )) as typeof import('../fixtures/faults/registry.ts');
  return loadFaults();
}

/** Rule → the tests that declare it → the fault variants that must make it fail (of the given services). */
export async function buildCoverage(
  services: readonly ServiceName[] = SERVICES,
): Promise<Record<string, CoverageEntry>> {
  return (await coverageOf(services)).entries;
}

/**
 * The tests of the given services that cover each of their rules (`file › name`, collected, not
 * run), with the response checks that judge a rule on every answer.
 */
export async function testsByRule(services: readonly ServiceName[]): Promise<Map<string, string[]>> {
  const context: RunContext = {
    config: { target: 'http://127.0.0.1:0' },
    seed: 0,
    runs: 1,
    timeoutMs: 1000,
    maxBodyBytes: 1024,
    rate: 0,
    concurrency: 1,
    runId: 'coverage',
    prefix: 'cfzcoverage',
    ruleGlobs: [],
    profile: 'full',
  };
  const tests = await collectSuites(context, services);
  return new Map(
    loadRules(services).map((r) => [
      r.id,
      [
        ...tests.filter((x) => x.rules.includes(r.id)).map((x) => `${x.file} › ${x.name}`),
        // A check of the registry that judges every answer a test receives covers its rules in every test.
        ...RESPONSE_CHECKS.filter((c) => c.rules.includes(r.id)).map(
          (c) => `${responseCheckFile(c)} › ${EVERY_ANSWER}`,
        ),
      ].sort(),
    ]),
  );
}

/** The coverage of the given services, with the fault variants (undefined when this installation does not hold them). */
export async function coverageOf(
  services: readonly ServiceName[],
): Promise<{ entries: Record<string, CoverageEntry>; faults: FaultVariant[] | undefined; faultsInstalled: boolean }> {
  const [tests, faults] = await Promise.all([testsByRule(services), faultsIfInstalled()]);
  const entries: Record<string, CoverageEntry> = {};
  for (const r of loadRules(services)) {
    entries[r.id] = {
      level: r.level,
      testable: r.testable !== false,
      tests: tests.get(r.id) ?? [],
      faults: (faults ?? [])
        .filter((f) => f.breaks.includes(r.id))
        .map((f) => f.id)
        .sort(),
    };
  }
  return { entries, faults, faultsInstalled: faults !== undefined };
}

/** The coverage list as YAML (rule → level, testable, tests, faults), for `--write FILE`. */
export function renderCoverage(c: Record<string, CoverageEntry>): string {
  return `# Written by \`npx conformance coverage --write\`: computed from the catalog, the suites and the fault variants.\n${yaml.dump(c, { lineWidth: -1, noRefs: true })}`;
}

export interface CoverageOptions {
  /** A file to write the selected rules' coverage list to, as YAML. */
  write?: string;
  service?: string[];
  rule?: string[];
  uncovered?: boolean;
  json?: boolean;
}

/** One rule of the listing (the `--json` shape). */
export interface CoverageRow {
  id: string;
  level: string;
  testable: boolean;
  /** Each test at the line of its declaration (absent when it cannot be found). */
  tests: { file: string; line?: number; name: string }[];
  /** null: the fault variants are not in this installation. */
  faults: string[] | null;
  /** What the rule lacks: a test (testable rules), a fault variant (testable MUST and SHOULD rules). */
  gaps: ('no-test' | 'no-fault-variant')[];
}

/** The line of a response check's file that defines the check (`export const …: ResponseCheck`). */
function checkLine(file: string): { line?: number } {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  if (!existsSync(path)) return {};
  const i = readFileSync(path, 'utf8')
    .split('\n')
    .findIndex((l) => /^export const \w+: ResponseCheck = /.test(l));
  return i < 0 ? {} : { line: i + 1 };
}

/** Whether the rule's entry should carry a fault variant: testable MUST and SHOULD rules. */
const wantsFault = (e: CoverageEntry) => e.testable && (e.level === 'MUST' || e.level === 'SHOULD');

/** The listing rows of `entries`, each test placed at its declaration line. */
export function coverageRows(entries: Record<string, CoverageEntry>, faultsInstalled = true): CoverageRow[] {
  const { tests: declarations } = suiteSites([]);
  return Object.entries(entries).map(([id, e]) => {
    const gaps: CoverageRow['gaps'] = [];
    if (e.testable && e.tests.length === 0) gaps.push('no-test');
    if (faultsInstalled && wantsFault(e) && e.faults.length === 0) gaps.push('no-fault-variant');
    return {
      id,
      level: e.level,
      testable: e.testable,
      tests: e.tests.map((name) => {
        const file = name.split(' › ')[0];
        if (name.endsWith(` › ${EVERY_ANSWER}`)) return { file, ...checkLine(file), name: EVERY_ANSWER };
        const d = declarations.find((x) => x.file === file && declares(x, name));
        return { file, ...(d ? { line: d.line } : {}), name: name.slice(file.length + 3) };
      }),
      faults: faultsInstalled ? e.faults : null,
      gaps,
    };
  });
}

/** The listing as the terminal shows it; every piece read from a file passes `forTerminalLine`. */
export function renderCoverageRows(rows: CoverageRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    out.push(`${t(r.id)}  ${t(r.level)}${r.testable ? '' : '  not testable'}`);
    for (const x of r.tests)
      out.push(`  test   ${t(x.line === undefined ? x.file : `${x.file}:${x.line}`)}  ${t(x.name)}`);
    if (r.testable && !r.tests.length) out.push('  test   none');
    if (r.faults) for (const f of r.faults) out.push(`  fault  ${t(f)}`);
    if (r.gaps.includes('no-fault-variant')) out.push('  fault  none');
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/**
 * `conformance coverage`: per rule, its tests (file:line) and fault variants, computed from the
 * catalog, the suites (collected, not run) and the variants, filtered by `--service`, `--rule` and
 * `--uncovered`, or as JSON; exit 1 when a selected testable rule has no test. `--write FILE` also
 * writes the selected rules' list to FILE as YAML.
 */
export async function coverageCommand(opts: CoverageOptions): Promise<number> {
  const globs = (opts.rule ?? []).flatMap((g) => g.split(',')).filter(Boolean);
  const services = resolveServices(opts.service);
  const { entries, faultsInstalled } = await coverageOf(services);
  const chosen = Object.fromEntries(Object.entries(entries).filter(([id]) => ruleSelected(id, globs)));
  const selected = coverageRows(chosen, faultsInstalled).filter((r) => !opts.uncovered || r.gaps.length > 0);
  if (opts.write) {
    if (!faultsInstalled)
      throw new UsageError('--write needs the fault variants (fixtures/faults), which this installation does not hold');
    const ids = new Set(selected.map((r) => r.id));
    writeFileSync(opts.write, renderCoverage(Object.fromEntries(Object.entries(chosen).filter(([id]) => ids.has(id)))));
  }
  const testable = selected.filter((r) => r.testable);
  const withTest = testable.filter((r) => r.tests.length > 0).length;
  const gated = selected.filter((r) => wantsFault(entries[r.id]));
  const withFault = gated.filter((r) => !r.gaps.includes('no-fault-variant')).length;
  const exit = testable.length > withTest ? 1 : 0;

  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          rules: selected,
          summary: {
            rules: selected.length,
            testable: testable.length,
            withTest,
            mustOrShould: gated.length,
            withFaultVariant: faultsInstalled ? withFault : null,
          },
        },
        null,
        2,
      )}\n`,
    );
    return exit;
  }
  process.stdout.write(renderCoverageRows(selected));
  const faultSummary = faultsInstalled
    ? `${withFault}/${gated.length} MUST/SHOULD rules with a fault variant`
    : 'fault variants: not in this installation';
  process.stdout.write(
    `${selected.length ? '\n' : ''}${selected.length} rules${opts.uncovered ? ' with a gap' : ''}, ${testable.length} testable: ${withTest} with a test, ${faultSummary}\n`,
  );
  const gaps = selected.filter((r) => r.gaps.length).length;
  if (gaps && !opts.uncovered)
    process.stdout.write(`${gaps} of them with a gap: \`npx conformance coverage --uncovered\` lists only those\n`);
  return exit;
}
