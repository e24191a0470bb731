import { listed, notListed, refused, answeredByReading, withCode } from '../engine/checks/index.ts';
import { hasOtherTenant, notificationTest as test, send, NO_OTHER } from './notification-client.ts';
import { createCategory, createGroup, groupName } from './notification-resources.ts';
import { getGroup, searchGroups } from './recipient-groups-support.ts';

test(
  ['notification/groups/search-by-name'],
  'POST /recipient/recipientgroup/search lists the matching groups, all for a blank name, none of another tenant',
  async (t) => {
    const g1 = await createGroup(t, { name: groupName(t, 'alpha') });
    const g2 = await createGroup(t, { name: groupName(t, 'beta') });
    const one = await searchGroups(t, g1.name);
    listed(t, {
      rule: 'notification/groups/search-by-name',
      res: one,
      what: 'the search by name',
      items: [g1.name],
    });
    notListed(t, {
      rule: 'notification/groups/search-by-name',
      res: one,
      what: 'the search by name',
      items: [g2.name],
    });
    const all = await searchGroups(t, '');
    listed(t, {
      rule: 'notification/groups/search-by-name',
      res: all,
      what: 'every group, to a blank search',
      items: [g1.name, g2.name],
    });
    if (hasOtherTenant(t)) {
      const other = await searchGroups(t, '', 'otherTenant');
      notListed(t, {
        rule: 'notification/groups/search-by-name',
        res: other,
        what: "the group, to another tenant's search",
        items: [g1.name],
        severity: 'critical',
      });
    } else t.notExercised('notification/groups/search-by-name', NO_OTHER);
    // SearchRequest: "name (string, name to match)", "Used for recipients and recipient groups".
    const bad = await searchGroups(t, 42);
    refused(t, {
      rule: 'notification/groups/search-by-name',
      res: bad,
      what: 'a group search whose name is the number 42',
    });
  },
  { budget: 11 },
);

test(
  ['notification/groups/delete-by-id', 'notification/errors/code-no-match'],
  'DELETE /recipient/recipientgroup/{id} removes the group; an unknown ID answers 404',
  async (t) => {
    const g = await createGroup(t);
    // The path names the one group removed: another group of a category naming both stays there.
    const keep = await createGroup(t);
    const category = await createCategory(t, {
      recipients: [
        { position: 'TO', recipientGroupId: g.id },
        { position: 'CC', recipientGroupId: keep.id },
      ],
    });
    // A group a category holds: "409 conflict" may occur on any operation, so a refusal to delete a
    // record still referenced is allowed; that it is deleted is our reading.
    const del = await send(t, { method: 'DELETE', path: `/recipient/recipientgroup/${g.id}` });
    answeredByReading(t, {
      rule: 'notification/groups/delete-by-id',
      res: del,
      what: 'deleting a group of the tenant that a category holds',
      reading: 'held-record-deletable',
      allowed: [200, 409],
      wanted: 200,
    });
    if (del.status !== 200) t.skip('the group a category holds was not deleted (409): the rest is not exercised');
    refused(t, {
      rule: 'notification/groups/delete-by-id',
      res: await getGroup(t, g.id),
      what: 'GET of the deleted group',
      ...withCode('noMatch'),
      statuses: [404],
    });
    const held = await send(t, {
      method: 'GET',
      path: `/communicationcategories/${category.id}`,
      query: { recGroup: 'true' },
    });
    listed(t, {
      rule: 'notification/groups/delete-by-id',
      res: held,
      what: `group ${keep.id} among the recipient groups of category ${category.id}, after another was deleted`,
      items: [keep.id],
      holds: (r, id) =>
        Array.isArray((r.json as { recipientGroups?: unknown })?.recipientGroups) &&
        (r.json as { recipientGroups: Array<{ recipientGroupId?: unknown }> }).recipientGroups.some(
          (x) => x?.recipientGroupId === id,
        ),
    });
    // DELETE of what is gone: 404 noMatch, or an idempotent success; the document does not say which.
    answeredByReading(t, {
      rule: 'notification/groups/delete-by-id',
      res: await send(t, { method: 'DELETE', path: `/recipient/recipientgroup/${g.id}` }),
      what: 'deleting it a second time',
      reading: 'unknown-delete-404',
      allowed: [200, 204, 404],
      wanted: 404,
      ...withCode('noMatch'),
    });
  },
  { budget: 9 },
);
