import { badItemsText, listWithBadItems, type ListWithBadItems } from '../../generators/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { refused, withCode, type CodeSuffix } from '../engine/checks/index.ts';
import { addressType, exampleEmail, notificationTest as test, recipientName } from './notification-client.ts';
import { createRecipient, postRecipient } from './notification-resources.ts';
import { putRecipient, update } from './recipients-support.ts';

// Every rule about one RecipientAddress holds for each address of a recipientdetail: the bad one
// stands at generated positions among valid email addresses, on create and on update.

/** Valid email addresses, all different. */
function validAddresses(t: RuleContext): Record<string, unknown>[] {
  const type = addressType(t, 'email');
  return ['a', 'b', 'c'].map((k) => ({ address: exampleEmail(t, `ok${k}`), addresstypeid: type }));
}

/** POST and PUT /recipient/ with the list, each refused (`code` on create only, where given). */
async function refusedOnCreateAndUpdate(
  t: RuleContext,
  rule: string,
  recipientId: number,
  list: ListWithBadItems,
  code?: (kind: string) => CodeSuffix | undefined,
): Promise<void> {
  const what = `recipientdetail with ${badItemsText(list)}`;
  const create = await postRecipient(t, { recipientname: recipientName(t), recipientdetail: list.items });
  refused(t, { rule, res: create, what: `POST ${what}`, ...withCode(code?.(list.bad[0].kind)) });
  refused(t, {
    rule,
    res: await putRecipient(t, update(t, recipientId, { recipientdetail: list.items })),
    what: `PUT ${what}`,
  });
}

test(
  ['notification/recipients/address-string', 'notification/errors/code-missing-request-body-property'],
  'an address that is not a string is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const type = addressType(t, 'email');
    const r = await createRecipient(t);
    const lists = listWithBadItems({
      rule: 'notification/recipients/address-string',
      valid: validAddresses(t),
      bad: {
        'an address without address': { addresstypeid: type },
        'address 42': { address: 42, addresstypeid: type },
        'address true': { address: true, addresstypeid: type },
        'an address in an array': { address: [exampleEmail(t)], addresstypeid: type },
        'address {}': { address: {}, addresstypeid: type },
      },
    });
    // Errors: "| 400 | missingRequestBodyProperty |": an item without address misses a property.
    await t.property(
      lists,
      (list) =>
        refusedOnCreateAndUpdate(t, 'notification/recipients/address-string', r.id, list, (kind) =>
          kind === 'an address without address' ? 'missingRequestBodyProperty' : undefined,
        ),
      { rule: 'notification/recipients/address-string' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 31, budgetPerRun: 2 },
);

test(
  ['notification/recipients/address-type-int64', 'notification/errors/code-missing-request-body-property'],
  'an address without an integer addresstypeid is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const type = addressType(t, 'email');
    const r = await createRecipient(t);
    const address = exampleEmail(t, 'typed');
    const lists = listWithBadItems({
      rule: 'notification/recipients/address-type-int64',
      valid: validAddresses(t),
      bad: {
        'an address without addresstypeid': { address },
        'addresstypeid as text': { address, addresstypeid: String(type) },
        'addresstypeid 1.5 off': { address, addresstypeid: type + 0.5 },
        'addresstypeid true': { address, addresstypeid: true },
        'addresstypeid in an array': { address, addresstypeid: [type] },
      },
    });
    // Errors: "| 400 | missingRequestBodyProperty |" for the item without addresstypeid.
    await t.property(
      lists,
      (list) =>
        refusedOnCreateAndUpdate(t, 'notification/recipients/address-type-int64', r.id, list, (kind) =>
          kind === 'an address without addresstypeid' ? 'missingRequestBodyProperty' : undefined,
        ),
      { rule: 'notification/recipients/address-type-int64' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 31, budgetPerRun: 2 },
);

test(
  ['notification/recipients/address-type-from-list', 'notification/errors/code-invalid-request-body-property'],
  'an addresstypeid the listing does not hold is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const r = await createRecipient(t);
    const unknown = 987_654_321;
    const lists = listWithBadItems({
      rule: 'notification/recipients/address-type-from-list',
      valid: validAddresses(t),
      bad: {
        [`addresstypeid ${unknown}, which the listing does not hold`]: {
          address: exampleEmail(t, 'unlisted'),
          addresstypeid: unknown,
        },
      },
    });
    await t.property(
      lists,
      async (list) => {
        const what = `recipientdetail with ${badItemsText(list)}`;
        const create = await postRecipient(t, { recipientname: recipientName(t), recipientdetail: list.items });
        // 400 rather than 404 noMatch is our reading.
        const rule = 'notification/recipients/address-type-from-list';
        refused(t, {
          rule,
          res: create,
          what: `POST ${what}`,
          statuses: [400],
          statusReading: 'listed-id-400',
          ...withCode('invalidRequestBodyProperty'),
        });
        const change = await putRecipient(t, update(t, r.id, { recipientdetail: list.items }));
        refused(t, { rule, res: change, what: `PUT ${what}`, statuses: [400], statusReading: 'listed-id-400' });
      },
      { rule: 'notification/recipients/address-type-from-list' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 7, budgetPerRun: 2 },
);

test(
  ['notification/recipients/email-charset'],
  'an email address outside the charset is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const type = addressType(t, 'email');
    const r = await createRecipient(t);
    const lists = listWithBadItems({
      rule: 'notification/recipients/email-charset',
      valid: validAddresses(t),
      bad: Object.fromEntries(
        ['-', '+', ' '].map((c) => [
          `an email address holding ${JSON.stringify(c)}`,
          { address: `${t.prefix}${c}x@example.com`, addresstypeid: type },
        ]),
      ),
    });
    await t.property(
      lists,
      (list) => refusedOnCreateAndUpdate(t, 'notification/recipients/email-charset', r.id, list),
      { rule: 'notification/recipients/email-charset' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 19, budgetPerRun: 2 },
);

test(
  ['notification/recipients/phone-e164'],
  'a phone address outside E.164 is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const phone = addressType(t, 'phone');
    const r = await createRecipient(t);
    const lists = listWithBadItems({
      rule: 'notification/recipients/phone-e164',
      valid: validAddresses(t),
      bad: {
        'a phone number without +': { address: '14155550123', addresstypeid: phone },
        'a phone number of 16 digits': { address: '+1415555012345678', addresstypeid: phone },
      },
    });
    await t.property(lists, (list) => refusedOnCreateAndUpdate(t, 'notification/recipients/phone-e164', r.id, list), {
      rule: 'notification/recipients/phone-e164',
    });
  },
  {
    needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.addressTypes.phone'],
    budget: 13,
    budgetPerRun: 2,
  },
);

test(
  ['notification/recipients/push-json'],
  'a push address that is not JSON text is refused wherever it stands in recipientdetail (create and update)',
  async (t) => {
    const push = addressType(t, 'push');
    const r = await createRecipient(t);
    const lists = listWithBadItems({
      rule: 'notification/recipients/push-json',
      valid: validAddresses(t),
      bad: {
        'a push configuration without quotes': { address: '{token:abc}', addresstypeid: push },
        'a push configuration cut short': { address: '{"token":', addresstypeid: push },
      },
    });
    await t.property(lists, (list) => refusedOnCreateAndUpdate(t, 'notification/recipients/push-json', r.id, list), {
      rule: 'notification/recipients/push-json',
    });
  },
  {
    needs: ['fixtures.notification.addressTypes.email', 'fixtures.notification.addressTypes.push'],
    budget: 13,
    budgetPerRun: 2,
  },
);
