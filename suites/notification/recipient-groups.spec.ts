import { accepted, listed, refused, withCode } from '../engine/checks/index.ts';
import { notificationTest as test, seen } from './notification-client.ts';
import { createRecipient, groupName, postGroup } from './notification-resources.ts';
import { searchGroups } from './recipient-groups-support.ts';

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
    const missing = await postGroup(t, { recipientIds: [] });
    refused(t, {
      rule: 'notification/groups/name-required',
      res: missing.res,
      what: 'a group without groupName',
      ...withCode('missingRequestBodyProperty'),
    });
    for (const value of [42, ['x']]) {
      const { res } = await postGroup(t, { groupName: value, recipientIds: [] });
      refused(t, {
        rule: 'notification/groups/name-required',
        res,
        what: `groupName ${JSON.stringify(value)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
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
