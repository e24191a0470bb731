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
  // Every list is read at once (a round trip instead of six); the deletions keep their order.
  const [categories, groups, recipients, sets, certificates, bounced] = await Promise.all([
    send('notification', { method: 'GET', path: '/communicationcategories/' }),
    send('notification', { method: 'POST', path: '/recipient/recipientgroup/search', json: { name: '' } }),
    send('notification', { method: 'POST', path: '/recipient/search', json: { name: '' } }),
    send('notification', { method: 'GET', path: '/template/templatelistdetails' }),
    send('notification', { method: 'GET', path: '/certificatestore/' }),
    send('notification', { method: 'GET', path: '/communicationcategories/bouncedEmailIds' }),
  ]);
  const categoryIds = leftoverRecords(categories.json, ['msgCategoryId'], isLeftover);
  if (categoryIds.length)
    await del({ method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: categoryIds.join(',') } });
  for (const id of leftoverRecords(groups.json, ['groupId', 'recipientGroupId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/recipient/recipientgroup/${id}` });
  for (const id of leftoverRecords(recipients.json, ['recipientid', 'recipientId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/recipient/${id}` });
  for (const id of leftoverRecords(sets.json, ['templatesetId', 'id'], isLeftover))
    await del({ method: 'DELETE', path: `/template/${id}` });
  const emails = Array.isArray(certificates.json)
    ? (certificates.json as unknown[]).filter((e): e is string => typeof e === 'string' && isLeftover(e))
    : [];
  for (const e of emails) await del({ method: 'DELETE', path: `/certificatestore/${encodeURIComponent(e)}` });
  const addresses = leftoverRecords(bounced.json, ['emailId'], isLeftover).map(String);
  if (addresses.length)
    await del({ method: 'DELETE', path: '/communicationcategories/bouncedEmailIds', json: { emailList: addresses } });
  return n;
};

export default sweep;
