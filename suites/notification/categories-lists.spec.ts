import { badItemsText, listWithBadItems, type ListWithBadItems } from '../../generators/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  accepted,
  applied,
  refused,
  served,
  unchanged,
  UNKNOWN_REFUSAL,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import { UNKNOWN_ID, notificationTest as test, send } from './notification-client.ts';
import { categoryBody, createCategory, createRecipient, postCategory } from './notification-resources.ts';
import { getCategory, listIn, putCategory, templateItems } from './categories-support.ts';

// The lists a category request names in its query or body (categoryIds, the recipients to
// unsubscribe, the fields of a search): each rule about one item holds wherever the item stands,
// and each listed item is acted on, however many there are.

test(
  [
    'notification/categories/delete-ids-format',
    'notification/errors/code-invalid-parameter',
    'notification/errors/code-no-match',
  ],
  'DELETE /communicationcategories/ refuses a categoryIds item that is not an integer ID (400) or names no category (404), wherever it stands, deleting nothing',
  async (t) => {
    const { id } = await createCategory(t);
    // Not a comma-separated list at all.
    for (const ids of ['abc', `${id};${id}`])
      refused(t, {
        rule: 'notification/categories/delete-ids-format',
        res: await send(t, { method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: ids } }),
        what: `categoryIds=${ids}`,
        ...withCode('invalidParameter'),
      });
    const held = [id, (await createCategory(t)).id, (await createCategory(t)).id];
    const UNKNOWN = 'an ID naming no category';
    const lists = listWithBadItems({
      rule: 'notification/categories/delete-ids-format',
      valid: held.map(String),
      bad: { 'a word': 'x', 'a decimal': '1.5', [UNKNOWN]: String(UNKNOWN_ID) },
    });
    await t.property(
      lists,
      async (list) => {
        const categoryIds = list.items.join(',');
        const res = await send(t, { method: 'DELETE', path: '/communicationcategories/', query: { categoryIds } });
        const what = `categoryIds=${categoryIds} (${badItemsText(list)})`;
        if (list.bad[0].kind === UNKNOWN)
          refused(t, { rule: 'notification/categories/delete-ids-format', res, what, ...UNKNOWN_REFUSAL });
        else
          refused(t, {
            rule: 'notification/categories/delete-ids-format',
            res,
            what,
            ...withCode('invalidParameter'),
          });
      },
      { rule: 'notification/categories/delete-ids-format' },
    );
    for (const category of held) {
      const still = await getCategory(t, category);
      served(t, {
        rule: 'notification/categories/delete-ids-format',
        res: still,
        what: `category ${category}, after a refused DELETE`,
      });
    }
  },
  { budget: 20, budgetPerRun: 1 },
);

test(
  ['notification/categories/delete-204'],
  'DELETE /communicationcategories/?categoryIds=a,b,… answers 204 and deletes every listed category',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'notification/categories/delete-204',
      valid: [],
      bad: { 'a category of the tenant': 'category' },
      maxBad: 3,
    });
    await t.property(
      lists,
      async (list) => {
        const ids: number[] = [];
        for (const _ of list.items) ids.push((await createCategory(t)).id);
        const res = await send(t, {
          method: 'DELETE',
          path: '/communicationcategories/',
          query: { categoryIds: ids.join(',') },
        });
        accepted(t, {
          rule: 'notification/categories/delete-204',
          res,
          what: `categoryIds=${ids.join(',')}`,
          statuses: [204],
        });
        for (const [i, id] of ids.entries()) {
          const got = await getCategory(t, id);
          refused(t, {
            rule: 'notification/categories/delete-204',
            res: got,
            what: `GET of category ${id}, item ${i + 1} of ${ids.length} of categoryIds, once deleted`,
            statuses: [404],
          });
        }
      },
      { rule: 'notification/categories/delete-204', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  { budget: 18, budgetPerRun: 7 },
);

test(
  ['notification/categories/unsubscribe'],
  'POST /communicationcategories/unsubscribe/recipients removes every listed recipient from the category, and only those',
  async (t) => {
    const pool = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const lists = listWithBadItems({
      rule: 'notification/categories/unsubscribe',
      valid: [],
      bad: { 'a recipient of the category': 'recipient' },
      maxBad: 3,
    });
    await t.property(
      lists,
      async (list) => {
        const { id } = await createCategory(t, {
          recipients: pool.map((r) => ({ position: 'TO', recipientId: r.id })),
        });
        const leaving = pool.slice(0, list.items.length).map((r) => r.id);
        const res = await send(t, {
          method: 'POST',
          path: '/communicationcategories/unsubscribe/recipients',
          json: { msgCategoryId: id, recipients: leaving.map((recipientId) => ({ recipientId })) },
        });
        accepted(t, {
          rule: 'notification/categories/unsubscribe',
          res,
          what: `unsubscribing ${leaving.length} recipients`,
          statuses: [200],
        });
        const ids = listIn(await getCategory(t, id), 'recipients').map((x) => x.recipientId);
        const staying = pool.map((r) => r.id).filter((r) => !leaving.includes(r));
        applied(t, {
          rule: 'notification/categories/unsubscribe',
          what: `unsubscribe of ${leaving.length} recipients, to each of them alone (whether each is still held)`,
          want: Object.fromEntries(pool.map((r) => [r.id, staying.includes(r.id)])),
          got: Object.fromEntries(pool.map((r) => [r.id, ids.includes(r.id)])),
        });
      },
      { rule: 'notification/categories/unsubscribe', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 27, budgetPerRun: 3 },
);

test(
  ['notification/categories/search-fields-required', 'notification/errors/code-invalid-parameter'],
  'GET /communicationcategories/search/ with a field other than recipient_count and channels anywhere in fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'notification/categories/search-fields-required',
      valid: ['recipient_count', 'channels'],
      bad: { 'field name': 'name', 'field owner': 'owner', 'field RECIPIENT_COUNT': 'RECIPIENT_COUNT' },
    });
    // "supported: recipient_count, channels" lists what works: refusing other names (rather than
    // computing only the supported ones) is our reading.
    await t.property(
      lists,
      async (list) =>
        answeredByReading(t, {
          rule: 'notification/categories/search-fields-required',
          res: await send(t, {
            method: 'GET',
            path: '/communicationcategories/search/',
            query: { fields: list.items.join(',') },
          }),
          what: `fields=${list.items.join(',')} (${badItemsText(list)})`,
          reading: 'unsupported-fields-refused',
          allowed: [200, ...CLIENT_ERRORS],
          wanted: 400,
          ...withCode('invalidParameter'),
        }),
      { rule: 'notification/categories/search-fields-required' },
    );
  },
  { readOnly: true, budget: 9, budgetPerRun: 1 },
);

// The recipient and template items of a category, on create and as ADD items of an update: each
// rule about one item holds wherever the bad item stands among valid ones.

/** The items as ADD items of an UpdateCommunicationCategory (a bare value is left as it is). */
function asAdd(items: unknown[]): unknown[] {
  return items.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? { operation: 'ADD', ...x } : x));
}

/** POST the list as a category's `field`, then PUT it as ADD items of `categoryId`: each refused with 400. */
async function refusedOnCreateAndAdd(
  t: RuleContext,
  rule: string,
  field: 'recipients' | 'templates',
  categoryId: number,
  list: ListWithBadItems,
): Promise<void> {
  const what = `${field} with ${badItemsText(list)}`;
  const create = await postCategory(t, categoryBody(t, { [field]: list.items }));
  refused(t, { rule, res: create, what: `POST ${what}`, ...withCode('invalidRequestBodyProperty') });
  const add = await putCategory(t, categoryId, { [field]: asAdd(list.items) });
  refused(t, {
    rule,
    res: add,
    what: `PUT ${what} (ADD items)`,
    ...withCode('invalidRequestBodyProperty'),
  });
}

test(
  ['notification/categories/recipient-position', 'notification/errors/code-invalid-request-body-property'],
  'a recipient item not at TO, CC or BCC, or without integer IDs, is refused wherever it stands (create and ADD)',
  async (t) => {
    const rs = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const { id } = await createCategory(t);
    const lists = listWithBadItems({
      rule: 'notification/categories/recipient-position',
      valid: rs.map((r, i) => ({ position: (['TO', 'CC', 'BCC'] as const)[i], recipientId: r.id })),
      bad: {
        'position FROM': { position: 'FROM', recipientId: rs[0].id },
        'position "to"': { position: 'to', recipientId: rs[0].id },
        'position 1': { position: 1, recipientId: rs[0].id },
        'recipientId as text': { position: 'TO', recipientId: String(rs[0].id) },
        'recipientGroupId 1.5': { position: 'CC', recipientGroupId: 1.5 },
      },
    });
    await t.property(
      lists,
      (list) => refusedOnCreateAndAdd(t, 'notification/categories/recipient-position', 'recipients', id, list),
      { rule: 'notification/categories/recipient-position' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 34, budgetPerRun: 2 },
);

test(
  ['notification/categories/template-channel', 'notification/errors/code-invalid-request-body-property'],
  'a template item of a channel other than Email, SMS or Push Notification, or without integer IDs, is refused wherever it stands (create, ADD and DELETE)',
  async (t) => {
    const { set, e, p, items } = await templateItems(t);
    const { id } = await createCategory(t);
    const lists = listWithBadItems({
      rule: 'notification/categories/template-channel',
      valid: items,
      bad: {
        'commChannelName Fax': { commChannelName: 'Fax', templateId: e.templateId, templatesetId: set.id },
        'commChannelName EMAIL': { commChannelName: 'EMAIL', templateId: e.templateId, templatesetId: set.id },
        'commChannelName Push': { commChannelName: 'Push', templateId: p.templateId, templatesetId: set.id },
        'templateId as text': { commChannelName: 'Email', templateId: String(e.templateId), templatesetId: set.id },
        'templatesetId 1.5': { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id + 0.5 },
      },
    });
    await t.property(
      lists,
      (list) => refusedOnCreateAndAdd(t, 'notification/categories/template-channel', 'templates', id, list),
      { rule: 'notification/categories/template-channel' },
    );
    // UpdateCategoryTemplate items have "the create-item fields plus operation": the enum holds for a
    // DELETE item as much as for an ADD one.
    const deletes = listWithBadItems({
      rule: 'notification/categories/template-channel',
      valid: asAdd(items),
      bad: {
        'a DELETE item of commChannelName Fax': {
          operation: 'DELETE',
          commChannelName: 'Fax',
          templateId: e.templateId,
          templatesetId: set.id,
        },
      },
    });
    await t.property(
      deletes,
      async (list) =>
        refused(t, {
          rule: 'notification/categories/template-channel',
          res: await putCategory(t, id, { templates: list.items }),
          what: `PUT templates with ${badItemsText(list)}`,
          ...withCode('invalidRequestBodyProperty'),
        }),
      { rule: 'notification/categories/template-channel' },
    );
  },
  {
    needs: ['fixtures.notification.channels.email', 'fixtures.notification.channels.push'],
    budget: 44,
    budgetPerRun: 3,
  },
);

test(
  ['notification/categories/update-operation-enum'],
  'PUT /communicationcategories/{id} refuses a recipient or template item without ADD or DELETE wherever it stands, and changes nothing',
  async (t) => {
    const rs = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const { e, items } = await templateItems(t);
    const { id } = await createCategory(t);
    const recipient = { position: 'TO', recipientId: rs[0].id };
    const recipientItems = listWithBadItems({
      rule: 'notification/categories/update-operation-enum',
      valid: rs.map((r) => ({ operation: 'ADD', position: 'CC', recipientId: r.id })),
      bad: {
        'a recipient item without operation': recipient,
        'a recipient item with operation MERGE': { ...recipient, operation: 'MERGE' },
        'a recipient item with operation "add"': { ...recipient, operation: 'add' },
      },
    });
    const templateItemLists = listWithBadItems({
      rule: 'notification/categories/update-operation-enum',
      valid: asAdd(items),
      bad: {
        'a template item without operation': items[0],
        'a template item with operation REPLACE': { ...items[0], operation: 'REPLACE' },
      },
    });
    for (const [field, lists] of [
      ['recipients', recipientItems],
      ['templates', templateItemLists],
    ] as const)
      await t.property(
        lists,
        async (list: ListWithBadItems) =>
          refused(t, {
            rule: 'notification/categories/update-operation-enum',
            res: await putCategory(t, id, { [field]: list.items }),
            what: `${field} with ${badItemsText(list)}`,
          }),
        { rule: 'notification/categories/update-operation-enum' },
      );
    const after = await getCategory(t, id);
    unchanged(t, {
      rule: 'notification/categories/update-operation-enum',
      res: after,
      intact:
        listIn(after, 'recipients').length === 0 &&
        !listIn(after, 'templates').some((x) => x.templateId === e.templateId),
      what: 'the refused updates (the category holds no recipients and no templates)',
      expected: 'no recipients and no templates',
    });
  },
  {
    needs: [
      'fixtures.notification.addressTypes.email',
      'fixtures.notification.channels.email',
      'fixtures.notification.channels.push',
    ],
    budget: 26,
    budgetPerRun: 2,
  },
);
