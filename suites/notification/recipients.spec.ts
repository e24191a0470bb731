import fc from 'fast-check';
import {
  holds,
  accepted,
  createdWithId,
  listed,
  notListed,
  refused,
  served,
  genericCode,
  withCode,
} from '../engine/checks/index.ts';
import {
  addressType,
  exampleEmail,
  fixturesOf,
  letterPrefix,
  letters,
  notificationTest as test,
  recipientName,
  restrictedPrefix,
  seen,
  send,
} from './notification-client.ts';
import { createRecipient, postRecipient } from './notification-resources.ts';
import {
  nameCode,
  update,
  getRecipient,
  putRecipient,
  searchRecipients,
  postOneAddress,
  emailCase,
  SHORT_PHONE,
  PHONE_EDGES,
  phoneNumber,
  BAD_NAMES,
  NBSP_NAME,
  nameCase,
} from './recipients-support.ts';
import { fieldValues, type FieldValue } from '../engine/resources/index.ts';

test(
  ['notification/recipients/create-201-id'],
  'POST /recipient/ answers 201 with the new integer ID, which GET /recipient/{id} then serves',
  async (t) => {
    const name = recipientName(t);
    const res = await postRecipient(t, {
      recipientname: name,
      recipientdetail: [{ address: exampleEmail(t), addresstypeid: addressType(t, 'email') }],
    });
    createdWithId(t, { rule: 'notification/recipients/create-201-id', res, what: 'a recipient' });
    const got = await getRecipient(t, res.json as number);
    listed(t, {
      rule: 'notification/recipients/create-201-id',
      res: got,
      what: 'the created recipient, read by its ID',
      items: [name],
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 3 },
);

test(
  ['notification/recipients/email-charset', 'notification/errors/code-invalid-request-body-property'],
  'an email address is taken with letters, digits, _ and . only (property, create and update)',
  async (t) => {
    const type = addressType(t, 'email');
    await fieldValues(t, {
      rule: 'notification/recipients/email-charset',
      field: 'email address',
      cases: [
        // The edges first: each allowed sign once, then the commonest foreign ones.
        ...(
          [
            [`${t.prefix}_a.b_c`, true],
            [`${t.prefix}-a`, false],
            [`${t.prefix}+a`, false],
            [`${t.prefix}!a`, false],
            [`${t.prefix} a`, false],
          ] as const
        ).map(([local, valid]) => ({ value: `${local}@example.com`, valid })),
        // The whole address is held to the charset (a foreign sign after the domain too); a domain of
        // several labels is letters, digits and '.' as well.
        { value: `${t.prefix}_a@example.com!`, valid: false },
        { value: `${t.prefix}_a@mail.example.com`, valid: true },
      ],
      property: {
        values: emailCase.map(({ parts, bad, at }) => {
          let local = `${t.prefix}_${parts.join('.')}`;
          if (bad !== undefined) {
            const i = 1 + (at % (local.length - 1));
            local = `${local.slice(0, i)}${bad}${local.slice(i)}`;
          }
          const value = `${local}@example.com`;
          const what = bad === undefined ? undefined : `email address "${value}" (character ${JSON.stringify(bad)})`;
          return { value, valid: bad === undefined, what };
        }),
        runs: 8,
      },
      send: (c) => postOneAddress(t, c.value, type),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
    const r = await createRecipient(t);
    const res = await putRecipient(
      t,
      update(t, r.id, { recipientdetail: [{ address: `${t.prefix}-dash@example.com`, addresstypeid: type }] }),
    );
    refused(t, {
      rule: 'notification/recipients/email-charset',
      res,
      what: 'PUT with an email address holding "-"',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 11, budgetPerRun: 2 },
);

test(
  ['notification/recipients/phone-e164', 'notification/errors/code-invalid-request-body-property'],
  'a phone address is taken in E.164 only, up to 15 digits (edges, then a property)',
  async (t) => {
    const type = addressType(t, 'phone');
    const restricted = restrictedPrefix(t);
    await fieldValues(t, {
      rule: 'notification/recipients/phone-e164',
      field: 'phone number',
      cases: [
        ...PHONE_EDGES.map(({ number, valid }) => ({ value: number, valid })),
        // SHORT_PHONE has the E.164 format: that the format alone makes it valid is our reading.
        { value: SHORT_PHONE, valid: true, reading: 'phone-e164-format-only' },
      ],
      property: {
        values: phoneNumber.map((n) => ({ value: n.startsWith(restricted) ? `+1${n.slice(2)}` : n, valid: true })),
        runs: 5,
      },
      send: (c) => postOneAddress(t, c.value, type),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  {
    needs: ['fixtures.notification.addressTypes.phone', 'fixtures.notification.restrictedPhonePrefix'],
    budget: 10,
    budgetPerRun: 2,
  },
);

test(
  ['notification/recipients/push-json', 'notification/errors/code-invalid-request-body-property'],
  'a push address is taken as JSON text and refused when it does not parse',
  async (t) => {
    const android = addressType(t, 'push');
    const ios = addressType(t, 'iosPush');
    const cases = [
      { type: android, text: '{"token":"abc123","platform":"android"}', valid: true },
      { type: ios, text: '{"deviceToken":"f00d","bundle":"com.example.app","quote":"a \\"b\\""}', valid: true },
      { type: android, text: '{token:abc}', valid: false },
      { type: ios, text: 'not json at all', valid: false },
      { type: android, text: '{"token":', valid: false },
      { type: ios, text: "{'token':'abc'}", valid: false },
    ];
    await fieldValues(t, {
      rule: 'notification/recipients/push-json',
      field: 'push configuration',
      cases: cases.map((c) => ({ ...c, value: c.text, what: `push configuration ${c.text}` })),
      send: (c) => postOneAddress(t, c.text, c.type),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.addressTypes.iosPush', 'fixtures.notification.addressTypes.push'], budget: 8 },
);

test(
  ['notification/recipients/address-type-from-list'],
  'an addresstypeid that GET /recipient/addresstype lists is taken',
  async (t) => {
    const type = addressType(t, 'email');
    const listing = await send(t, { method: 'GET', path: '/recipient/addresstype' });
    listed(t, {
      rule: 'notification/recipients/address-type-from-list',
      res: listing,
      what: 'the configured email address type',
      items: [type],
    });
    // An addresstypeid the listing does not hold, wherever it stands: recipient-addresses.spec.ts.
    const good = await postOneAddress(t, exampleEmail(t), type);
    accepted(t, {
      rule: 'notification/recipients/address-type-from-list',
      res: good,
      what: `listed addresstypeid ${type}`,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 2 },
);

test(
  ['notification/recipients/address-types-listed', 'notification/general/record-fields-not-shown'],
  'GET /recipient/addresstype lists email, phone and push address types',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/recipient/addresstype' });
    const text = res.json !== undefined ? JSON.stringify(res.json) : res.text;
    const missing = [
      ['email', /mail/i],
      ['phone', /phone|sms|mobile/i],
      ['push', /push|android|ios/i],
    ]
      .filter(([, re]) => !(re as RegExp).test(text))
      .map(([k]) => k);
    served(t, {
      rule: 'notification/recipients/address-types-listed',
      res,
      what: 'GET of the address types',
    });
    // The address type record is not shown: finding the three kinds by words of ours (mail, phone or
    // SMS, push or Android/iOS) is our reading; the configured IDs below are judged on the document.
    holds(t, {
      rule: 'notification/recipients/address-types-listed',
      ok: missing.length === 0,
      failure: 'address types incomplete',
      expected: 'types named for email, phone and Android/iOS push',
      received: `missing ${missing.join(', ')} — ${seen(res)}`,
      reading: 'address-type-names',
    });
    const ids = Object.values(fixturesOf(t).addressTypes ?? {}).filter((id): id is number => Number.isInteger(id));
    listed(t, {
      rule: 'notification/recipients/address-types-listed',
      res,
      what: 'the configured address types',
      items: ids,
      anyStatus: true,
    });
    const first = Array.isArray(res.json) ? res.json[0] : res.json;
    t.observe(
      'notification/general/record-fields-not-shown',
      `address type record: ${first && typeof first === 'object' ? `fields ${Object.keys(first).join(', ')}` : `${typeof first} ${JSON.stringify(first)?.slice(0, 60)}`}`,
    );
  },
  { readOnly: true, budget: 1 },
);

test(
  ['notification/recipients/name-letters', 'notification/errors/code-invalid-request-body-property'],
  'a recipientname is taken with UTF-8 letters and spaces only (edges, property, create and update)',
  async (t) => {
    const type = addressType(t, 'email');
    const names = {
      rule: 'notification/recipients/name-letters',
      field: 'recipientname',
      send: (c: FieldValue) =>
        postRecipient(t, {
          recipientname: c.value,
          recipientdetail: [{ address: exampleEmail(t), addresstypeid: type }],
        }),
      refusal: (c: FieldValue) => withCode(nameCode(c.value)),
    };
    await fieldValues(t, { ...names, cases: BAD_NAMES.map((value) => ({ value, valid: false })) });
    const nbsp = await postRecipient(t, {
      recipientname: `${letterPrefix(t)} ${NBSP_NAME}`,
      recipientdetail: [{ address: exampleEmail(t), addresstypeid: type }],
    });
    refused(t, {
      rule: 'notification/recipients/name-letters',
      res: nbsp,
      what: 'a recipientname with a no-break space (U+00A0)',
      reading: 'name-no-break-space',
    });
    genericCode(t, nbsp, 'invalidRequestBodyProperty');
    await fieldValues(t, {
      ...names,
      property: {
        // Valid names get the run's letter prefix and a unique tail, so that they stay unique in the tenant.
        values: nameCase.map(({ name, valid }) => ({
          value: valid ? `${letterPrefix(t)} ${name as string} ${letters(6)}` : name,
          valid,
        })),
        runs: 10,
      },
    });
    const r = await createRecipient(t);
    const res = await putRecipient(t, update(t, r.id, { recipientname: `${r.name} 7` }));
    refused(t, {
      rule: 'notification/recipients/name-letters',
      res,
      what: 'PUT with a recipientname holding a digit',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 13, budgetPerRun: 2 },
);

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
