// What the recipient-groups spec files share.
import type { RuleContext } from '../engine/rule-test.ts';
import { hasOtherTenant, send } from './notification-client.ts';
import { createRecipient } from './notification-resources.ts';

// The group records are declared only as "string": membership and names are judged by what a
// record mentions (the unique recipient and group names the suite chose), never by field names.
// The document gives no documented way to learn a group's ID, so it is taken best-effort from the
// create answer or the search (groupId, recipientGroupId or id: see groupIdFrom); a deployment
// whose answers show none has the tests that need the ID skipped, with that reason.
export function getGroup(t: RuleContext, id: number | string, as?: 'otherTenant') {
  return send(t, { method: 'GET', path: `/recipient/recipientgroup/${id}` }, as);
}

export function putGroup(t: RuleContext, body: unknown, as?: 'otherTenant') {
  return send(t, { method: 'PUT', path: '/recipient/recipientgroup', json: body }, as);
}

export function searchGroups(t: RuleContext, name: unknown, as?: 'otherTenant') {
  return send(t, { method: 'POST', path: '/recipient/recipientgroup/search', json: { name } }, as);
}

/** A recipient ID that is not a recipient of the home tenant: another tenant's, else a deleted one. */
export async function foreignRecipientId(t: RuleContext): Promise<number> {
  if (hasOtherTenant(t)) return (await createRecipient(t, { as: 'otherTenant' })).id;
  const r = await createRecipient(t);
  await send(t, { method: 'DELETE', path: `/recipient/${r.id}` });
  return r.id;
}
