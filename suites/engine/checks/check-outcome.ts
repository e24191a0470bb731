// What the check vocabulary's table tests read back from one call of a word.
import type { RuleContext, RuleFailure } from '../rule-test.ts';
import type { OutcomeStatus } from '../outcome-status.ts';
import { checkContext } from './check-test-context.ts';

/** One call of a word: the rule's status after it, what it returned, whether it ended the test, its failure. */
export interface CheckOutcome {
  status?: OutcomeStatus;
  returned?: unknown;
  ended: boolean;
  failure?: RuleFailure;
}

/** Calls a word in a fresh context that declares `rules`, and reads back what it did to `rules[0]`. */
export function outcomeOf(rules: string[], call: (t: RuleContext) => unknown): CheckOutcome {
  const { t, meta } = checkContext(rules);
  let returned: unknown;
  let ended = false;
  try {
    returned = call(t);
  } catch {
    ended = true;
  }
  const o = meta.outcomes[rules[0]];
  return { status: o?.status, returned, ended, failure: o?.failure ?? (o?.warning as RuleFailure | undefined) };
}
