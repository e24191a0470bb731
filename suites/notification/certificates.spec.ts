import fc from 'fast-check';
import {
  accepted,
  createdWithId,
  listed,
  notListed,
  refused,
  answeredByReading,
  withCode,
} from '../engine/checks/index.ts';
import {
  CERTIFICATE_TEXT,
  OTHER_CERTIFICATE_TEXT,
  certificateForm,
  notificationTest as test,
  send,
} from './notification-client.ts';
import { certificateEmail, createCertificate, postCertificate } from './notification-resources.ts';
import { del, listing, put } from './certificates-support.ts';
import { fieldValues } from '../engine/resources/index.ts';

test(
  ['notification/certificates/create-201-id'],
  'POST /certificatestore/ answers 201 with an integer ID and the email ID is then listed',
  async (t) => {
    const emailid = certificateEmail(t);
    const res = await postCertificate(t, { fileName: `${t.prefix}.cer`, emailid, ownerid: `${t.prefix}owner` });
    createdWithId(t, { rule: 'notification/certificates/create-201-id', res, what: 'a certificate' });
    const list = await listing(t);
    listed(t, {
      rule: 'notification/certificates/create-201-id',
      res: list,
      what: 'the stored email ID',
      items: [emailid],
    });
  },
  { budget: 3 },
);

test(
  ['notification/certificates/file-cer', 'notification/errors/code-invalid-request-body-property'],
  'POST /certificatestore/ with a file not ending in .cer is refused and stores nothing',
  async (t) => {
    for (const name of ['cert.pem', 'cert.crt', 'cert.cer.txt', 'cer']) {
      const emailid = certificateEmail(t);
      refused(t, {
        rule: 'notification/certificates/file-cer',
        res: await postCertificate(t, { fileName: name, emailid, ownerid: `${t.prefix}owner` }),
        what: `a certificate file named ${name}`,
        ...withCode('invalidRequestBodyProperty'),
      });
      const list = await listing(t);
      notListed(t, {
        rule: 'notification/certificates/file-cer',
        res: list,
        what: 'the email ID of a refused certificate',
        items: [emailid],
        anyStatus: true,
      });
    }
  },
  { budget: 8 },
);

test(
  ['notification/certificates/file-required'],
  'POST /certificatestore/ without a file part, or with a JSON body, is refused',
  async (t) => {
    refused(t, {
      rule: 'notification/certificates/file-required',
      res: await postCertificate(t, { emailid: certificateEmail(t), ownerid: `${t.prefix}owner` }),
      what: 'a form without file',
    });
    // The form field is named `file`: a certificate sent under another part name leaves `file` missing.
    const elsewhere = await send(t, {
      method: 'POST',
      path: '/certificatestore/',
      form: [
        ...certificateForm({ emailid: certificateEmail(t), ownerid: `${t.prefix}owner` }),
        {
          name: 'certificate',
          file: { filename: `${t.prefix}.cer`, content: CERTIFICATE_TEXT, contentType: 'application/pkix-cert' },
        },
      ],
    });
    refused(t, {
      rule: 'notification/certificates/file-required',
      res: elsewhere,
      what: 'a form whose .cer file is under the part name certificate, not file',
    });
    const json = await send(t, {
      method: 'POST',
      path: '/certificatestore/',
      json: { emailid: certificateEmail(t), ownerid: `${t.prefix}owner`, file: 'MIIB' },
    });
    // A JSON body is refused (document); 400 rather than 415 for it is our reading.
    refused(t, {
      rule: 'notification/certificates/file-required',
      res: json,
      what: 'a JSON body',
      statuses: [400],
      statusReading: 'media-type-400',
    });
  },
  { budget: 3 },
);

// Each part of the form but the file is required: a form without it is refused.
test.each(
  [
    { rule: 'notification/certificates/email-id-required', part: 'emailid' },
    { rule: 'notification/certificates/owner-id-required', part: 'ownerid' },
  ] as const,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-missing-request-body-property'],
    name: `POST /certificatestore/ without ${r.part} is refused`,
    options: { budget: 1 },
  }),
  async (t, r) => {
    const form = { fileName: `${t.prefix}.cer`, emailid: certificateEmail(t), ownerid: `${t.prefix}owner` };
    delete form[r.part];
    refused(t, {
      rule: r.rule,
      res: await postCertificate(t, form),
      what: `a form without ${r.part}`,
      ...withCode('missingRequestBodyProperty'),
    });
  },
);

test(
  ['notification/certificates/owner-id-alphanumeric', 'notification/errors/code-invalid-request-body-property'],
  'an ownerid of letters and digits is taken, any other character refused (property)',
  async (t) => {
    await fieldValues(t, {
      rule: 'notification/certificates/owner-id-alphanumeric',
      field: 'ownerid',
      cases: ['owner-1', 'owner 1', 'owner_1'].map((value) => ({ value, valid: false })),
      property: {
        values: fc.oneof(
          fc.stringMatching(/^[A-Za-z0-9]{1,10}$/).map((s) => ({ value: `${t.prefix}${s}`, valid: true })),
          fc
            .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,5}$/), fc.constantFrom('-', ' ', '_', '.', '@', '!'))
            .map(([s, c]) => ({ value: `owner${c}${s}`, valid: false })),
        ),
        runs: 8,
      },
      send: (c) => postCertificate(t, { fileName: `${t.prefix}.cer`, emailid: certificateEmail(t), ownerid: c.value }),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  { budget: 3, budgetPerRun: 2 },
);

test(
  ['notification/certificates/update', 'notification/errors/code-no-match'],
  'PUT /certificatestore/{emailid} replaces a stored certificate (200); an email ID without one answers 404',
  async (t) => {
    const emailid = await createCertificate(t);
    accepted(t, {
      rule: 'notification/certificates/update',
      res: await put(t, emailid, {
        fileName: `${t.prefix}-new.cer`,
        content: OTHER_CERTIFICATE_TEXT,
        ownerid: `${t.prefix}newowner`,
      }),
      what: 'a replacement certificate',
      statuses: [200],
    });
    const list = await listing(t);
    listed(t, {
      rule: 'notification/certificates/update',
      res: list,
      what: 'the email ID of the replaced certificate',
      items: [emailid],
      anyStatus: true,
    });
    // A PUT for an email ID without a certificate: 404 noMatch, or a certificate stored (PUT may create);
    // the document does not say which. 404 is our reading; one stored is deleted again.
    const absent = certificateEmail(t);
    const res = await put(t, absent, { fileName: `${t.prefix}.cer`, ownerid: `${t.prefix}owner` });
    if (res.status === 200) await del(t, absent);
    answeredByReading(t, {
      rule: 'notification/certificates/update',
      res,
      what: 'a PUT for an email ID without a certificate',
      reading: 'unknown-certificate-404',
      allowed: [200, 404],
      wanted: 404,
      ...withCode('noMatch'),
    });
  },
  { budget: 5 },
);

test(
  ['notification/certificates/update-file-cer'],
  'PUT /certificatestore/{emailid} without a .cer file or an alphanumeric ownerid is refused',
  async (t) => {
    const emailid = await createCertificate(t);
    const cases: Array<[string, Parameters<typeof certificateForm>[0]]> = [
      ['no file', { ownerid: `${t.prefix}owner` }],
      ['a .pem file', { fileName: 'cert.pem', ownerid: `${t.prefix}owner` }],
      ['no ownerid', { fileName: `${t.prefix}.cer` }],
      ['ownerid "owner-1"', { fileName: `${t.prefix}.cer`, ownerid: 'owner-1' }],
    ];
    for (const [what, p] of cases)
      refused(t, {
        rule: 'notification/certificates/update-file-cer',
        res: await put(t, emailid, p),
        what: `a PUT with ${what}`,
      });
  },
  { budget: 6 },
);

test(
  ['notification/certificates/delete', 'notification/errors/code-no-match'],
  'DELETE /certificatestore/{emailid} removes the certificate; an email ID without one answers 404',
  async (t) => {
    const emailid = await createCertificate(t);
    accepted(t, {
      rule: 'notification/certificates/delete',
      res: await del(t, emailid),
      what: 'deleting a stored certificate',
      statuses: [200],
    });
    const list = await listing(t);
    notListed(t, {
      rule: 'notification/certificates/delete',
      res: list,
      what: 'the email ID of the deleted certificate',
      items: [emailid],
    });
    // DELETE of what is gone: 404 noMatch, or an idempotent success; the document does not say which.
    answeredByReading(t, {
      rule: 'notification/certificates/delete',
      res: await del(t, emailid),
      what: 'deleting it a second time',
      reading: 'unknown-delete-404',
      allowed: [200, 204, 404],
      wanted: 404,
      ...withCode('noMatch'),
    });
  },
  { budget: 5 },
);

test(
  ['notification/certificates/operator-lists-all'],
  "the operator tenant's GET /certificatestore/ lists the email IDs of every tenant",
  async (t) => {
    if (!t.session.tokens.has('operator'))
      t.needsPrincipal(
        'principals.operator',
        'needs a principal of the operator tenant (principals.operator); the document does not name the tenant',
      );
    const emailid = await createCertificate(t);
    const all = await listing(t, 'operator');
    listed(t, {
      rule: 'notification/certificates/operator-lists-all',
      res: all,
      what: "another tenant's email ID, to the operator tenant",
      items: [emailid],
    });
  },
  { needs: ['principals.operator'], budget: 3 },
);
