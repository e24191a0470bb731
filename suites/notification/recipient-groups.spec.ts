import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import {
  accepted,
  listed,
  notListed,
  refused,
  unchanged,
  answeredByReading,
  withCode,
} from '../engine/checks/index.ts';
import { fieldValues } from '../engine/resources/index.ts';
import { hasOtherTenant, mentions, notificationTest as test, seen, NO_OTHER } from './notification-client.ts';
import { createGroup, createRecipient, groupName, postGroup } from './notification-resources.ts';
import { getGroup, putGroup, foreignRecipientId, searchGroups } from './recipient-groups-support.ts';

test(
  ['notification/groups/create-200'],
  'POST /recipient/recipientgroup answers 200 and the group is then found by name',
  async (t) => {
    const r = await createRecipient(t);
    const name = groupName(t);
    const { res } = await postGroup(t, { groupName: name, recipientIds: [{ recipientId: r.id }] });
    accepted(t, {
      rule: 'notification/groups/create-200',
      res,
      what: 'a valid CreateRecipientGroupRequest',
      statuses: [200],
    });
    const found = await searchGroups(t, name);
    listed(t, {
      rule: 'notification/groups/create-200',
      res: found,
      what: 'the created group, searched by its name',
      items: [name],
    });
    // "unique within a tenant" bars only a name another group holds: a second group of another name is created too.
    const second = await postGroup(t, { groupName: groupName(t), recipientIds: [{ recipientId: r.id }] });
    accepted(t, {
      rule: 'notification/groups/create-200',
      res: second.res,
      what: 'a second group of another name in the same tenant',
      statuses: [200],
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 7 },
);

test(
  [
    'notification/groups/name-required',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-invalid-request-body-property',
  ],
  'a group without a groupName, or with a blank or non-string one, is refused',
  async (t) => {
    await fieldValues(t, {
      rule: 'notification/groups/name-required',
      field: 'groupName',
      cases: [
        { value: undefined, valid: false, what: 'a group without groupName' },
        { value: 42, valid: false },
        { value: ['x'], valid: false },
        // A blank name is a missing one by our reading: the document says only "string".
        { value: '   ', valid: false, reading: 'blank-is-missing' },
        { value: '', valid: false, reading: 'blank-is-missing' },
      ],
      send: async (c) => (await postGroup(t, { groupName: c.value, recipientIds: [] })).res,
      // A refusal on a reading is judged by its status alone.
      refusal: (c) =>
        c.reading ? {} : withCode(c.value === undefined ? 'missingRequestBodyProperty' : 'invalidRequestBodyProperty'),
    });
  },
  { budget: 5 },
);

test(
  ['notification/groups/search-by-name'],
  'POST /recipient/recipientgroup/search lists the matching groups, all for a blank name, none of another tenant',
  async (t) => {
    const g1 = await createGroup(t, { name: groupName(t, 'alpha') });
    const g2 = await createGroup(t, { name: groupName(t, 'beta') });
    const one = await searchGroups(t, g1.name);
    listed(t, {
      rule: 'notification/groups/search-by-name',
      res: one,
      what: 'the search by name',
      items: [g1.name],
    });
    notListed(t, {
      rule: 'notification/groups/search-by-name',
      res: one,
      what: 'the search by name',
      items: [g2.name],
    });
    const all = await searchGroups(t, '');
    listed(t, {
      rule: 'notification/groups/search-by-name',
      res: all,
      what: 'every group, to a blank search',
      items: [g1.name, g2.name],
    });
    if (hasOtherTenant(t)) {
      const other = await searchGroups(t, '', 'otherTenant');
      notListed(t, {
        rule: 'notification/groups/search-by-name',
        res: other,
        what: "the group, to another tenant's search",
        items: [g1.name],
        severity: 'critical',
      });
    } else t.notExercised('notification/groups/search-by-name', NO_OTHER);
    // SearchRequest: "name (string, name to match)", "Used for recipients and recipient groups".
    const bad = await searchGroups(t, 42);
    refused(t, {
      rule: 'notification/groups/search-by-name',
      res: bad,
      what: 'a group search whose name is the number 42',
    });
  },
  { budget: 11 },
);

// The items of recipientIds, on create and on update: each rule about one item holds wherever the
// bad item stands among valid ones.

test(
  ['notification/groups/members-same-tenant', 'notification/errors/code-invalid-request-body-property'],
  'a recipient of another tenant anywhere among the members is refused on create and on ADD, leaving the group unchanged',
  async (t) => {
    const foreign = await foreignRecipientId(t);
    // A deleted recipient stands in for another tenant's: the other-tenant case itself is not tried.
    if (!hasOtherTenant(t)) t.notExercised('notification/groups/members-same-tenant', NO_OTHER);
    const own = [await createRecipient(t), await createRecipient(t), await createRecipient(t)];
    const stranger = `recipient ${foreign}, not of the tenant`;
    const onCreate = listWithBadItems({
      rule: 'notification/groups/members-same-tenant',
      valid: own.map((r) => ({ recipientId: r.id })),
      bad: { [stranger]: { recipientId: foreign } },
    });
    await t.property(
      onCreate,
      async (list) => {
        const created = await postGroup(t, { groupName: groupName(t), recipientIds: list.items });
        refused(t, {
          rule: 'notification/groups/members-same-tenant',
          res: created.res,
          what: `a group with ${badItemsText(list)}`,
          statuses: [400],
          statusReading: 'listed-id-400',
          ...withCode('invalidRequestBodyProperty'),
        });
      },
      { rule: 'notification/groups/members-same-tenant' },
    );
    const onAdd = listWithBadItems({
      rule: 'notification/groups/members-same-tenant',
      valid: own.map((r) => ({ operation: 'ADD', recipientId: r.id })),
      bad: { [stranger]: { operation: 'ADD', recipientId: foreign } },
    });
    await t.property(
      onAdd,
      async (list) => {
        // A group of its own per run: an ADD taken by mistake does not carry over to the next.
        const g = await createGroup(t, { members: [own[0].id] });
        const before = await getGroup(t, g.id);
        const add = await putGroup(t, { groupId: g.id, recipientIds: list.items });
        const what = `ADD items with ${badItemsText(list)}`;
        refused(t, {
          rule: 'notification/groups/members-same-tenant',
          res: add,
          what,
          statuses: [400],
          statusReading: 'listed-id-400',
          ...withCode('invalidRequestBodyProperty'),
        });
        const after = await getGroup(t, g.id);
        unchanged(t, {
          rule: 'notification/groups/members-same-tenant',
          res: after,
          intact: before.status === 200 && after.status === 200 && after.text === before.text,
          what,
          expected: seen(before, 200),
        });
      },
      { rule: 'notification/groups/members-same-tenant' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 30, budgetPerRun: 4 },
);

test(
  ['notification/groups/member-shape', 'notification/errors/code-missing-request-body-property'],
  'recipientIds that are not objects with an integer recipientId are refused, wherever the bad item stands (create and update)',
  async (t) => {
    const r = await createRecipient(t);
    const others = [await createRecipient(t), await createRecipient(t)];
    const g = await createGroup(t);
    // Not a list of items at all.
    for (const shape of [{ recipientId: r.id }, String(r.id)])
      refused(t, {
        rule: 'notification/groups/member-shape',
        res: (await postGroup(t, { groupName: groupName(t), recipientIds: shape })).res,
        what: `POST with recipientIds ${JSON.stringify(shape)}`,
      });
    const items = {
      'a bare recipient ID': r.id,
      'recipientId as text': { recipientId: String(r.id) },
      'recipientId 1.5 off': { recipientId: r.id + 0.5 },
      'an item in an array': [r.id],
      'an item without recipientId': {},
    };
    const onCreate = listWithBadItems({
      rule: 'notification/groups/member-shape',
      valid: others.map((o) => ({ recipientId: o.id })),
      bad: items,
    });
    // Errors: "| 400 | missingRequestBodyProperty |": an item without its recipientId misses a property.
    await t.property(
      onCreate,
      async (list) =>
        refused(t, {
          rule: 'notification/groups/member-shape',
          res: (await postGroup(t, { groupName: groupName(t), recipientIds: list.items })).res,
          what: `POST with recipientIds holding ${badItemsText(list)}`,
          ...withCode(list.bad[0].kind === 'an item without recipientId' ? 'missingRequestBodyProperty' : undefined),
        }),
      { rule: 'notification/groups/member-shape' },
    );
    // UpdateRecipientGroupRequest: "recipientId int64" in DELETE items as much as in ADD ones.
    const withOp = (op: string, x: unknown) =>
      x && typeof x === 'object' && !Array.isArray(x) ? { operation: op, ...x } : x;
    const onUpdate = listWithBadItems({
      rule: 'notification/groups/member-shape',
      valid: others.map((o) => ({ operation: 'ADD', recipientId: o.id })),
      bad: {
        ...Object.fromEntries(Object.entries(items).map(([k, v]) => [k, withOp('ADD', v)])),
        'a DELETE item whose recipientId is text': { operation: 'DELETE', recipientId: String(r.id) },
        'a DELETE item whose recipientId is 1.5 off': { operation: 'DELETE', recipientId: r.id + 0.5 },
      },
    });
    await t.property(
      onUpdate,
      async (list) =>
        refused(t, {
          rule: 'notification/groups/member-shape',
          res: await putGroup(t, { groupId: g.id, recipientIds: list.items }),
          what: `PUT with recipientIds holding ${badItemsText(list)}`,
        }),
      { rule: 'notification/groups/member-shape' },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 48, budgetPerRun: 2 },
);

test(
  ['notification/groups/update-operation-enum', 'notification/errors/code-missing-request-body-property'],
  'PUT /recipient/recipientgroup adds ADD members and removes DELETE members; another operation anywhere among the items is refused',
  async (t) => {
    const a = await createRecipient(t);
    const b = await createRecipient(t);
    const others = [await createRecipient(t), await createRecipient(t)];
    const g = await createGroup(t, { members: [a.id] });
    const before = await getGroup(t, g.id);
    if (!mentions(before, a.name))
      t.skip(
        'the group record (declared only as "string") does not show its members\' names, so membership cannot be observed',
      );
    const WITHOUT = 'an item without operation';
    const lists = listWithBadItems({
      rule: 'notification/groups/update-operation-enum',
      valid: [a, ...others].map((r) => ({ operation: 'ADD', recipientId: r.id })),
      bad: {
        'operation MERGE': { operation: 'MERGE', recipientId: b.id },
        'operation add': { operation: 'add', recipientId: b.id },
        [WITHOUT]: { recipientId: b.id },
      },
    });
    await t.property(
      lists,
      async (list) => {
        const res = await putGroup(t, { groupId: g.id, recipientIds: list.items });
        const what = `recipientIds with ${badItemsText(list)}`;
        // operation is not marked required: an item without it may be taken as ADD. That it is
        // refused (400 missingRequestBodyProperty) is our reading; it adds b at most, which the
        // last step does too.
        if (list.bad[0].kind === WITHOUT)
          answeredByReading(t, {
            rule: 'notification/groups/update-operation-enum',
            res,
            what,
            reading: 'operation-required',
            allowed: [200, 400],
            wanted: 400,
            ...withCode('missingRequestBodyProperty'),
          });
        else refused(t, { rule: 'notification/groups/update-operation-enum', res, what });
      },
      { rule: 'notification/groups/update-operation-enum' },
    );
    const res = await putGroup(t, {
      groupId: g.id,
      recipientIds: [
        { operation: 'ADD', recipientId: b.id },
        { operation: 'DELETE', recipientId: a.id },
      ],
    });
    accepted(t, {
      rule: 'notification/groups/update-operation-enum',
      res,
      what: 'ADD of one member and DELETE of another',
      statuses: [200],
    });
    const after = await getGroup(t, g.id);
    listed(t, {
      rule: 'notification/groups/update-operation-enum',
      res: after,
      what: 'the members after ADD of one and DELETE of the other',
      items: [b.name],
      anyStatus: true,
    });
    notListed(t, {
      rule: 'notification/groups/update-operation-enum',
      res: after,
      what: 'the members after ADD of one and DELETE of the other',
      items: [a.name],
      anyStatus: true,
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 18, budgetPerRun: 1 },
);
