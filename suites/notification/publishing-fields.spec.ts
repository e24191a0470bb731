import fc from 'fast-check';
import { badItemsText, boundaryValues, listWithBadItems } from '../../generators/index.ts';
import { accepted, refused, withCode } from '../engine/checks/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { fieldValues, type FieldValue } from '../engine/resources/index.ts';
import { exampleEmail, notificationTest as test, seen } from './notification-client.ts';
import { message, publish, broadcast, messageData } from './publishing-support.ts';
import { contractNode } from '../../contracts/facts.ts';

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
    await fieldValues(t, {
      rule: 'notification/publish/recipients-valid-emails',
      field: 'recipientsTo',
      cases: bad(cases),
      send: (c) => publish(t, message(t, { recipientsTo: c.value })),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
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

// The fields of a publish that broadcasts share (from, subject, priority), one table: each bad
// value of a publish is refused (the edges, then drawn ones), and so is one broadcast breaking it.
interface PublishField {
  rule: string;
  field: string;
  name: string;
  budget: number;
  budgetPerRun?: number;
  cases(t: RuleContext): Promise<FieldValue[]>;
  /** Bad values drawn after the cases. */
  drawn?(t: RuleContext): fc.Arbitrary<unknown>;
  /** A broadcast breaking the rule, and how a failure names it. */
  broadcast(t: RuleContext): { content: Record<string, unknown>; what: string };
}

const bad = (values: unknown[]): FieldValue[] => values.map((value) => ({ value, valid: false }));

const PUBLISH_FIELDS: readonly PublishField[] = [
  {
    rule: 'notification/publish/from-charset',
    field: 'from',
    name: 'a from with characters other than letters, digits, _, . and -, or not a string, is refused',
    budget: 6,
    budgetPerRun: 1,
    cases: async (t) => bad([`${t.prefix}@example.com`, `${t.prefix} x`, `${t.prefix}!`, 42, ['x']]),
    drawn: (t) =>
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{0,6}$/), fc.constantFrom('@', ' ', '!', '#', '/', '+', ','))
        .map(([s, c]) => `${t.prefix}${c}${s}` as unknown),
    broadcast: (t) => ({
      content: { body: { message: 'Conformance' }, from: `${t.prefix}@example.com`, subject: 'Conformance' },
      what: 'a broadcast whose from holds "@"',
    }),
  },
  {
    rule: 'notification/publish/subject-alphanumeric',
    field: 'subject',
    name: 'a subject with other than letters and digits, or not a string, is refused',
    budget: 6,
    budgetPerRun: 1,
    // Whether a space breaks "Alphanumeric" is our reading, not the document's.
    cases: async () => [
      { value: 'Hello world', valid: false, reading: 'subject-space' },
      ...bad(['Hello!', '<b>Hi</b>', 42, true]),
    ],
    drawn: () =>
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,6}$/), fc.constantFrom('!', '<', '-', '_', '.', '?'))
        .map(([s, c]) => `Subject${c}${s}` as unknown),
    broadcast: (t) => ({
      content: { body: { message: 'Conformance' }, from: t.prefix, subject: 'Hello world!' },
      what: 'a broadcast whose subject is "Hello world!"',
    }),
  },
  {
    rule: 'notification/publish/priority-values',
    field: 'priority',
    name: 'a message priority other than 1 or 3 is refused, at every boundary of the contract',
    budget: 8,
    // The contract's enum gives 1 and 3 (accepted by the publishes above); 0, 2 and 4 and other types break it.
    cases: async () =>
      bad([
        ...boundaryValues(contractNode('notification', '#/components/schemas/PublishEmailContent/properties/priority'))
          .filter((b) => !b.valid)
          .map((b) => b.value),
        5,
        '1',
        1.5,
      ]),
    broadcast: (t) => ({
      content: { body: { message: 'Conformance' }, from: t.prefix, subject: 'Conformance', priority: 5 },
      what: 'a broadcast with priority 5',
    }),
  },
];

test.each(
  PUBLISH_FIELDS,
  (f) => ({
    rules: [f.rule, 'notification/errors/code-invalid-request-body-property'],
    name: `${f.name} (publish and broadcast)`,
    options: { budget: f.budget, budgetPerRun: f.budgetPerRun },
  }),
  async (t, f) => {
    const drawn = f.drawn?.(t);
    await fieldValues(t, {
      rule: f.rule,
      field: f.field,
      cases: await f.cases(t),
      property: drawn && { values: drawn.map((value) => ({ value, valid: false })), runs: 8 },
      send: (c) => publish(t, message(t, { [f.field]: c.value })),
      // A refusal on a reading is judged by its status alone.
      refusal: (c) => (c.reading ? {} : withCode('invalidRequestBodyProperty')),
    });
    const b = f.broadcast(t);
    refused(t, {
      rule: f.rule,
      res: await broadcast(t, messageData(b.content)),
      what: b.what,
      ...withCode('invalidRequestBodyProperty'),
    });
  },
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
