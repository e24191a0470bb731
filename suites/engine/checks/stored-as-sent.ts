import type { RuleContext } from '../rule-test.ts';

/** What `storedAsSent` judges: a member's value as sent and as the deployment gave it back. */
export type StoredAsSentOptions = {
  rule: string;
  /** The member, as a failure names it (`${what} not stored as sent`). */
  what: string;
  sent: unknown;
  stored: unknown;
  /** How the two are compared (strict equality unless told). */
  same?: (sent: unknown, stored: unknown) => boolean;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

const shown = (v: unknown) => String(JSON.stringify(v)).slice(0, 80);

/** A member given back as it was sent. Returns whether it was. */
export function storedAsSent(t: RuleContext, o: StoredAsSentOptions): boolean {
  const ok = o.same ? o.same(o.sent, o.stored) : o.sent === o.stored;
  const d = {
    title: `${o.what} not stored as sent`,
    severity: 'high' as const,
    expected: shown(o.sent),
    received: ok ? '' : shown(o.stored),
  };
  if (o.soft) return t.verify(o.rule, ok, d);
  t.check(o.rule, ok, d);
  return true;
}
