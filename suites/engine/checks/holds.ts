import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge } from './judge.ts';

/** What `holds` judges: a condition of `rule` the other kinds do not name, and how its failure reads. */
export type HoldsOptions = {
  rule: string;
  ok: boolean;
  /** The failure, as its title reads. */
  failure: string;
  expected: string;
  /** What the deployment did, worked out only when the condition is false. */
  received: string | (() => string);
  /** The test goes on when false (it fails at its end). */
  soft?: boolean;
  /** The condition rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
  /** High unless told. */
  severity?: Severity;
};

/**
 * A condition of a rule holds: false ends the test (or, `soft`, fails it at its end; with a
 * `reading`, warns). Returns the condition.
 */
export function holds(t: RuleContext, o: HoldsOptions): boolean {
  const { rule, ok } = o;
  const d = {
    title: o.failure,
    severity: o.severity ?? 'high',
    expected: o.expected,
    received: ok ? '' : typeof o.received === 'function' ? o.received() : o.received,
  };
  return judge(t, rule, ok, d, o);
}
