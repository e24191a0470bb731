import type { Exchange, HttpResponse } from './http-client.ts';
import { redactText } from './redact.ts';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface FailureDetails {
  title: string;
  expected: string;
  received: string;
  severity?: Severity;
  exchange?: Exchange;
  /** The response the check judged: its exchange is the evidence (unless `exchange` is given). */
  response?: HttpResponse;
  counterexample?: unknown;
  seed?: number;
  path?: string;
  /**
   * The check rests on our reading (this ID, listed with the rule in the catalog), not on what the
   * document settles: when it does not hold the rule gets `warning`, not `failed`.
   */
  reading?: string;
}

/** A rule the target broke: the one typed failure every check throws. */
export class ConformanceFailure extends Error {
  readonly ruleId: string;
  readonly title: string;
  readonly expected: string;
  readonly received: string;
  readonly severity: Severity;
  exchange?: Exchange;
  counterexample?: unknown;
  seed?: number;
  path?: string;
  /** Where the check was called from in the suites (its identity among the checks of a rule). */
  site?: string;

  constructor(ruleId: string, d: FailureDetails) {
    // Messages go to vitest, Allure and the reports: credentials never get into them.
    d = { ...d, title: redactText(d.title), expected: redactText(d.expected), received: redactText(d.received) };
    super(`${ruleId}: ${d.title}\n  Expected: ${d.expected}\n  Received: ${d.received}`);
    this.name = 'ConformanceFailure';
    this.ruleId = ruleId;
    this.title = d.title;
    this.expected = d.expected;
    this.received = d.received;
    this.severity = d.severity ?? 'high';
    this.exchange = d.exchange;
    this.counterexample = d.counterexample;
    this.seed = d.seed;
    this.path = d.path;
  }
}

export function isConformanceFailure(e: unknown): e is ConformanceFailure {
  return !!e && typeof e === 'object' && typeof (e as { ruleId?: unknown }).ruleId === 'string' && 'expected' in e;
}
