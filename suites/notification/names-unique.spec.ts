// The names of recipients and recipient groups, one table: "unique within a tenant", so a name
// another record of the tenant holds is refused on create and on rename (409 conflict, or 400), a
// record's own name sent again is taken, and a name held in one tenant is taken in another.
import { accepted, genericCode, refused } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { ConfigNeed } from '../engine/config-needs.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { addressType, exampleEmail, hasOtherTenant, notificationTest as test } from './notification-client.ts';
import { postGroup, postRecipient } from './notification-resources.ts';
import { putGroup } from './recipient-groups-support.ts';
import { putRecipient, update } from './recipients-support.ts';
import { RECIPIENT, RECIPIENT_GROUP, type ResourceDescription } from './resources.ts';

interface Named extends ResourceDescription {
  rule: string;
  /** The status of a create (the document answers a recipient 201, a group 200). */
  created: readonly number[];
  budgets: { inTenant: number; acrossTenants: number };
  /** What taking a name in another tenant needs besides the other tenant. */
  otherNeeds: ConfigNeed[];
  post(t: RuleContext, name: string, as?: 'otherTenant'): Promise<HttpResponse>;
  rename(t: RuleContext, key: number, name: string): Promise<HttpResponse>;
}

const NAMED: readonly Named[] = [
  {
    ...RECIPIENT,
    rule: 'notification/recipients/name-unique',
    created: [201],
    budgets: { inTenant: 9, acrossTenants: 4 },
    otherNeeds: ['fixtures.notification.addressTypes.email'],
    post: (t, name, as) =>
      postRecipient(
        t,
        {
          recipientname: name,
          recipientdetail: [{ address: exampleEmail(t, 'dup'), addresstypeid: addressType(t, 'email') }],
        },
        as,
      ),
    rename: (t, id, name) => putRecipient(t, update(t, id, { recipientname: name })),
  },
  {
    ...RECIPIENT_GROUP,
    rule: 'notification/groups/name-unique',
    created: [200],
    budgets: { inTenant: 9, acrossTenants: 6 },
    otherNeeds: [],
    post: async (t, name, as) => (await postGroup(t, { groupName: name, recipientIds: [] }, as)).res,
    rename: (t, id, name) => putGroup(t, { groupId: id, groupName: name }),
  },
];

test.each(
  NAMED,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-conflict'],
    name: `a name a ${r.resource} of the tenant holds is refused on create and on rename`,
    options: { needs: r.needs, budget: r.budgets.inTenant },
  }),
  async (t, r) => {
    const a = await r.create(t);
    const again = await r.post(t, a.shows);
    refused(t, { rule: r.rule, res: again, what: `a second ${r.resource} named "${a.shows}"`, statuses: [409, 400] });
    genericCode(t, again, 'conflict');
    const b = await r.create(t);
    const rename = await r.rename(t, b.key, a.shows);
    refused(t, {
      rule: r.rule,
      res: rename,
      what: `renaming a ${r.resource} to "${a.shows}", which another one has`,
      statuses: [409, 400],
    });
    genericCode(t, rename, 'conflict');
    // "unique within a tenant": a record's own name, sent again on update, is held by no other record.
    accepted(t, {
      rule: r.rule,
      res: await r.rename(t, b.key, b.shows),
      what: `an update of ${r.resource} ${b.key} resending its own name "${b.shows}"`,
      statuses: [200],
    });
  },
);

test.each(
  NAMED,
  (r) => ({
    rules: [r.rule],
    name: `a name a ${r.resource} holds in one tenant is taken in another`,
    options: { needs: [...r.otherNeeds, 'principals.otherTenant'], budget: r.budgets.acrossTenants },
  }),
  async (t, r) => {
    if (!hasOtherTenant(t))
      t.needsPrincipal('principals.otherTenant', 'needs the otherTenant principal (a second tenant)');
    const a = await r.create(t);
    const res = await r.post(t, a.shows, 'otherTenant');
    accepted(t, { rule: r.rule, res, what: `"${a.shows}" in another tenant`, statuses: r.created });
  },
);
