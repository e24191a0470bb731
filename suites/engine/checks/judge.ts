import type { FailureDetails } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';

/** How a word of the vocabulary counts a failure, when its options say so. */
export interface Judging {
  /** Record the check and go on (`t.verify`) instead of ending the test when it fails. */
  soft?: boolean;
  /** The condition rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
}

/**
 * The last step of every word: `ok` judged for `rule` with the word's failure `d`, ending the test
 * when false (the default), recording it and going on (`soft`), or warning (`reading`). Returns
 * `ok` where the test goes on, and true where a false one would have ended it.
 */
export function judge(t: RuleContext, rule: string, ok: boolean, d: FailureDetails, how: Judging): boolean {
  if (how.reading !== undefined) return t.reading(how.reading, rule, ok, d);
  if (how.soft) return t.verify(rule, ok, d);
  t.check(rule, ok, d);
  return true;
}
