import { badItemsText, listWithBadItems, type ListWithBadItems } from '../../generators/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { refused, unchanged, withCode } from '../engine/checks/index.ts';
import { channelId, notificationTest as test } from './notification-client.ts';
import {
  categoryBody,
  createCategory,
  createRecipient,
  createTemplateSet,
  postCategory,
  templateOf,
} from './notification-resources.ts';
import { getCategory, listIn, putCategory } from './categories-support.ts';

// The recipient and template items of a category, on create and as ADD items of an update: each
// rule about one item holds wherever the bad item stands among valid ones.

/** The items as ADD items of an UpdateCommunicationCategory (a bare value is left as it is). */
function asAdd(items: unknown[]): unknown[] {
  return items.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? { operation: 'ADD', ...x } : x));
}

/** The Email and Push Notification templates of a new set, as category template items. */
async function templateItems(t: RuleContext) {
  const email = channelId(t, 'email');
  const push = channelId(t, 'push');
  const set = await createTemplateSet(t, { channels: [email, push] });
  const e = templateOf(t, set, email);
  const p = templateOf(t, set, push);
  return {
    set,
    e,
    p,
    items: [
      { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id },
      { commChannelName: 'Push Notification', templateId: p.templateId, templatesetId: set.id },
    ],
  };
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
