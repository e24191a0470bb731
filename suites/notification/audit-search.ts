import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext, SendOptions } from '../engine/rule-test.ts';
import { auditTime, poll, send } from './notification-client.ts';

/** An AuditResponse item as the document describes it. */
export interface AuditEntry {
  messageCategoryId?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  status?: unknown;
  fromUser?: unknown;
  fromApp?: unknown;
  emails?: unknown;
  smses?: unknown;
  pushNotifications?: unknown;
  bouncedEmails?: unknown;
  tenant?: unknown;
}

const DAY = 24 * 3600 * 1000;

/**
 * A time range around now that holds whatever the suite sent in this run, whatever time zone the
 * deployment reads `yyyy-MM-dd HH:mm:ss` in (the document names none).
 */
export function wideRange(): { startTimeRange: string; endTimeRange: string } {
  const now = Date.now();
  return { startTimeRange: auditTime(now - DAY), endTimeRange: auditTime(now + DAY) };
}

/** POST /audit/searchauditstatus over the wide range with extra filters. */
export function searchAudit(
  t: RuleContext,
  filters: Record<string, unknown> = {},
  as?: SendOptions['as'],
): Promise<HttpResponse> {
  return send(t, { method: 'POST', path: '/audit/searchauditstatus', json: { ...wideRange(), ...filters } }, as);
}

/** The entries of an audit answer (an empty list when it is not an array). */
export function entriesOf(res: HttpResponse): AuditEntry[] {
  return Array.isArray(res.json) ? (res.json as AuditEntry[]).filter((e) => !!e && typeof e === 'object') : [];
}

/** Whether an entry lists an address in one of its address lists. */
export function lists(
  entry: AuditEntry,
  field: 'emails' | 'smses' | 'pushNotifications' | 'bouncedEmails',
  address: string,
): boolean {
  const v = entry[field];
  return Array.isArray(v) && v.some((x) => typeof x === 'string' && x.toLowerCase() === address.toLowerCase());
}

/**
 * Polls the audit search until an entry lists `address` under `field` (emails unless told;
 * delivery is asynchronous: a message is queued first); returns that entry and the last answer.
 */
export async function awaitAuditEntry(
  t: RuleContext,
  address: string,
  filters: Record<string, unknown> = {},
  field: 'emails' | 'smses' | 'pushNotifications' | 'bouncedEmails' = 'emails',
): Promise<{ entry?: AuditEntry; res: HttpResponse }> {
  const res = await poll(
    () => searchAudit(t, filters),
    (r) => r.status !== 200 || entriesOf(r).some((e) => lists(e, field, address)),
  );
  return { entry: entriesOf(res).find((e) => lists(e, field, address)), res };
}

/** How an audit answer shows an address, for `listed`/`notListed`: an entry lists it under `field` (emails unless told). */
export function inAudit(field: 'emails' | 'smses' | 'pushNotifications' | 'bouncedEmails' = 'emails') {
  return (res: HttpResponse, address: string | number): boolean =>
    entriesOf(res).some((e) => lists(e, field, String(address)));
}
