import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import {
  accepted,
  applied,
  refused,
  served,
  UNKNOWN_REFUSAL,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import { UNKNOWN_ID, notificationTest as test, send } from './notification-client.ts';
import { createCategory, createRecipient } from './notification-resources.ts';
import { getCategory, listIn } from './categories-support.ts';

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
