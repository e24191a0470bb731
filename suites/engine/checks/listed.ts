import type { RuleContext } from '../rule-test.ts';

/** What `listed` and `notListed` judge: the ids a list answer holds and the one asked about. */
export type ListedOptions = {
  rule: string;
  ids: readonly unknown[];
  id: unknown;
  /** The record, as a failure names it (`${what} not listed`). */
  what: string;
  /** What the deployment answered, for the failure. */
  answer: () => string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

function judge(t: RuleContext, o: ListedOptions, ok: boolean, title: string, expected: string): boolean {
  const d = { title, severity: 'high' as const, expected, received: ok ? '' : o.answer() };
  if (o.soft) return t.verify(o.rule, ok, d);
  t.check(o.rule, ok, d);
  return true;
}

/** A list answer holds a record. Returns whether it does. */
export function listed(t: RuleContext, o: ListedOptions): boolean {
  return judge(t, o, o.ids.includes(o.id), `${o.what} not listed`, `a list holding ${String(o.id)}`);
}

/** A list answer does not hold a record. Returns whether it does not. */
export function notListed(t: RuleContext, o: ListedOptions): boolean {
  return judge(t, o, !o.ids.includes(o.id), `${o.what} listed`, `a list without ${String(o.id)}`);
}
