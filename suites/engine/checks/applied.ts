import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge, type Judging } from './judge.ts';

/** What `applied` judges: a change's answer, and the state read back against the state it should leave. */
export type AppliedOptions = {
  rule: string;
  /** The change, as a failure names it (`not applied: ${what}`). */
  what: string;
  /** The state it should leave and the state read back (equal as JSON). */
  want: unknown;
  got: unknown;
  /** The change's answer: it must be one of `statuses` (204 unless told) when given. */
  res?: HttpResponse;
  statuses?: readonly number[];
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** A change (an ADD, a DELETE, an unsubscribe) was answered with success and left the state it names. */
export function applied(t: RuleContext, o: AppliedOptions): boolean {
  const { res, statuses = [204] } = o;
  const want = JSON.stringify(o.want);
  const got = JSON.stringify(o.got);
  const ok = (res === undefined || statuses.includes(res.status)) && got === want;
  const d = {
    title: `not applied: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `${res ? `HTTP ${statuses.join(' or ')}, then ` : ''}${want}`,
    received: `${res ? `HTTP ${res.status}, then ` : ''}${got}`,
    ...(res ? { response: res } : {}),
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
