// What the certificate spec files share.
import type { RuleContext } from '../engine/rule-test.ts';
import { certificateForm, send } from './notification-client.ts';

// GET /certificatestore/ is declared only as "string" (the email IDs of the calling tenant): the
// suite looks there for the email IDs it stored.
export function listing(t: RuleContext, as?: 'otherTenant' | 'operator') {
  return send(t, { method: 'GET', path: '/certificatestore/' }, as);
}

export function put(t: RuleContext, emailid: string, p: Parameters<typeof certificateForm>[0], as?: 'otherTenant') {
  return send(
    t,
    { method: 'PUT', path: `/certificatestore/${encodeURIComponent(emailid)}`, form: certificateForm(p) },
    as,
  );
}

export function del(t: RuleContext, emailid: string, as?: 'otherTenant') {
  return send(t, { method: 'DELETE', path: `/certificatestore/${encodeURIComponent(emailid)}` }, as);
}
