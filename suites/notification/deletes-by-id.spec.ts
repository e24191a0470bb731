// The deletes by ID of recipients and recipient groups, one table: the record a category (and, for
// a recipient, a group) holds beside another is deleted (200; a 409 for a record still referenced
// is allowed, deleting it is the reading held-record-deletable), its read is then 404 noMatch, the
// other record stays where it was held, and a second DELETE is 404 (the reading unknown-delete-404).
import { CLIENT_ERRORS, answeredByReading, listed, refused, withCode } from '../engine/checks/index.ts';
import { mentions, notificationTest as test, send } from './notification-client.ts';
import { createCategory, createGroup } from './notification-resources.ts';
import { RECIPIENT, RECIPIENT_GROUP, type ResourceDescription } from './resources.ts';

interface Deleted extends ResourceDescription {
  rules: readonly string[];
  budget: number;
  path: string;
  /** How a category holds it: the key of its recipient item, the list of the category's GET that shows it, the query that asks for that list. */
  held: {
    key: 'recipientId' | 'recipientGroupId';
    list: 'recipients' | 'recipientGroups';
    query?: Record<string, string>;
  };
  /** A recipient: a group holding it beside another keeps the other member. */
  inGroup: boolean;
  /** "path id (int64)": "abc" is refused, 400 rather than a 404 of routing by our reading. */
  nonInteger: boolean;
}

const DELETED: readonly Deleted[] = [
  {
    ...RECIPIENT,
    rules: [
      'notification/recipients/delete-by-id',
      'notification/errors/code-no-match',
      'notification/errors/code-invalid-parameter',
    ],
    budget: 12,
    path: '/recipient',
    held: { key: 'recipientId', list: 'recipients' },
    inGroup: true,
    nonInteger: true,
  },
  {
    ...RECIPIENT_GROUP,
    rules: ['notification/groups/delete-by-id', 'notification/errors/code-no-match'],
    budget: 9,
    path: '/recipient/recipientgroup',
    held: { key: 'recipientGroupId', list: 'recipientGroups', query: { recGroup: 'true' } },
    inGroup: false,
    nonInteger: false,
  },
];

test.each(
  DELETED,
  (r) => ({
    rules: r.rules,
    name: `DELETE ${r.path}/{id} removes the ${r.resource} a category holds; a second DELETE answers 404`,
    options: { needs: r.needs, budget: r.budget },
  }),
  async (t, r) => {
    const rule = r.rules[0];
    const gone = await r.create(t);
    // The path names the one record removed: another one a category holds beside it stays there.
    const keep = await r.create(t);
    const category = await createCategory(t, {
      recipients: [
        { position: 'TO', [r.held.key]: gone.key },
        { position: 'CC', [r.held.key]: keep.key },
      ],
    });
    // Likewise a group holding both recipients keeps the other member (the group record is
    // "string": judged where it names its members).
    const group = r.inGroup ? await createGroup(t, { members: [gone.key, keep.key] }) : undefined;
    const groupPath = `/recipient/recipientgroup/${group?.id}`;
    const shown = group && mentions(await send(t, { method: 'GET', path: groupPath }), keep.shows);
    const del = await send(t, { method: 'DELETE', path: `${r.path}/${gone.key}` });
    // A record a category holds: "409 conflict" may occur on any operation, so a refusal to delete a
    // record still referenced is allowed; that it is deleted is our reading.
    answeredByReading(t, {
      rule,
      res: del,
      what: `deleting a ${r.resource} of the tenant that a category${group ? ' and a group' : ''} hold${group ? '' : 's'}`,
      reading: 'held-record-deletable',
      allowed: [200, 409],
      wanted: 200,
    });
    if (del.status !== 200)
      t.skip(`the ${r.resource} a category holds was not deleted (409): the rest is not exercised`);
    if (group && shown)
      listed(t, {
        rule,
        res: await send(t, { method: 'GET', path: groupPath }),
        what: 'the other member of the group, after one recipient was deleted',
        items: [keep.shows],
      });
    else if (group)
      t.notExercised(
        rule,
        'the group record does not name its members, so whether the other member stayed could not be seen',
      );
    refused(t, {
      rule,
      res: await r.read(t, gone.key),
      what: `GET of the deleted ${r.resource}`,
      ...withCode('noMatch'),
      statuses: [404],
    });
    const held = await send(t, {
      method: 'GET',
      path: `/communicationcategories/${category.id}`,
      ...(r.held.query ? { query: r.held.query } : {}),
    });
    listed(t, {
      rule,
      res: held,
      what: `${r.resource} ${keep.key} among the ${r.held.list} of category ${category.id}, after another was deleted`,
      items: [keep.key],
      holds: (res, id) => {
        const list = (res.json as Record<string, unknown> | undefined)?.[r.held.list];
        return Array.isArray(list) && list.some((x) => (x as Record<string, unknown> | null)?.[r.held.key] === id);
      },
    });
    // DELETE of what is gone: 404 noMatch, or an idempotent success; the document does not say which.
    answeredByReading(t, {
      rule,
      res: await send(t, { method: 'DELETE', path: `${r.path}/${gone.key}` }),
      what: 'deleting it a second time',
      reading: 'unknown-delete-404',
      allowed: [200, 204, 404],
      wanted: 404,
      ...withCode('noMatch'),
    });
    if (r.nonInteger)
      answeredByReading(t, {
        rule,
        res: await send(t, { method: 'DELETE', path: `${r.path}/abc` }),
        what: 'DELETE of id "abc"',
        reading: 'non-integer-id-400',
        allowed: CLIENT_ERRORS,
        wanted: 400,
        ...withCode('invalidParameter'),
      });
  },
);
