import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { contractPath, type Level, type Rule } from '../contracts/catalog.ts';
import { SERVICES, SERVICE_INFO, type ServiceName } from '../contracts/services.ts';
import type { RuleOutcome } from '../suites/engine/rule-test.ts';
import type { ReasonCode } from '../suites/engine/unjudged.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { redactValue } from '../suites/engine/redact.ts';
import { CONFIG_PLACEHOLDER, shellQuote } from '../suites/engine/curl.ts';

export type RuleStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'observed' | 'not-exercised';

export interface RuleResult {
  id: string;
  service: ServiceName;
  level: Level;
  section: string;
  quote: string;
  statement: string;
  status: RuleStatus;
  /** Why a rule was skipped or not exercised. */
  reason?: string;
  /** Why a skipped or not-exercised rule has no verdict, as a stable code (every such rule carries one). */
  reasonCode?: RuleOutcome['reasonCode'];
  /** What was seen, for UNSPECIFIED rules. */
  observed?: string[];
  tests: string[];
  /** The first failure (the one `replay` reproduces). */
  failure?: RuleOutcome['failure'] & { test: string; replay: string };
  /** Every distinct failure the rule met, over all its tests, the first included, each with its evidence. */
  failures?: Array<NonNullable<RuleOutcome['failure']> & { test: string }>;
  /** For `warning`: the reading that did not hold, what it expects and what the deployment did. */
  warning?: NonNullable<RuleOutcome['warning']> & { test: string; detail: string };
}

export interface RunFacts {
  toolVersion: string;
  target: string;
  embedded: boolean;
  startedAt: string;
  finishedAt: string;
  seed: number;
  options: Record<string, unknown>;
  interrupted: boolean;
  /** Why the run stopped before its end (it is then `interrupted` too). */
  stopped?: RunStop;
  http?: { requests: number; throttled: number; retriedAfter429: number; transportErrors: number };
  cleanup?: { created: number; deleted: number; outstanding: unknown[]; sweep?: string };
  errors: string[];
  services: readonly ServiceName[];
  /** `--strict`: a reading that did not hold fails its rule. */
  strict?: boolean;
  /** Where the report is written, for the replay commands it carries (relative, as the user can reach it). */
  reportFile: string;
  /** The configuration file as the user named it, for the replay commands (none: the embedded reference). */
  configFile?: string;
  /** The configuration came from CONFORMANCE_CONFIG: the commands a report prints read it there too. */
  configFromEnvironment?: boolean;
}

/**
 * A curl whose token hint names the configuration of the run (the file, or nothing when it came
 * from CONFORMANCE_CONFIG, which `conformance token` reads), as the replay line does.
 */
function withConfigFile<T extends { curl?: string }>(
  f: T,
  facts: Pick<RunFacts, 'configFile' | 'configFromEnvironment'>,
): T {
  if (!f.curl) return f;
  if (facts.configFromEnvironment) return { ...f, curl: f.curl.split(` ${CONFIG_PLACEHOLDER}`).join('') };
  // The hint sits inside a double-quoted word: a name that would need quoting keeps the placeholder.
  if (!facts.configFile || !/^[\w@%+=:,./-]+$/.test(facts.configFile)) return f;
  return { ...f, curl: f.curl.split(CONFIG_PLACEHOLDER).join(`--config ${facts.configFile}`) };
}

/**
 * The report's path as the replay lines name it, from `--report-dir` as the user gave it: an
 * absolute folder stays absolute, so that the line runs from any folder; a relative one stays
 * relative to where the run ran (`../` and all), naming no folder of the machine the user did not.
 */
export function replayReportFile(reportDirAsGiven: string, cwd = process.cwd()): string {
  const file = 'conformance-report.json';
  if (isAbsolute(reportDirAsGiven))
    return `${resolve(reportDirAsGiven).split(sep).join('/').replace(/\/$/, '')}/${file}`;
  const rel = relative(cwd, resolve(cwd, reportDirAsGiven));
  // Another drive (Windows) has no relative path: the folder's name is the best guess.
  const base = rel === '' ? '.' : isAbsolute(rel) ? basename(reportDirAsGiven) : rel;
  return `${base.split(sep).join('/')}/${file}`;
}

/**
 * The command that replays a rule's failing case, as the user can run it where the run ran. It
 * names no target: replay sends the credentials to the one its reader names (`--target`,
 * CONFORMANCE_TARGET, their configuration's), never to the report's.
 */
export function replayCommand(facts: Pick<RunFacts, 'reportFile' | 'configFile'>, ruleId: string): string {
  const word = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));
  return `npx conformance replay ${word(facts.reportFile)} ${ruleId}${facts.configFile ? ` --config ${word(facts.configFile)}` : ''}`;
}

/** One test of the run on its time line: when it started (ms after the run started) and for how long. */
export interface TestTiming {
  name: string;
  file: string;
  service: ServiceName;
  state: TestRecord['state'];
  startMs: number;
  durationMs: number;
}

/** A run that stopped early: `--max-time` reached, or the target stopped answering. */
export interface RunStop {
  reason: 'timed-out' | 'target-unresponsive';
  detail: string;
}

/** How a report's verdict line names an early end: the stop reason, else "interrupted", else nothing. */
export function earlyEnd(report: Pick<ConformanceReport, 'interrupted' | 'stopped'>): string {
  return report.stopped ? ` (${report.stopped.reason})` : report.interrupted ? ' (interrupted)' : '';
}

export interface ConformanceReport {
  tool: { name: string; version: string };
  contracts: { versions: Record<ServiceName, string>; hash: string };
  target: string;
  embeddedReference: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  seed: number;
  options: Record<string, unknown>;
  interrupted: boolean;
  stopped?: RunStop;
  verdict: 'passed' | 'failed';
  counts: { total: number; byStatus: Record<RuleStatus, number>; byLevel: Record<Level, Record<RuleStatus, number>> };
  http: RunFacts['http'];
  cleanup: RunFacts['cleanup'];
  errors: string[];
  /** Known failures applied with `--baseline`. */
  baseline?: {
    file: string;
    /** Every rule ID the baseline lists (so that `merge` can apply it again to the whole). */
    entries?: string[];
    accepted: string[];
    stale: string[];
    newFailures: string[];
  };
  /** The share of the tests this run executed (`--shard i/n`), or the shards merged. */
  shard?: string;
  rules: RuleResult[];
  /** The tests that ran, in order of their start: the report page's time line. */
  tests?: TestTiming[];
}

const STATUSES: RuleStatus[] = ['passed', 'failed', 'warning', 'skipped', 'observed', 'not-exercised'];

/** A hash of every contract file, so a report says exactly which rules it judged against. */
export function contractsHash(): string {
  const h = createHash('sha256');
  for (const s of SERVICES) {
    for (const f of ['openapi.yaml', 'rules.yaml']) {
      try {
        h.update(readFileSync(contractPath(s, f)));
      } catch {
        h.update(`missing:${s}/${f}`);
      }
    }
  }
  return `sha256:${h.digest('hex')}`;
}

function zero(): Record<RuleStatus, number> {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<RuleStatus, number>;
}

/** Counts of rule results per status and per level. */
export function countRules(rules: readonly RuleResult[]): ConformanceReport['counts'] {
  const byStatus = zero();
  const byLevel = { MUST: zero(), SHOULD: zero(), MAY: zero(), UNSPECIFIED: zero() } as Record<
    Level,
    Record<RuleStatus, number>
  >;
  for (const r of rules) {
    byStatus[r.status]++;
    byLevel[r.level][r.status]++;
  }
  return { total: rules.length, byStatus, byLevel };
}

/** Whether a failed rule of this level fails a run: MUST and SHOULD do; MAY and UNSPECIFIED never gate. */
export function gates(level: string): boolean {
  return level === 'MUST' || level === 'SHOULD';
}

/** The failed rules that fail a run: MUST and SHOULD (MAY and UNSPECIFIED never gate). */
export function gatingFailures(rules: readonly RuleResult[]): RuleResult[] {
  return rules.filter((r) => r.status === 'failed' && gates(r.level));
}

/** The heading of failed rules that do not gate (a MAY rule's bound not met), wherever failures are listed. */
export const NOT_GATING_HEADING =
  'MAY rules not met (the document permits this much, it does not require it: they do not decide the verdict)';

/** Folds the tests' outcomes into one verdict per rule of the catalog. */
export function judgeRule(
  rule: Rule,
  tests: TestRecord[],
  facts: Pick<
    RunFacts,
    'services' | 'interrupted' | 'reportFile' | 'configFile' | 'configFromEnvironment' | 'stopped'
  > & {
    strict?: boolean;
  },
): RuleResult {
  const service = rule.id.split('/')[0] as ServiceName;
  const base = {
    id: rule.id,
    service,
    level: rule.level,
    section: rule.source.section,
    quote: rule.source.quote,
    statement: rule.statement,
  };
  const covering = tests.filter((t) => t.rules.includes(rule.id));
  const names = covering.map((t) => t.name);
  if (!facts.services.includes(service))
    return { ...base, status: 'skipped', reason: 'service not selected', reasonCode: 'not-selected', tests: names };
  if (rule.testable === false)
    return {
      ...base,
      status: 'skipped',
      reason: untestableReason(rule.note),
      reasonCode: 'not-testable',
      tests: names,
    };
  const outcomes = covering.flatMap((t) => (t.outcomes[rule.id] ? [{ test: t, o: t.outcomes[rule.id] }] : []));
  if (rule.level === 'UNSPECIFIED') {
    const seen = outcomes.filter((x) => ['observed', 'failed', 'warning'].includes(x.o.status));
    if (seen.length) {
      return {
        ...base,
        status: 'observed',
        observed: seen.map(
          (x) =>
            x.o.detail ??
            (x.o.warning
              ? `${x.o.warning.title}: ${x.o.warning.received}`
              : `${x.o.failure?.title}: ${x.o.failure?.received}`),
        ),
        tests: names,
      };
    }
  }
  const failed = outcomes.find((x) => x.o.status === 'failed');
  if (failed && rule.level !== 'UNSPECIFIED') {
    // Every distinct failure of every test is reported: one never hides another.
    const failures = outcomes
      .filter((x) => x.o.status === 'failed')
      .flatMap((x) =>
        (x.o.failures ?? (x.o.failure ? [x.o.failure] : [])).map((f) => ({
          ...withConfigFile(f, facts),
          test: x.test.name,
        })),
      );
    // A reading's warning met beside a document failure is kept too (it never masks the failure).
    const warned = outcomes.find((x) => x.o.warning)?.o.warning;
    return {
      ...base,
      status: 'failed',
      tests: names,
      failure: {
        ...withConfigFile(failed.o.failure!, facts),
        test: failed.test.name,
        replay: replayCommand(facts, rule.id),
      },
      ...(failures.length > 1 ? { failures } : {}),
      ...(warned
        ? {
            warning: {
              ...withConfigFile(warned, facts),
              test: outcomes.find((x) => x.o.warning)!.test.name,
              detail: `reading ${warned.reading} (${warned.text}): expected ${warned.expected}; the deployment ${warned.received}`,
            },
          }
        : {}),
    };
  }
  // A reading of ours that did not hold: a warning (a failure only with --strict), never passed over.
  const warned = outcomes.find((x) => x.o.status === 'warning' && x.o.warning);
  if (warned && rule.level !== 'UNSPECIFIED') {
    const w = warned.o.warning!;
    const warning = {
      ...withConfigFile(w, facts),
      test: warned.test.name,
      detail: `reading ${w.reading} (${w.text}): expected ${w.expected}; the deployment ${w.received}`,
    };
    if (facts.strict)
      return {
        ...base,
        status: 'failed',
        tests: names,
        warning,
        failure: {
          title: `${w.title} (reading ${w.reading}, failed by --strict)`,
          severity: 'medium',
          expected: w.expected,
          received: w.received,
          curl: withConfigFile(w, facts).curl,
          exchange: w.exchange,
          test: warned.test.name,
          replay: replayCommand(facts, rule.id),
        },
      };
    return { ...base, status: 'warning', tests: names, warning };
  }
  // A part of the rule that a test could not exercise keeps the rule from passing on the rest.
  const partial = outcomes.find((x) => x.o.partial);
  if (partial)
    return { ...base, status: 'skipped', reason: partial.o.detail, ...code(partial.o, 'test'), tests: names };
  // Passed only on a check that held: an outcome that says passed without one is a suite defect.
  if (outcomes.some((x) => x.o.status === 'passed' && (x.o.checks ?? 0) > 0))
    return { ...base, status: 'passed', tests: names };
  if (outcomes.some((x) => x.o.status === 'observed')) {
    return {
      ...base,
      status: 'observed',
      observed: outcomes.filter((x) => x.o.status === 'observed').map((x) => x.o.detail ?? ''),
      tests: names,
    };
  }
  // A skip naming the configuration is the one to act on: it is shown over a test's own.
  const skipped =
    outcomes.find((x) => x.o.status === 'skipped' && ACTIONABLE.has(x.o.reasonCode)) ??
    outcomes.find((x) => x.o.status === 'skipped');
  if (skipped)
    return { ...base, status: 'skipped', reason: skipped.o.detail, ...code(skipped.o, 'test'), tests: names };
  const stoppedBefore = facts.stopped
    ? `${facts.stopped.detail} before its tests ran`
    : facts.interrupted
      ? 'the run was interrupted before its tests ran'
      : undefined;
  // A run stopped before a suite file started has no record of the file's tests.
  const stoppedCode: Pick<RuleResult, 'reasonCode'> = {
    reasonCode: facts.stopped?.reason === 'target-unresponsive' ? 'target-unresponsive' : 'interrupted',
  };
  if (covering.length === 0)
    return {
      ...base,
      status: 'not-exercised',
      reason: stoppedBefore ?? 'no test covers this rule',
      ...(stoppedBefore ? stoppedCode : { reasonCode: 'no-test' }),
      tests: names,
    };
  const why = outcomes.find((x) => x.o.detail)?.o;
  return {
    ...base,
    status: 'not-exercised',
    reason: stoppedBefore ?? why?.detail ?? 'its tests ended before checking it',
    ...(stoppedBefore ? stoppedCode : code(why, 'no-check')),
    tests: names,
  };
}

/**
 * Why an untestable rule is skipped, in words about the target: the catalog note without its
 * sentences about the embedded reference (which say how the reference does it, not why a
 * target cannot be judged).
 */
export function untestableReason(note: string | undefined): string {
  const kept = (note ?? '')
    .split(/(?<=[.;])\s+(?=[A-Za-z])/)
    .filter((clause) => !/\breference('s)?\b/i.test(clause))
    .join(' ')
    .trim()
    .replace(/;$/, '.');
  return kept || 'not testable from outside';
}

/** Skips that name something the user can act on (a key, a principal, the target's transport): shown first. */
const ACTIONABLE = new Set<ReasonCode | undefined>(['configuration', 'principal', 'transport']);

/**
 * The reason code of an unjudged outcome, as a report field: every skipped or not-exercised rule
 * carries one, `fallback` when its test gave none (a part a test could not exercise: `test`).
 */
function code(o: RuleOutcome | undefined, fallback: ReasonCode): Required<Pick<RuleResult, 'reasonCode'>> {
  return { reasonCode: o?.reasonCode ?? fallback };
}

/** The time line of the tests that ran, each start relative to the run's start. */
export function testTimings(tests: readonly TestRecord[], runStartedAt: string): TestTiming[] {
  const t0 = Date.parse(runStartedAt);
  return tests
    .filter((t): t is TestRecord & { startedAt: number } => t.startedAt !== undefined)
    .map((t) => ({
      name: t.name,
      file: t.file,
      service: t.service,
      state: t.state,
      startMs: Math.max(0, t.startedAt - t0),
      durationMs: Math.max(0, Math.round(t.durationMs)),
    }))
    .sort((a, b) => a.startMs - b.startMs || a.name.localeCompare(b.name));
}

/** Builds the machine-readable conformance report. */
export function buildReport(rules: Rule[], tests: TestRecord[], facts: RunFacts): ConformanceReport {
  const results = rules.filter((r) => r.status !== 'retired').map((r) => judgeRule(r, tests, facts));
  const errors = [...facts.errors];
  for (const t of tests) {
    if (t.state === 'failed' && !Object.values(t.outcomes).some((o) => o.status === 'failed')) {
      errors.push(`${t.file} › ${t.name}: ${t.errors[0] ?? 'failed without a verdict on any rule'}`);
    }
    for (const [id, o] of Object.entries(t.outcomes))
      if (o.status === 'passed' && !((o.checks ?? 0) > 0))
        errors.push(`${t.file} › ${t.name}: suite defect: ${id} reported passed without a check of it that held`);
  }
  const gateFailures = gatingFailures(results);
  const report: ConformanceReport = {
    tool: { name: 'platform-conformance', version: facts.toolVersion },
    contracts: {
      versions: Object.fromEntries(SERVICES.map((s) => [s, SERVICE_INFO[s].version])) as Record<ServiceName, string>,
      hash: contractsHash(),
    },
    target: facts.target,
    embeddedReference: facts.embedded,
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    durationMs: Date.parse(facts.finishedAt) - Date.parse(facts.startedAt),
    seed: facts.seed,
    options: facts.options,
    interrupted: facts.interrupted,
    ...(facts.stopped ? { stopped: facts.stopped } : {}),
    verdict: gateFailures.length || errors.length || facts.interrupted ? 'failed' : 'passed',
    counts: countRules(results),
    http: facts.http,
    cleanup: facts.cleanup,
    errors,
    rules: results,
  };
  const timings = testTimings(tests, facts.startedAt);
  if (timings.length) report.tests = timings;
  return redactValue(report);
}
