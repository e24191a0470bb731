import fc from 'fast-check';
import { badItemsText, boundaryValues, listWithBadItems } from '../../generators/index.ts';
import { accepted, refused, withCode } from '../engine/checks/index.ts';
import { exampleEmail, notificationTest as test, seen } from './notification-client.ts';
import { message, publish, broadcast, publishSchema } from './publishing-support.ts';

test(
  ['notification/publish/recipients-valid-emails', 'notification/errors/code-invalid-request-body-property'],
  'recipientsTo holding an invalid address, or not a string, is refused',
  async (t) => {
    const good = exampleEmail(t, 'ok');
    const cases: unknown[] = [
      'not-an-address',
      `${t.prefix}@`,
      `@example.com`,
      `${good},${exampleEmail(t, 'b')}`,
      `${good} ${exampleEmail(t, 'c')}`,
      `${t.prefix} x@example.com`,
      [good],
      42,
    ];
    for (const value of cases) {
      refused(t, {
        rule: 'notification/publish/recipients-valid-emails',
        res: await publish(t, message(t, { recipientsTo: value })),
        what: `recipientsTo ${JSON.stringify(value)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    }
    // Each address of the list: an invalid one among valid ones, wherever it stands.
    const lists = listWithBadItems({
      rule: 'notification/publish/recipients-valid-emails',
      valid: ['a', 'b', 'c'].map((k) => exampleEmail(t, `ok${k}`)),
      bad: {
        'a word': 'not-an-address',
        'an address without domain': `${t.prefix}@`,
        'an address without local part': '@example.com',
        'an address with a space': `${t.prefix} x@example.com`,
      },
    });
    await t.property(
      lists,
      async (list) =>
        refused(t, {
          rule: 'notification/publish/recipients-valid-emails',
          res: await publish(t, message(t, { recipientsTo: list.items.join(';') })),
          what: `recipientsTo "${list.items.join(';')}" (${badItemsText(list)})`,
          ...withCode('invalidRequestBodyProperty'),
        }),
      { rule: 'notification/publish/recipients-valid-emails' },
    );
    // "Semicolon-separated valid email addresses": a domain of three labels is one.
    const sub = exampleEmail(t, 'sub').replace('@', '@mail.');
    accepted(t, {
      rule: 'notification/publish/recipients-valid-emails',
      res: await publish(t, message(t, { recipientsTo: `${good};${sub}` })),
      what: `recipientsTo "${good};${sub}"`,
      statuses: [204],
    });
  },
  { budget: 21, budgetPerRun: 1 },
);

test(
  ['notification/publish/from-charset', 'notification/errors/code-invalid-request-body-property'],
  'a from with characters other than letters, digits, _, . and -, or not a string, is refused (publish and broadcast)',
  async (t) => {
    const cases = fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{0,6}$/), fc.constantFrom('@', ' ', '!', '#', '/', '+', ','))
      .map(([s, c]) => `${t.prefix}${c}${s}` as unknown);
    const refusedFrom = async (from: unknown) =>
      refused(t, {
        rule: 'notification/publish/from-charset',
        res: await publish(t, message(t, { from })),
        what: `from ${JSON.stringify(from)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    for (const from of [`${t.prefix}@example.com`, `${t.prefix} x`, `${t.prefix}!`, 42, ['x']]) await refusedFrom(from);
    await t.property(
      cases,
      async (from) => {
        await refusedFrom(from);
      },
      { rule: 'notification/publish/from-charset', runs: Math.min(t.session.context.runs, 8) },
    );
    const b = await broadcast(t, {
      body: { message: 'Conformance' },
      from: `${t.prefix}@example.com`,
      subject: 'Conformance',
    });
    refused(t, {
      rule: 'notification/publish/from-charset',
      res: b,
      what: 'a broadcast whose from holds "@"',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { budget: 6, budgetPerRun: 1 },
);

test(
  ['notification/publish/subject-alphanumeric', 'notification/errors/code-invalid-request-body-property'],
  'a subject with other than letters and digits, or not a string, is refused (publish and broadcast)',
  async (t) => {
    const cases = fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,6}$/), fc.constantFrom('!', '<', '-', '_', '.', '?'))
      .map(([s, c]) => `Subject${c}${s}` as unknown);
    // Whether a space breaks "Alphanumeric" is our reading, not the document's.
    refused(t, {
      rule: 'notification/publish/subject-alphanumeric',
      res: await publish(t, message(t, { subject: 'Hello world' })),
      what: 'subject "Hello world"',
      reading: 'subject-space',
    });
    const refusedSubject = async (subject: unknown) =>
      refused(t, {
        rule: 'notification/publish/subject-alphanumeric',
        res: await publish(t, message(t, { subject })),
        what: `subject ${JSON.stringify(subject)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    for (const subject of ['Hello!', '<b>Hi</b>', 42, true]) await refusedSubject(subject);
    await t.property(
      cases,
      async (subject) => {
        await refusedSubject(subject);
      },
      { rule: 'notification/publish/subject-alphanumeric', runs: Math.min(t.session.context.runs, 8) },
    );
    const b = await broadcast(t, { body: { message: 'Conformance' }, from: t.prefix, subject: 'Hello world!' });
    refused(t, {
      rule: 'notification/publish/subject-alphanumeric',
      res: b,
      what: 'a broadcast whose subject is "Hello world!"',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { budget: 6, budgetPerRun: 1 },
);

test(
  ['notification/publish/priority-values', 'notification/errors/code-invalid-request-body-property'],
  'a message priority other than 1 or 3 is refused (every boundary of the contract, publish and broadcast)',
  async (t) => {
    // The contract's enum gives 1 and 3 (accepted by the publishes above); 0, 2 and 4 and other types break it.
    const invalid = [
      ...boundaryValues(await publishSchema('priority'))
        .filter((b) => !b.valid)
        .map((b) => b.value),
      5,
      '1',
      1.5,
    ];
    for (const priority of invalid) {
      refused(t, {
        rule: 'notification/publish/priority-values',
        res: await publish(t, message(t, { priority })),
        what: `priority ${JSON.stringify(priority)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    }
    const b = await broadcast(t, {
      body: { message: 'Conformance' },
      from: t.prefix,
      subject: 'Conformance',
      priority: 5,
    });
    refused(t, {
      rule: 'notification/publish/priority-values',
      res: b,
      what: 'a broadcast with priority 5',
      ...withCode('invalidRequestBodyProperty'),
    });
  },
  { budget: 8 },
);

test(
  ['notification/publish/recipient-field-name'],
  "how a publish naming its recipients recipientTo (the rule text's name) is answered",
  async (t) => {
    const m = message(t);
    const to = m.recipientsTo;
    delete m.recipientsTo;
    const res = await publish(t, { ...m, recipientTo: to });
    t.observe(
      'notification/publish/recipient-field-name',
      res.status === 204
        ? "recipientTo accepted (HTTP 204): the deployment reads the rule text's name"
        : `recipientTo alone refused: ${seen(res, 160)}`,
    );
  },
  { budget: 1 },
);
