import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `etagChanged` judges: an answer read after a change, and the ETag read before it. */
export type EtagChangedOptions = {
  rule: string;
  res: HttpResponse;
  /** The ETag header before the change. */
  before: string | undefined;
  /** The answer shows the change (when not, its ETag is not judged and the check fails). */
  settled: boolean;
  /** What was read, as a failure names it (`the ETag of ${what} did not change`). */
  what: string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

/** After a change, an answer carries an ETag other than the one before it. Returns whether it does. */
export function etagChanged(t: RuleContext, o: EtagChangedOptions): boolean {
  const { rule, res, before } = o;
  const ok = o.settled && !!res.headers.etag && res.headers.etag !== before;
  const d = {
    title: `the ETag of ${o.what} did not change with it`,
    severity: 'high' as const,
    expected: `HTTP 200 with an ETag other than ${String(before)}`,
    received: ok ? '' : describeResponse(res, 160),
  };
  return judge(t, rule, ok, d, { soft: o.soft });
}
