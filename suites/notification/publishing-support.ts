// What the publishing spec files share.
import type { FormPart } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { lists, type AuditEntry } from './audit-search.ts';
import { exampleEmail, send } from './notification-client.ts';

export const HOUR = 3_600_000;

// Every publish that is accepted sends mail on a real deployment: the suite publishes only to
// addresses at example.com carrying the run prefix, and only a few times (the 400 cases send nothing).
export /** A valid PublishEmailContent without a category, to a fresh example.com address. */
function message(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    body: { message: 'Conformance suite message' },
    recipientsTo: exampleEmail(t, 'pub'),
    from: `${t.prefix}`,
    subject: 'ConformanceSubject',
    ...over,
  };
}

export function publish(t: RuleContext, body: unknown) {
  return send(t, { method: 'POST', path: '/publisher/messages', json: body });
}

/** A broadcast of a form, by default to the tenant's admins (the fewest members a broadcast reaches). */
export function broadcast(
  t: RuleContext,
  form: FormPart[],
  query: Record<string, string | undefined> = { broadcastType: 'tenantAdminsOnly' },
) {
  return send(t, { method: 'POST', path: '/broadcastEmails', query, form });
}

/** The form of a broadcast: its messageData part (a value that is not text is sent as JSON). */
export function messageData(value: unknown): FormPart[] {
  return [{ name: 'messageData', value: typeof value === 'string' ? value : JSON.stringify(value) }];
}

/** Checks that every entry of an audit answer satisfies `keep`, and whether `mine` is among them. */
export function filtered(
  entries: AuditEntry[],
  keep: (e: AuditEntry) => boolean,
  address: string,
): { all: boolean; found: boolean } {
  return { all: entries.every(keep), found: entries.some((e) => lists(e, 'emails', address)) };
}

export const REQUIRED_WITHOUT_CATEGORY = {
  recipientsTo: 'notification/publish/recipients-required-without-category',
  from: 'notification/publish/from-required-without-category',
  subject: 'notification/publish/subject-required-without-category',
  message: 'notification/publish/message-required-without-category',
} as const;
