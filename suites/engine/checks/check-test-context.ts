// What the check vocabulary's table tests share: a test context of their own and an answer to judge.
import type { HttpResponse } from '../http-client.ts';
import { RuleContext, type RuleTestMeta } from '../rule-test.ts';

/** A context of an event management test that declares `rules`, with no run behind it. */
export function checkContext(rules: string[]): { t: RuleContext; meta: RuleTestMeta } {
  const meta: RuleTestMeta = { rules, outcomes: {}, service: 'event-management', budget: 1, readOnly: true };
  const t = new RuleContext({ context: { config: {} } } as never, 'event-management', meta, 's', {
    task: { name: 'x' },
  } as never);
  return { t, meta };
}

/** A JSON answer of `status` (no body when `json` is undefined). */
export const answer = (status: number, json?: unknown): HttpResponse =>
  ({
    status,
    headers: {},
    contentType: 'application/json',
    text: json === undefined ? '' : JSON.stringify(json),
    json,
  }) as HttpResponse;
