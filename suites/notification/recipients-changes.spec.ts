import fc from 'fast-check';
import { listed, notListed, refused, withCode } from '../engine/checks/index.ts';
import { addressType, exampleEmail, notificationTest as test, recipientName } from './notification-client.ts';
import { createRecipient, postRecipient } from './notification-resources.ts';
import { update, putRecipient, searchRecipients } from './recipients-support.ts';

test(
  ['notification/recipients/recipientdetail-array', 'notification/errors/code-invalid-request-body-property'],
  'a recipientdetail that is not an array is refused on create and update',
  async (t) => {
    const type = addressType(t, 'email');
    const r = await createRecipient(t);
    const values: unknown[] = [{ address: exampleEmail(t), addresstypeid: type }, exampleEmail(t), 5, true];
    for (const value of values) {
      const res = await postRecipient(t, { recipientname: recipientName(t), recipientdetail: value });
      refused(t, {
        rule: 'notification/recipients/recipientdetail-array',
        res,
        what: `POST with recipientdetail ${JSON.stringify(value)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    }
    await t.property(
      fc.constantFrom(...values),
      async (value) => {
        refused(t, {
          rule: 'notification/recipients/recipientdetail-array',
          res: await putRecipient(t, update(t, r.id, { recipientdetail: value })),
          what: `PUT with recipientdetail ${JSON.stringify(value)}`,
          ...withCode('invalidRequestBodyProperty'),
        });
      },
      { rule: 'notification/recipients/recipientdetail-array', runs: Math.min(t.session.context.runs, 4) },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 6, budgetPerRun: 1 },
);

test(
  ['notification/recipients/search-by-name'],
  'POST /recipient/search with a name lists the matching recipients and no others',
  async (t) => {
    const a = await createRecipient(t, { name: recipientName(t, 'Alpha') });
    const b = await createRecipient(t, { name: recipientName(t, 'Beta') });
    const res = await searchRecipients(t, a.name);
    listed(t, {
      rule: 'notification/recipients/search-by-name',
      res,
      what: 'the recipient searched by name',
      items: [a.name],
    });
    notListed(t, {
      rule: 'notification/recipients/search-by-name',
      res,
      what: 'a recipient of another name',
      items: [b.name],
      anyStatus: true,
    });
    const bad = await searchRecipients(t, 42);
    refused(t, {
      rule: 'notification/recipients/search-by-name',
      res: bad,
      what: 'a search whose name is the number 42',
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 7 },
);

test(
  ['notification/recipients/search-blank-lists-all'],
  'POST /recipient/search with a blank name lists every recipient of the tenant',
  async (t) => {
    const a = await createRecipient(t);
    const b = await createRecipient(t);
    for (const blank of ['', '   ']) {
      const res = await searchRecipients(t, blank);
      listed(t, {
        rule: 'notification/recipients/search-blank-lists-all',
        res,
        what: `every recipient, to a search for ${JSON.stringify(blank)}`,
        items: [a.name, b.name],
      });
    }
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 6 },
);
