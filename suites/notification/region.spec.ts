import { listed, notListed, everyItem } from '../engine/checks/index.ts';
import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { entriesOf, inAudit, searchAudit } from './audit-search.ts';
import {
  addressType,
  exampleEmail,
  fixturesOf,
  notificationTest as test,
  recipientName,
  restrictedPrefix,
  send,
} from './notification-client.ts';
import { createCategory, createGroup, createRecipient, postRecipient } from './notification-resources.ts';
import { validAddresses } from './recipients-support.ts';

/** What a recipient with an India-region phone needs of the configuration. */
const RECIPIENT_NEEDS = [
  'fixtures.notification.addressTypes.email',
  'fixtures.notification.addressTypes.phone',
  'fixtures.notification.restrictedPhonePrefix',
] as const;

/** An India-region phone number (the configured restricted prefix, else +91). */
function indiaPhone(t: RuleContext): string {
  return `${restrictedPrefix(t)}98${String(Date.now() % 100_000_000).padStart(8, '0')}`;
}

/** Checks the documented 400 answer: a JSON array of RestrictedRegion items. */
function checkRestricted(t: RuleContext, rule: string, res: HttpResponse, what: string): void {
  const arr = Array.isArray(res.json) ? (res.json as Array<Record<string, unknown>>) : undefined;
  // The refusal is a non-empty list; the shape of its items is restricted-region-item's.
  everyItem(t, {
    rule,
    res,
    statuses: [400],
    what: `a RestrictedRegion of the refusal of ${what}`,
    items: arr ?? [],
    is: () => true,
    expected: 'HTTP 400 with a JSON array of RestrictedRegion',
    arrayBody: true,
    nonEmpty: true,
    severity: 'critical',
  });
  everyItem(t, {
    rule: 'notification/region/restricted-region-item',
    what: 'a well-formed RestrictedRegion',
    items: arr!,
    is: (x) => !!x && x.status === 400 && typeof x.message === 'string' && !!x.message.trim(),
    expected: '{status: 400, message: "<recipients from a restricted region are not allowed>"}',
  });
}

test(
  ['notification/region/create-recipient-restricted', 'notification/region/restricted-region-item'],
  'POST /recipient/ with an India-region phone anywhere among its addresses is refused with RestrictedRegion items and creates nothing',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'notification/region/create-recipient-restricted',
      valid: validAddresses(t),
      bad: { 'an India-region phone': { address: indiaPhone(t), addresstypeid: addressType(t, 'phone') } },
    });
    await t.property(
      lists,
      async (list) => {
        const name = recipientName(t, 'India');
        const res = await postRecipient(t, { recipientname: name, recipientdetail: list.items });
        const what = `a recipient with ${badItemsText(list)}`;
        checkRestricted(t, 'notification/region/create-recipient-restricted', res, what);
        const found = await send(t, { method: 'POST', path: '/recipient/search', json: { name } });
        notListed(t, {
          rule: 'notification/region/create-recipient-restricted',
          res: found,
          what: `the recipient refused for ${what}`,
          items: [name],
          severity: 'critical',
        });
      },
      { rule: 'notification/region/create-recipient-restricted' },
    );
  },
  {
    needs: [...RECIPIENT_NEEDS],
    budget: 6,
    budgetPerRun: 2,
  },
);

test(
  ['notification/region/update-recipient-restricted', 'notification/region/restricted-region-item'],
  'PUT /recipient/ giving an India-region phone anywhere among the addresses is refused with RestrictedRegion items and changes nothing',
  async (t) => {
    const phone = indiaPhone(t);
    const lists = listWithBadItems({
      rule: 'notification/region/update-recipient-restricted',
      valid: validAddresses(t),
      bad: { 'an India-region phone': { address: phone, addresstypeid: addressType(t, 'phone') } },
    });
    await t.property(
      lists,
      async (list) => {
        // A recipient of its own per run: an update taken by mistake does not carry over to the next.
        const r = await createRecipient(t);
        const what = `an update to ${badItemsText(list)}`;
        const res = await send(t, {
          method: 'PUT',
          path: '/recipient/',
          json: { recipientid: r.id, recipientdetail: list.items },
        });
        checkRestricted(t, 'notification/region/update-recipient-restricted', res, what);
        const got = await send(t, { method: 'GET', path: `/recipient/${r.id}` });
        listed(t, {
          rule: 'notification/region/update-recipient-restricted',
          res: got,
          what: `the recipient as it was before the update refused for ${what}`,
          items: [r.email],
          severity: 'critical',
        });
        notListed(t, {
          rule: 'notification/region/update-recipient-restricted',
          res: got,
          what: `the recipient as it was before the update refused for ${what}`,
          items: [phone],
          severity: 'critical',
        });
      },
      { rule: 'notification/region/update-recipient-restricted' },
    );
  },
  {
    needs: [...RECIPIENT_NEEDS],
    budget: 9,
    budgetPerRun: 3,
  },
);

/** The seeded India-region recipient of the configuration, or a skip. */
function restrictedRecipient(t: RuleContext): number {
  const id = fixturesOf(t).restrictedRecipientId;
  if (!Number.isSafeInteger(id))
    t.needsConfiguration(
      'fixtures.notification.restrictedRecipientId',
      'the run configuration has no fixtures.notification.restrictedRecipientId (an India-region recipient, which the API itself refuses to create)',
    );
  return id as number;
}

/** Publishes through a category and checks the RestrictedRegion refusal and that nothing was sent. */
async function publishRefused(t: RuleContext, categoryId: number, what: string): Promise<void> {
  const to = exampleEmail(t, 'india');
  const res = await send(t, {
    method: 'POST',
    path: '/publisher/messages',
    json: { messageCategoryId: categoryId, body: {}, recipientsTo: to, subject: 'ConformanceRegion' },
  });
  checkRestricted(t, 'notification/region/publish-restricted', res, what);
  const audit = await searchAudit(t, { messageCategoryId: categoryId });
  notListed(t, {
    rule: 'notification/region/publish-restricted',
    res: audit,
    what: `the refused message (an audit entry of category ${categoryId} or to ${to})`,
    items: [categoryId, to],
    holds: (r, i) => (typeof i === 'number' ? entriesOf(r).some((e) => e.messageCategoryId === i) : inAudit()(r, i)),
    severity: 'critical',
  });
}

test(
  ['notification/region/publish-restricted', 'notification/region/restricted-region-item'],
  'a publish whose category reaches an India-region recipient is refused with RestrictedRegion items and sends nothing',
  async (t) => {
    const india = restrictedRecipient(t);
    const other = await createRecipient(t);
    const { id } = await createCategory(t, {
      recipients: [
        { position: 'TO', recipientId: other.id },
        { position: 'CC', recipientId: india },
      ],
    });
    await publishRefused(t, id, 'a publish reaching an India-region recipient of the category');
  },
  { needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.restrictedRecipientId'], budget: 5 },
);

test(
  ['notification/region/publish-restricted', 'notification/region/restricted-region-item'],
  'a publish whose category reaches an India-region recipient through a group is refused',
  async (t) => {
    const india = restrictedRecipient(t);
    const g = await createGroup(t, { members: [india] });
    const { id } = await createCategory(t, { recipients: [{ position: 'TO', recipientGroupId: g.id }] });
    await publishRefused(t, id, 'a publish reaching an India-region recipient through a recipient group');
  },
  { needs: ['fixtures.notification.restrictedRecipientId'], budget: 5 },
);
