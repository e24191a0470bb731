import { accepted, listed, withCode } from '../engine/checks/index.ts';
import { notificationTest as test } from './notification-client.ts';
import { fieldValues } from '../engine/resources/index.ts';
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
