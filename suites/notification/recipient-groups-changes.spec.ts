import { listed, notListed, refused } from '../engine/checks/index.ts';
import { hasOtherTenant, notificationTest as test, NO_OTHER } from './notification-client.ts';
import { createGroup, groupName } from './notification-resources.ts';
import { searchGroups } from './recipient-groups-support.ts';

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
