import fc from 'fast-check';
import { listed, notListed, refused, withCode } from '../engine/checks/index.ts';
import { addressType, exampleEmail, notificationTest as test, recipientName } from './notification-client.ts';
import { createRecipient, postRecipient } from './notification-resources.ts';
import { update, putRecipient, searchRecipients } from './recipients-support.ts';
import { fieldValues } from '../engine/resources/index.ts';

test(
  ['notification/recipients/recipientdetail-array', 'notification/errors/code-invalid-request-body-property'],
  'a recipientdetail that is not an array is refused on create and update',
  async (t) => {
    const type = addressType(t, 'email');
    const r = await createRecipient(t);
    const values: unknown[] = [{ address: exampleEmail(t), addresstypeid: type }, exampleEmail(t), 5, true];
    await fieldValues(t, {
      rule: 'notification/recipients/recipientdetail-array',
      field: 'recipientdetail',
      cases: values.map((value) => ({ value, valid: false, via: 'POST' })),
      property: { values: fc.constantFrom(...values).map((value) => ({ value, valid: false, via: 'PUT' })), runs: 4 },
      send: (c) =>
        c.via === 'PUT'
          ? putRecipient(t, update(t, r.id, { recipientdetail: c.value }))
          : postRecipient(t, { recipientname: recipientName(t), recipientdetail: c.value }),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
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
