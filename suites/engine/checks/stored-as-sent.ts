import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge, type Judging } from './judge.ts';

/** What `storedAsSent` judges: a record read back, and the members it must hold as they were sent. */
export type StoredAsSentOptions = {
  rule: string;
  /** The record read back (undefined when the answer held none). */
  stored: object | undefined;
  /** Each member and its value as sent (compared with ===), or a test of it `(v) => boolean` where the service makes the value. */
  sent: Readonly<Record<string, unknown>>;
  /** What was stored, as a failure names it (`not stored as sent: ${what}`). */
  what: string;
  /** The answer that carried the record: it must be one of `statuses` (200 unless told) when given. */
  res?: HttpResponse;
  statuses?: readonly number[];
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** A record read back holds each member as sent (and the answer that carried it, when given, is one of `statuses`). */
export function storedAsSent(t: RuleContext, o: StoredAsSentOptions): boolean {
  const { res, statuses = [200] } = o;
  const stored = o.stored as Record<string, unknown> | undefined;
  const wrong = Object.entries(o.sent).filter(([k, want]) =>
    typeof want === 'function' ? !(want as (v: unknown) => boolean)(stored?.[k]) : stored?.[k] !== want,
  );
  const ok = (res === undefined || statuses.includes(res.status)) && stored !== undefined && wrong.length === 0;
  const d = {
    title: `not stored as sent: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: Object.entries(o.sent)
      .map(([k, v]) => `${k} ${typeof v === 'function' ? '(as the document says)' : JSON.stringify(v)}`)
      .join(', '),
    received:
      (wrong.length ? wrong.map(([k]) => `${k} ${JSON.stringify(stored?.[k]) ?? 'absent'}`).join(', ') : 'as sent') +
      (res ? ` (${describeResponse(res, 120)})` : ''),
    ...(res ? { response: res } : {}),
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
