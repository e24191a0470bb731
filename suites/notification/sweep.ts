import { leftoverRecords } from '../engine/leftover-records.ts';
import type { Sweeper } from '../engine/leftovers.ts';

/**
 * Deletes what crashed runs left in the notification service: categories first (they name
 * recipients, groups and templates), then groups, recipients, template sets, certificates and
 * the bounced addresses the suite caused. Recipients are recognised by their addresses too,
 * since their names may hold letters only.
 */
const sweep: Sweeper = async ({ send, isLeftover }) => {
  let n = 0;
  const del = async (req: Parameters<typeof send>[1]) => {
    const res = await send('notification', req);
    if (res.status < 300) n++;
  };
  const categories = await send('notification', { method: 'GET', path: '/communicationcategories/' });
  const categoryIds = leftoverRecords(categories.json, ['msgCategoryId'], isLeftover);
  if (categoryIds.length)
    await del({ method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: categoryIds.join(',') } });
  const groups = await send('notification', {
    method: 'POST',
    path: '/recipient/recipientgroup/search',
    json: { name: '' },
  });
  for (const id of leftoverRecords(groups.json, ['groupId', 'recipientGroupId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/recipient/recipientgroup/${id}` });
  const recipients = await send('notification', { method: 'POST', path: '/recipient/search', json: { name: '' } });
  for (const id of leftoverRecords(recipients.json, ['recipientid', 'recipientId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/recipient/${id}` });
  const sets = await send('notification', { method: 'GET', path: '/template/templatelistdetails' });
  for (const id of leftoverRecords(sets.json, ['templatesetId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/template/${id}` });
  const certificates = await send('notification', { method: 'GET', path: '/certificatestore/' });
  const emails = Array.isArray(certificates.json)
    ? (certificates.json as unknown[]).filter((e): e is string => typeof e === 'string' && isLeftover(e))
    : [];
  for (const e of emails) await del({ method: 'DELETE', path: `/certificatestore/${encodeURIComponent(e)}` });
  const bounced = await send('notification', { method: 'GET', path: '/communicationcategories/bouncedEmailIds' });
  const addresses = leftoverRecords(bounced.json, ['emailId'], isLeftover).map(String);
  if (addresses.length)
    await del({ method: 'DELETE', path: '/communicationcategories/bouncedEmailIds', json: { emailList: addresses } });
  return n;
};

export default sweep;
