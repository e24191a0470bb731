import fc from 'fast-check';
import {
  accepted,
  hasOtherTenant,
  mentions,
  notificationTest as test,
  refused,
  refusedByReading,
  seen,
  verifyCode,
  NO_OTHER,
} from './notification-client.ts';
import { createGroup, createRecipient, groupName, postGroup } from './notification-resources.ts';
import { answeredByReading } from './answered-by-reading.ts';
import { getGroup, putGroup, searchGroups, foreignRecipientId } from './recipient-groups-support.ts';

test(
  ['notification/groups/create-200'],
  'POST /recipient/recipientgroup answers 200 and the group is then found by name',
  async (t) => {
    const r = await createRecipient(t);
    const name = groupName(t);
    const { res } = await postGroup(t, { groupName: name, recipientIds: [{ recipientId: r.id }] });
    accepted(t, 'notification/groups/create-200', res, 'a valid CreateRecipientGroupRequest', [200]);
    const found = await searchGroups(t, name);
    t.check('notification/groups/create-200', found.status === 200 && mentions(found, name), {
      title: 'the created group is not found by its name',
      expected: `HTTP 200 naming "${name}"`,
      received: seen(found),
    });
    // "unique within a tenant" bars only a name another group holds: a second group of another name is created too.
    const second = await postGroup(t, { groupName: groupName(t), recipientIds: [{ recipientId: r.id }] });
    accepted(
      t,
      'notification/groups/create-200',
      second.res,
      'a second group of another name in the same tenant',
      [200],
    );
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
    const missing = await postGroup(t, { recipientIds: [] });
    refused(
      t,
      'notification/groups/name-required',
      missing.res,
      'a group without groupName',
      'missingRequestBodyProperty',
    );
    for (const value of [42, ['x']]) {
      const { res } = await postGroup(t, { groupName: value, recipientIds: [] });
      refused(
        t,
        'notification/groups/name-required',
        res,
        `groupName ${JSON.stringify(value)}`,
        'invalidRequestBodyProperty',
      );
    }
    // A blank name is a missing one by our reading: the document says only "string".
    for (const value of ['   ', '']) {
      const { res } = await postGroup(t, { groupName: value, recipientIds: [] });
      t.reading('blank-is-missing', 'notification/groups/name-required', res.status === 400, {
        title: `not refused: groupName ${JSON.stringify(value)}`,
        expected: `HTTP 400 for groupName ${JSON.stringify(value)}`,
        received: seen(res),
      });
    }
  },
  { budget: 5 },
);

test(
  ['notification/groups/name-unique', 'notification/errors/code-conflict'],
  'a groupName used in the tenant is refused on create and on rename',
  async (t) => {
    const g = await createGroup(t);
    const again = await postGroup(t, { groupName: g.name, recipientIds: [] });
    refused(t, 'notification/groups/name-unique', again.res, `a second group named "${g.name}"`, undefined, [409, 400]);
    verifyCode(t, again.res, 'conflict');
    const h = await createGroup(t);
    const rename = await putGroup(t, { groupId: h.id, groupName: g.name });
    refused(t, 'notification/groups/name-unique', rename, `renaming a group to "${g.name}"`, undefined, [409, 400]);
    verifyCode(t, rename, 'conflict');
    // "unique within a tenant": a group's own name, sent again on update, is held by no other group.
    const same = await putGroup(t, { groupId: h.id, groupName: h.name });
    accepted(
      t,
      'notification/groups/name-unique',
      same,
      `an update of group ${h.id} resending its own name "${h.name}"`,
      [200],
    );
  },
  { budget: 9 },
);

test(
  ['notification/groups/name-unique'],
  'a groupName used in one tenant is taken in another',
  async (t) => {
    if (!hasOtherTenant(t))
      t.needsPrincipal('principals.otherTenant', 'needs the otherTenant principal (a second tenant)');
    const g = await createGroup(t);
    const { res } = await postGroup(t, { groupName: g.name, recipientIds: [] }, 'otherTenant');
    accepted(t, 'notification/groups/name-unique', res, `"${g.name}" in another tenant`, [200]);
  },
  { needs: ['principals.otherTenant'], budget: 6 },
);

test(
  ['notification/groups/members-same-tenant', 'notification/errors/code-invalid-request-body-property'],
  'a recipient of another tenant is refused as a member on create and on ADD, leaving the group unchanged',
  async (t) => {
    const foreign = await foreignRecipientId(t);
    // A deleted recipient stands in for another tenant's: the other-tenant case itself is not tried.
    if (!hasOtherTenant(t)) t.notExercised('notification/groups/members-same-tenant', NO_OTHER);
    const own = await createRecipient(t);
    const created = await postGroup(t, {
      groupName: groupName(t),
      recipientIds: [{ recipientId: own.id }, { recipientId: foreign }],
    });
    refusedByReading(
      t,
      'notification/groups/members-same-tenant',
      created.res,
      `a group with recipient ${foreign}, not of the tenant`,
      'listed-id-400',
      400,
      'invalidRequestBodyProperty',
    );
    const g = await createGroup(t, { members: [own.id] });
    const before = await getGroup(t, g.id);
    const add = await putGroup(t, { groupId: g.id, recipientIds: [{ operation: 'ADD', recipientId: foreign }] });
    refusedByReading(
      t,
      'notification/groups/members-same-tenant',
      add,
      `ADD of recipient ${foreign}, not of the tenant`,
      'listed-id-400',
      400,
      'invalidRequestBodyProperty',
    );
    const after = await getGroup(t, g.id);
    t.check(
      'notification/groups/members-same-tenant',
      before.status === 200 && after.status === 200 && after.text === before.text,
      {
        title: 'a refused ADD changed the group',
        expected: seen(before, 200),
        received: seen(after, 200),
      },
    );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 12 },
);

test(
  ['notification/groups/member-shape', 'notification/errors/code-missing-request-body-property'],
  'recipientIds that are not objects with an integer recipientId are refused (create and update)',
  async (t) => {
    const r = await createRecipient(t);
    const g = await createGroup(t);
    const shapes: unknown[] = [
      [r.id],
      [{ recipientId: String(r.id) }],
      [{ recipientId: r.id + 0.5 }],
      { recipientId: r.id },
      String(r.id),
      [[r.id]],
    ];
    for (const shape of shapes)
      refused(
        t,
        'notification/groups/member-shape',
        (await postGroup(t, { groupName: groupName(t), recipientIds: shape })).res,
        `POST with recipientIds ${JSON.stringify(shape)}`,
      );
    // Errors: "| 400 | missingRequestBodyProperty |": an item without its recipientId misses a property.
    refused(
      t,
      'notification/groups/member-shape',
      (await postGroup(t, { groupName: groupName(t), recipientIds: [{}] })).res,
      'POST with a recipientIds item without recipientId',
      'missingRequestBodyProperty',
    );
    await t.property(
      fc.constantFrom(...shapes),
      async (shape) => {
        const withOp = Array.isArray(shape)
          ? shape.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? { operation: 'ADD', ...x } : x))
          : shape;
        refused(
          t,
          'notification/groups/member-shape',
          await putGroup(t, { groupId: g.id, recipientIds: withOp }),
          `PUT with recipientIds ${JSON.stringify(withOp)}`,
        );
      },
      { rule: 'notification/groups/member-shape', runs: Math.min(t.session.context.runs, 5) },
    );
    // UpdateRecipientGroupRequest: "recipientId int64" in DELETE items as much as in ADD ones.
    for (const recipientId of [String(r.id), r.id + 0.5])
      refused(
        t,
        'notification/groups/member-shape',
        await putGroup(t, { groupId: g.id, recipientIds: [{ operation: 'DELETE', recipientId }] }),
        `PUT with a DELETE item whose recipientId is ${JSON.stringify(recipientId)}`,
      );
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 13, budgetPerRun: 1 },
);

test(
  ['notification/groups/update-operation-enum', 'notification/errors/code-missing-request-body-property'],
  'PUT /recipient/recipientgroup adds ADD members and removes DELETE members; another operation is refused',
  async (t) => {
    const a = await createRecipient(t);
    const b = await createRecipient(t);
    const g = await createGroup(t, { members: [a.id] });
    const before = await getGroup(t, g.id);
    if (!mentions(before, a.name))
      t.skip(
        'the group record (declared only as "string") does not show its members\' names, so membership cannot be observed',
      );
    for (const op of ['MERGE', 'add']) {
      refused(
        t,
        'notification/groups/update-operation-enum',
        // The rule holds for every item: the bad one comes after a valid one.
        await putGroup(t, {
          groupId: g.id,
          recipientIds: [
            { operation: 'ADD', recipientId: a.id },
            { operation: op, recipientId: b.id },
          ],
        }),
        `operation ${op} (second item)`,
      );
    }
    // operation is not marked required: an item without it may be taken as ADD. That it is refused
    // (400 missingRequestBodyProperty) is our reading; it adds b at most, which the next step does too.
    answeredByReading(
      t,
      'notification/groups/update-operation-enum',
      await putGroup(t, {
        groupId: g.id,
        recipientIds: [{ operation: 'ADD', recipientId: a.id }, { recipientId: b.id }],
      }),
      'a member item without operation (second item)',
      'operation-required',
      [200, 400],
      400,
      'missingRequestBodyProperty',
    );
    const res = await putGroup(t, {
      groupId: g.id,
      recipientIds: [
        { operation: 'ADD', recipientId: b.id },
        { operation: 'DELETE', recipientId: a.id },
      ],
    });
    accepted(t, 'notification/groups/update-operation-enum', res, 'ADD of one member and DELETE of another', [200]);
    const after = await getGroup(t, g.id);
    t.check('notification/groups/update-operation-enum', mentions(after, b.name) && !mentions(after, a.name), {
      title: 'ADD/DELETE not applied',
      expected: `the group lists "${b.name}" and not "${a.name}"`,
      received: seen(after),
    });
  },
  { needs: ['fixtures.notification.addressTypes.email'], budget: 12 },
);
