import fc from 'fast-check';
import { boundaryValues } from '../../generators/index.ts';
import { contractNode } from '../../contracts/facts.ts';
import {
  accepted,
  createdWithId,
  matchesSchema,
  notListed,
  storedAsSent,
  everyItem,
  withCode,
} from '../engine/checks/index.ts';
import {
  fixturesOf,
  hasOtherTenant,
  homeTenant,
  notificationTest as test,
  send,
  tag,
  NO_OTHER,
} from './notification-client.ts';
import { categoryBody, createCategory, createRecipient, createdId, postCategory } from './notification-resources.ts';
import {
  getCategory,
  putCategory,
  view,
  listIn,
  alphanumericCase,
  templateItems,
  type Position,
} from './categories-support.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { fieldValues, type FieldValue } from '../engine/resources/index.ts';

/**
 * How a category field is sent on create (`POST`) or on an update of category `id` (`PUT`), and
 * how a refusal of either is judged (a refusal on a reading by its status alone).
 */
function categoryField(t: RuleContext, id: number, field: string) {
  return {
    send: (c: FieldValue) =>
      c.via === 'PUT'
        ? putCategory(t, id, { [field]: c.value })
        : postCategory(t, categoryBody(t, { [field]: c.value })),
    statuses: (c: FieldValue) => (c.via === 'PUT' ? [204] : [201]),
    refusal: (c: FieldValue) => (c.reading ? {} : withCode('invalidRequestBodyProperty')),
  };
}

test(
  ['notification/categories/create-201-id'],
  'POST /communicationcategories/ answers 201 with the integer ID, which GET then serves',
  async (t) => {
    const body = categoryBody(t);
    const res = await postCategory(t, body);
    createdWithId(t, { rule: 'notification/categories/create-201-id', res, what: 'a category' });
    const got = await getCategory(t, res.json as number);
    storedAsSent(t, {
      rule: 'notification/categories/create-201-id',
      res: got,
      what: 'the created category, read by its ID',
      stored: view(got),
      sent: { msgCategoryId: res.json, msgCategoryName: body.msgCategoryName },
    });
  },
  { budget: 3 },
);

test(
  ['notification/categories/from-application-name', 'notification/errors/code-invalid-request-body-property'],
  'a category from that is an address or not a string is refused on create and update; an application name is taken',
  async (t) => {
    const good = await postCategory(t, categoryBody(t, { from: `${t.prefix}appname1` }));
    accepted(t, { rule: 'notification/categories/from-application-name', res: good, what: 'from "<prefix>appname1"' });
    const bad: unknown[] = [`${t.prefix}@example.com`, 'noreply@example.com', 42, ['app']];
    await fieldValues(t, {
      rule: 'notification/categories/from-application-name',
      field: 'from',
      cases: [
        // Which signs an application name may hold is our reading: the document says only "Application name".
        {
          value: `${t.prefix}.app-name_1`,
          valid: true,
          reading: 'app-name-charset',
          what: 'from "<prefix>.app-name_1"',
        },
        ...bad.map((value) => ({ value, valid: false, via: 'POST' })),
      ],
      property: { values: fc.constantFrom(...bad).map((value) => ({ value, valid: false, via: 'PUT' })), runs: 4 },
      ...categoryField(t, createdId(good)!, 'from'),
    });
  },
  { budget: 7, budgetPerRun: 1 },
);

test(
  ['notification/categories/sender-built'],
  'GET /communicationcategories/{id} answers as from an address built of the application name and the tenant ID',
  async (t) => {
    const app = `${t.prefix}sender`;
    const { id } = await createCategory(t, { from: app });
    const got = await getCategory(t, id);
    const tenant = await homeTenant(t);
    storedAsSent(t, {
      rule: 'notification/categories/sender-built',
      res: got,
      what: `the sender address, built of "${app}"${tenant ? `, "${tenant}"` : ''} and "@"`,
      stored: view(got),
      sent: {
        from: (v: unknown) =>
          typeof v === 'string' && v.includes('@') && v.includes(app) && (!tenant || v.includes(tenant)),
      },
    });
  },
  { budget: 3 },
);

test(
  ['notification/categories/sender-built'],
  "a category's sender address is at the platform mail domain the configuration names",
  async (t) => {
    // "at the platform mail domain": which domain that is, only the deployment's configuration says.
    t.need('fixtures.notification.senderDomain');
    const domain = fixturesOf(t).senderDomain ?? '';
    const { id } = await createCategory(t, { from: `${t.prefix}sender` });
    const got = await getCategory(t, id);
    storedAsSent(t, {
      rule: 'notification/categories/sender-built',
      res: got,
      what: `the sender address, at ${domain}`,
      stored: view(got),
      sent: { from: (v: unknown) => typeof v === 'string' && v.toLowerCase().endsWith(`@${domain.toLowerCase()}`) },
    });
  },
  { needs: ['fixtures.notification.senderDomain'], budget: 2 },
);

for (const [field, rule] of [
  ['msgCategoryName', 'notification/categories/name-alphanumeric'],
  ['subject', 'notification/categories/subject-alphanumeric'],
] as const) {
  test(
    [rule, 'notification/errors/code-invalid-request-body-property'],
    `a category ${field} is taken alphanumeric only (property, create and update)`,
    async (t) => {
      const { id } = await createCategory(t);
      // Whether an empty text or a space is "Alphanumeric only" is our reading, not the document's.
      const space = field === 'subject' ? 'subject-space' : 'category-name-space';
      await fieldValues(t, {
        rule,
        field,
        // The edges first: signs on create, a sign on update, an empty text, another type.
        cases: [
          { value: `${t.prefix}-x`, valid: false, via: 'POST' },
          { value: `${t.prefix} x`, valid: false, via: 'POST', reading: space },
          { value: '', valid: false, via: 'POST', reading: 'empty-not-alphanumeric' },
          { value: 42, valid: false, via: 'POST' },
          { value: `${t.prefix}!x`, valid: false, via: 'PUT' },
        ],
        property: {
          values: fc
            .tuple(alphanumericCase(t, ['!', '<', '-', '_', '.', '&']), fc.boolean())
            .map(([{ value, valid }, onUpdate]) => ({
              // Valid names get a unique tail so that no two categories of the run share one.
              value: valid && field === 'msgCategoryName' ? `${value as string}${tag()}` : value,
              valid,
              via: onUpdate ? 'PUT' : 'POST',
            })),
          runs: 10,
        },
        ...categoryField(t, id, field),
      });
    },
    { budget: 6, budgetPerRun: 1 },
  );
}

test(
  ['notification/categories/priority-values', 'notification/errors/code-invalid-request-body-property'],
  'a category priority is taken as 1, 3 or 5 only (every boundary of the contract, create and update)',
  async (t) => {
    const schema = contractNode('notification', '#/components/schemas/CreateCommunicationCategory/properties/priority');
    // The contract's enum gives 1, 3, 5 (valid) and 0, 2, 4, 6 (invalid); other types break it too.
    const cases = [
      ...boundaryValues(schema),
      { constraint: 'type', value: '3', valid: false },
      { constraint: 'type', value: 3.5, valid: false },
    ];
    const { id } = await createCategory(t);
    await fieldValues(t, {
      rule: 'notification/categories/priority-values',
      field: 'priority',
      cases: ['POST', 'PUT'].flatMap((via) => cases.map(({ value, valid }) => ({ value, valid, via }))),
      ...categoryField(t, id, 'priority'),
    });
  },
  { budget: 20 },
);

test(
  ['notification/categories/recipient-position'],
  'category recipients are taken at TO, CC and BCC, and keep their positions',
  async (t) => {
    const rs = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const positions: Position[] = ['TO', 'CC', 'BCC'];
    const good = await postCategory(
      t,
      categoryBody(t, { recipients: rs.map((r, i) => ({ position: positions[i], recipientId: r.id })) }),
    );
    accepted(t, {
      rule: 'notification/categories/recipient-position',
      res: good,
      what: 'recipients at TO, CC and BCC',
    });
    const got = await getCategory(t, createdId(good)!);
    const listed = listIn(got, 'recipients')
      .map((x) => `${String(x.recipientId)}:${String(x.position)}`)
      .sort();
    const want = rs.map((r, i) => `${r.id}:${positions[i]}`).sort();
    storedAsSent(t, {
      rule: 'notification/categories/recipient-position',
      what: 'the positions of the recipients',
      stored: { recipients: JSON.stringify(listed) },
      sent: { recipients: JSON.stringify(want) },
    });
    // A bad item, wherever it stands: categories-lists.spec.ts.
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 3 },
);

test(
  ['notification/categories/template-channel'],
  'category templates are taken for channels Email and Push Notification',
  async (t) => {
    const good = await postCategory(t, categoryBody(t, { templates: (await templateItems(t)).items }));
    accepted(t, {
      rule: 'notification/categories/template-channel',
      res: good,
      what: 'templates of channels Email and Push Notification',
    });
    // A bad item, wherever it stands: categories-lists.spec.ts.
  },
  { needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'], budget: 3 },
);

test(
  ['notification/categories/list'],
  "GET /communicationcategories/ lists the tenant's categories with ID, name and priority, and none of another tenant",
  async (t) => {
    const { id, body } = await createCategory(t, { priority: 5 });
    const res = await send(t, { method: 'GET', path: '/communicationcategories/' });
    const items = Array.isArray(res.json) ? (res.json as Array<Record<string, unknown>>) : [];
    everyItem(t, {
      rule: 'notification/categories/list',
      res,
      what: 'a category with msgCategoryId, msgCategoryName and priority',
      items,
      is: (x) =>
        Number.isSafeInteger(x?.msgCategoryId) &&
        typeof x?.msgCategoryName === 'string' &&
        Number.isInteger(x?.priority),
      expected: 'HTTP 200 with a JSON array, every item with the three fields',
      arrayBody: true,
    });
    for (const item of items.slice(0, 50))
      await matchesSchema(t, 'notification/categories/list', item, 'CommunicationCategory', 'a category list item');
    storedAsSent(t, {
      rule: 'notification/categories/list',
      what: `category ${id}, as listed`,
      stored: items.find((x) => x.msgCategoryId === id),
      sent: { msgCategoryName: body.msgCategoryName, priority: 5 },
    });
    if (hasOtherTenant(t)) {
      const other = await send(t, { method: 'GET', path: '/communicationcategories/' }, 'otherTenant');
      notListed(t, {
        rule: 'notification/categories/list',
        res: other,
        what: `category ${id}, to another tenant`,
        items: [id],
        holds: (r, i) =>
          Array.isArray(r.json) && (r.json as Array<Record<string, unknown>>).some((x) => x?.msgCategoryId === i),
        severity: 'critical',
      });
    } else t.notExercised('notification/categories/list', NO_OTHER);
  },
  { budget: 4 },
);
