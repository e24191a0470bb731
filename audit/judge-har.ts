import { shellQuote } from '../suites/engine/curl.ts';
import { loadRules, type Rule } from '../contracts/catalog.ts';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { buildReport, type ConformanceReport } from '../reporters/conformance-report.ts';
import type { Har, HarEntry } from '../suites/engine/har.ts';
import type { RuleOutcome } from '../suites/engine/rule-test.ts';
import { readingText } from '../suites/engine/rule-index.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { PASSIVE_CHECKS, type PassiveCheck, type PassiveVerdict } from './passive-checks.ts';
import { recordedExchange, type RecordedExchange } from './recorded-exchange.ts';

/** Why a rule that no passive check judges is not judged from traffic. */
export const NOT_PASSIVE_REASON =
  'not judgeable from recorded traffic: it needs a probe of its own (run `npx conformance run` against the deployment)';

/** A failure found as it happened (the proxy prints one line each). */
export interface PassiveFailure {
  rule: string;
  verdict: PassiveVerdict;
}

/**
 * Judges recorded exchanges, one at a time in the order they were sent, with every passive
 * check; per rule it keeps how many checks held and the first failure.
 */
export class PassiveJudge {
  private readonly states = new Map<PassiveCheck, Map<string, unknown>>();
  private readonly held = new Map<string, number>();
  private readonly failures = new Map<string, PassiveVerdict>();
  /** Per rule, the first verdict of a reading that did not hold (a warning unless the rule fails). */
  private readonly warnings = new Map<string, PassiveVerdict>();
  private index = 0;
  exchanges = 0;

  constructor(readonly services: readonly ServiceName[] = SERVICES) {
    for (const c of PASSIVE_CHECKS) this.states.set(c, new Map());
  }

  /** Judges every entry of a whole recording, each check having seen all of them first. */
  observeAll(entries: readonly HarEntry[]): void {
    const xs = entries.map((e) => recordedExchange(e, this.index++));
    for (const check of PASSIVE_CHECKS)
      if (check.prescan) for (const x of xs) if (x.service) check.prescan(x, this.states.get(check)!);
    for (const x of xs) this.judgeExchange(x);
  }

  /** Judges one entry as it comes (the proxy); returns the rules it made fail for the first time. */
  observe(entry: HarEntry): PassiveFailure[] {
    return this.judgeExchange(recordedExchange(entry, this.index++));
  }

  private judgeExchange(x: RecordedExchange): PassiveFailure[] {
    if (!x.service || !this.services.includes(x.service)) return [];
    this.exchanges++;
    const fresh: PassiveFailure[] = [];
    for (const check of PASSIVE_CHECKS) {
      let verdicts: PassiveVerdict[];
      try {
        verdicts = check.judge(x, this.states.get(check)!);
      } catch {
        continue; // an exchange a check cannot read is not evidence either way
      }
      for (const v of verdicts) {
        if (v.ok) this.held.set(v.rule, (this.held.get(v.rule) ?? 0) + 1);
        else if (v.reading !== undefined) {
          if (!this.warnings.has(v.rule)) this.warnings.set(v.rule, v);
        } else if (!this.failures.has(v.rule)) {
          this.failures.set(v.rule, v);
          fresh.push({ rule: v.rule, verdict: v });
        }
      }
    }
    return fresh;
  }

  /** The outcome of every passively judgeable rule of the judge's services. */
  outcomes(): Record<string, RuleOutcome> {
    const out: Record<string, RuleOutcome> = {};
    for (const check of PASSIVE_CHECKS) {
      for (const rule of check.rules) {
        if (!this.services.includes(rule.split('/')[0] as ServiceName)) continue;
        const failed = this.failures.get(rule);
        const warned = this.warnings.get(rule);
        const warning = warned && {
          reading: warned.reading!,
          text: readingText(rule, warned.reading!) ?? '',
          title: warned.title,
          expected: warned.expected,
          received: warned.received,
        };
        if (failed) {
          out[rule] = {
            status: 'failed',
            failure: {
              title: failed.title,
              severity: failed.severity ?? 'high',
              expected: failed.expected,
              received: failed.received,
            },
            ...(warning ? { warning } : {}),
          };
        } else if (warning) {
          out[rule] = { status: 'warning', warning };
        } else if (this.held.get(rule)) {
          out[rule] = { status: 'passed', checks: this.held.get(rule) };
        } else {
          out[rule] ??= {
            status: 'not-exercised',
            detail: `the traffic holds no exchange this rule can be judged on (${check.name})`,
          };
        }
      }
    }
    return out;
  }
}

/** The entries of one or more HAR logs, in the order they were sent. */
export function harEntries(hars: readonly Har[]): HarEntry[] {
  const entries = hars.flatMap((h) => h.log.entries);
  return entries
    .map((e, i) => ({ e, i, t: e._startedAt ?? Date.parse(e.startedDateTime) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.e);
}

/** HAR in, per-rule outcomes out: every passively judgeable rule of `services`, judged on the traffic alone. */
export function judgeHar(
  hars: Har | readonly Har[],
  services: readonly ServiceName[] = SERVICES,
): { outcomes: Record<string, RuleOutcome>; exchanges: number } {
  const judge = new PassiveJudge(services);
  judge.observeAll(harEntries(Array.isArray(hars) ? hars : [hars as Har]));
  return { outcomes: judge.outcomes(), exchanges: judge.exchanges };
}

/** How much of the catalog some traffic covered. */
export interface AuditCoverage {
  exchanges: number;
  catalogRules: number;
  passiveRules: number;
  /** Rules judged (passed or failed) on the traffic. */
  judged: number;
}

/**
 * The conformance report of an audit: the same report a run writes, with every rule no passive
 * check judges reported `not-exercised` with the reason.
 */
export function auditReport(
  judged: { outcomes: Record<string, RuleOutcome>; exchanges: number },
  facts: {
    services: readonly ServiceName[];
    target: string;
    startedAt: string;
    toolVersion: string;
    reportFile: string;
    sources: string[];
  },
): { report: ConformanceReport; coverage: AuditCoverage } {
  const rules: Rule[] = loadRules(facts.services);
  const tests: TestRecord[] = facts.services.map((service) => {
    const outcomes = Object.fromEntries(Object.entries(judged.outcomes).filter(([id]) => id.startsWith(`${service}/`)));
    return {
      file: 'recorded traffic',
      name: `passive audit of ${service}`,
      service,
      state: Object.values(outcomes).some((o) => o.status === 'failed') ? 'failed' : 'passed',
      durationMs: 0,
      rules: Object.keys(outcomes),
      outcomes,
      budget: 0,
      readOnly: true,
      errors: [],
    };
  });
  const report = buildReport(rules, tests, {
    toolVersion: facts.toolVersion,
    target: facts.target,
    embedded: false,
    startedAt: facts.startedAt,
    finishedAt: new Date().toISOString(),
    seed: 0,
    options: { mode: 'audit', services: facts.services, sources: facts.sources },
    interrupted: false,
    errors: [],
    services: facts.services,
    reportFile: facts.reportFile,
  });
  for (const r of report.rules)
    if (r.status === 'not-exercised' && !(r.id in judged.outcomes)) r.reason = NOT_PASSIVE_REASON;
  // The judgement is replayed by auditing the same recordings again.
  for (const r of report.rules)
    if (r.failure) r.failure.replay = `npx conformance audit ${facts.sources.map(shellQuote).join(' ')}`;
  const passiveRules = Object.keys(judged.outcomes).length;
  return {
    report,
    coverage: {
      exchanges: judged.exchanges,
      catalogRules: rules.filter((r) => r.status !== 'retired').length,
      passiveRules,
      judged: report.rules.filter((r) => r.id in judged.outcomes && (r.status === 'passed' || r.status === 'failed'))
        .length,
    },
  };
}
