import type fc from 'fast-check';
import { badItemsText, listWithBadItems, type ListWithBadItems } from '../../generators/index.ts';
import type { RuleContext, RuleTestOptions } from '../engine/rule-test.ts';
import { refused, withCode, type CodeSuffix, type RefusedOptions } from '../engine/checks/index.ts';
import { addressType, exampleEmail, notificationTest as test, recipientName } from './notification-client.ts';
import { createRecipient, postRecipient } from './notification-resources.ts';
import { putRecipient, update, validAddresses } from './recipients-support.ts';

// Every rule about one RecipientAddress holds for each address of a recipientdetail: the bad one
// stands at generated positions among valid email addresses, on create and on update. One
// addressTest per rule: its bad addresses, and how a recipientdetail holding one is refused.

interface AddressCase {
  options: RuleTestOptions;
  /** The recipientdetail lists: `validAddresses(t)` around the rule's bad addresses. */
  lists(t: RuleContext): fc.Arbitrary<ListWithBadItems>;
  /** The code of the refusal on create, by the kind of the bad address (none where undefined). */
  code?: (kind: string) => CodeSuffix | undefined;
  /** How both refusals are judged besides (a status of our reading). */
  refusal?: Pick<RefusedOptions, 'statuses' | 'statusReading'>;
}

/** A test of one rule about an address: POST and PUT /recipient/ with each list are refused. */
function addressTest(rules: readonly string[], name: string, c: AddressCase): void {
  test(
    rules,
    name,
    async (t) => {
      const rule = rules[0];
      const lists = c.lists(t);
      const recipient = await createRecipient(t);
      await t.property(
        lists,
        async (list) => {
          const what = `recipientdetail with ${badItemsText(list)}`;
          const create = await postRecipient(t, { recipientname: recipientName(t), recipientdetail: list.items });
          refused(t, {
            rule,
            res: create,
            what: `POST ${what}`,
            ...c.refusal,
            ...withCode(c.code?.(list.bad[0].kind)),
          });
          const change = await putRecipient(t, update(t, recipient.id, { recipientdetail: list.items }));
          refused(t, { rule, res: change, what: `PUT ${what}`, ...c.refusal });
        },
        { rule },
      );
    },
    c.options,
  );
}

const EMAIL = 'fixtures.notification.addressTypes.email' as const;

addressTest(
  ['notification/recipients/address-string', 'notification/errors/code-missing-request-body-property'],
  'an address that is not a string is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL], budget: 31, budgetPerRun: 2 },
    lists(t) {
      const type = addressType(t, 'email');
      return listWithBadItems({
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
    },
    // Errors: "| 400 | missingRequestBodyProperty |": an item without address misses a property.
    code: (kind) => (kind === 'an address without address' ? 'missingRequestBodyProperty' : undefined),
  },
);

addressTest(
  ['notification/recipients/address-type-int64', 'notification/errors/code-missing-request-body-property'],
  'an address without an integer addresstypeid is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL], budget: 31, budgetPerRun: 2 },
    lists(t) {
      const type = addressType(t, 'email');
      const address = exampleEmail(t, 'typed');
      return listWithBadItems({
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
    },
    // Errors: "| 400 | missingRequestBodyProperty |" for the item without addresstypeid.
    code: (kind) => (kind === 'an address without addresstypeid' ? 'missingRequestBodyProperty' : undefined),
  },
);

const UNKNOWN_TYPE = 987_654_321;

addressTest(
  ['notification/recipients/address-type-from-list', 'notification/errors/code-invalid-request-body-property'],
  'an addresstypeid the listing does not hold is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL], budget: 7, budgetPerRun: 2 },
    lists: (t) =>
      listWithBadItems({
        rule: 'notification/recipients/address-type-from-list',
        valid: validAddresses(t),
        bad: {
          [`addresstypeid ${UNKNOWN_TYPE}, which the listing does not hold`]: {
            address: exampleEmail(t, 'unlisted'),
            addresstypeid: UNKNOWN_TYPE,
          },
        },
      }),
    code: () => 'invalidRequestBodyProperty',
    // 400 rather than 404 noMatch is our reading.
    refusal: { statuses: [400], statusReading: 'listed-id-400' },
  },
);

addressTest(
  ['notification/recipients/email-charset'],
  'an email address outside the charset is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL], budget: 19, budgetPerRun: 2 },
    lists(t) {
      const type = addressType(t, 'email');
      return listWithBadItems({
        rule: 'notification/recipients/email-charset',
        valid: validAddresses(t),
        bad: Object.fromEntries(
          ['-', '+', ' '].map((c) => [
            `an email address holding ${JSON.stringify(c)}`,
            { address: `${t.prefix}${c}x@example.com`, addresstypeid: type },
          ]),
        ),
      });
    },
  },
);

addressTest(
  ['notification/recipients/phone-e164'],
  'a phone address outside E.164 is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL, 'fixtures.notification.addressTypes.phone'], budget: 13, budgetPerRun: 2 },
    lists(t) {
      const phone = addressType(t, 'phone');
      return listWithBadItems({
        rule: 'notification/recipients/phone-e164',
        valid: validAddresses(t),
        bad: {
          'a phone number without +': { address: '14155550123', addresstypeid: phone },
          'a phone number of 16 digits': { address: '+1415555012345678', addresstypeid: phone },
        },
      });
    },
  },
);

addressTest(
  ['notification/recipients/push-json'],
  'a push address that is not JSON text is refused wherever it stands in recipientdetail (create and update)',
  {
    options: { needs: [EMAIL, 'fixtures.notification.addressTypes.push'], budget: 13, budgetPerRun: 2 },
    lists(t) {
      const push = addressType(t, 'push');
      return listWithBadItems({
        rule: 'notification/recipients/push-json',
        valid: validAddresses(t),
        bad: {
          'a push configuration without quotes': { address: '{token:abc}', addresstypeid: push },
          'a push configuration cut short': { address: '{"token":', addresstypeid: push },
        },
      });
    },
  },
);
