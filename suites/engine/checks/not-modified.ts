import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `notModified` judges: the answer to a conditional GET whose `If-None-Match` matches. */
export type NotModifiedOptions = {
  rule: string;
  res: HttpResponse;
  /** The request, as a failure names it. */
  what: string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

/** A matching `If-None-Match` is answered 304 without a body. Returns whether it was. */
export function notModified(t: RuleContext, o: NotModifiedOptions): boolean {
  const { rule, res, what } = o;
  const ok = res.status === 304 && res.text === '';
  const d = {
    title: `${what} not answered 304 without a body`,
    severity: 'high' as const,
    expected: 'HTTP 304, no body',
    received: ok ? '' : describeResponse(res, 160),
  };
  return judge(t, rule, ok, d, { soft: o.soft });
}
