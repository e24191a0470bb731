// The updates of recipients and recipient groups, one table: each is named by an ID in the body,
// refused without it and unknown with an ID that names nothing, and keeps a name it is not given.
import type { HttpResponse } from '../engine/http-client.ts';
import type { ConfigNeed } from '../engine/config-needs.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { accepted, listed, notListed, refused, UNKNOWN_REFUSAL, withCode } from '../engine/checks/index.ts';
import { UNKNOWN_ID, exampleEmail, notificationTest as test, recipientName } from './notification-client.ts';
import { createRecipient, groupName } from './notification-resources.ts';
import { RECIPIENT, RECIPIENT_GROUP, type ResourceDescription } from './resources.ts';
import { putGroup } from './recipient-groups-support.ts';
import { putRecipient, update } from './recipients-support.ts';

interface UpdatedById extends ResourceDescription {
  put: string;
  /** The body field that names the resource to update. */
  idField: string;
  nameField: string;
  rules: { byId: string; keepsName: string };
  /** What keeping a name needs besides making the resource. */
  keepNeeds: ConfigNeed[];
  send(t: RuleContext, body: unknown): Promise<HttpResponse>;
  /** A body that names the resource and changes something but its name, and a text it then shows. */
  change(t: RuleContext, id: number): { body: Record<string, unknown>; shows?: string };
  /** A body that names the resource and changes something, without its name. */
  keep(t: RuleContext, id: number): Promise<Record<string, unknown>>;
  /** A body renaming the resource. */
  rename(t: RuleContext, id: number, name: string): Record<string, unknown>;
  newName(t: RuleContext): string;
}

const RESOURCES: readonly UpdatedById[] = [
  {
    ...RECIPIENT,
    put: 'PUT /recipient/',
    idField: 'recipientid',
    nameField: 'recipientname',
    rules: {
      byId: 'notification/recipients/update-by-id',
      keepsName: 'notification/recipients/update-keeps-omitted-name',
    },
    keepNeeds: [],
    send: (t, body) => putRecipient(t, body),
    change(t, id) {
      const email = exampleEmail(t, 'new');
      return { body: update(t, id, {}, email), shows: email };
    },
    keep: (t, id) => Promise.resolve(update(t, id, {}, exampleEmail(t, 'kept'))),
    rename: (t, id, name) => update(t, id, { recipientname: name }),
    newName: (t) => recipientName(t, 'Renamed'),
  },
  {
    ...RECIPIENT_GROUP,
    put: 'PUT /recipient/recipientgroup',
    idField: 'groupId',
    nameField: 'groupName',
    rules: {
      byId: 'notification/groups/update-by-id',
      keepsName: 'notification/groups/update-keeps-omitted-name',
    },
    keepNeeds: ['fixtures.notification.addressTypes.email'],
    send: (t, body) => putGroup(t, body),
    change: (t, id) => ({ body: { groupId: id, groupName: groupName(t, 'upd') } }),
    async keep(t, id) {
      const member = await createRecipient(t);
      return { groupId: id, recipientIds: [{ operation: 'ADD', recipientId: member.id }] };
    },
    rename: (_t, id, name) => ({ groupId: id, groupName: name }),
    newName: (t) => groupName(t, 'renamed'),
  },
];

test.each(
  RESOURCES,
  (r) => ({
    rules: [
      r.rules.byId,
      'notification/errors/code-missing-request-body-property',
      'notification/errors/code-no-match',
    ],
    name: `${r.put} updates the ${r.resource} named by ${r.idField}; without it 400, an unknown one 404`,
    options: { needs: r.needs, budget: 6 },
  }),
  async (t, r) => {
    const created = await r.create(t);
    const change = r.change(t, created.key);
    accepted(t, {
      rule: r.rules.byId,
      res: await r.send(t, change.body),
      what: `an update naming the ${r.resource}`,
      statuses: [200],
    });
    if (change.shows !== undefined) {
      const got = await r.read(t, created.key);
      listed(t, {
        rule: r.rules.byId,
        res: got,
        what: `the ${r.resource} after the update`,
        items: [change.shows],
      });
    }
    const withoutId = { [r.nameField]: r.newName(t) };
    refused(t, {
      rule: r.rules.byId,
      res: await r.send(t, withoutId),
      what: `an update without ${r.idField}`,
      ...withCode('missingRequestBodyProperty'),
    });
    refused(t, {
      rule: r.rules.byId,
      res: await r.send(t, { ...r.change(t, UNKNOWN_ID).body, [r.nameField]: r.newName(t) }),
      what: `an update of ${r.resource} ${UNKNOWN_ID}, which does not exist`,
      ...UNKNOWN_REFUSAL,
    });
  },
);

test.each(
  RESOURCES,
  (r) => ({
    rules: [r.rules.keepsName],
    name: `${r.put} without ${r.nameField} keeps the name; with one renames`,
    options: { needs: [...r.needs, ...r.keepNeeds], budget: 9 },
  }),
  async (t, r) => {
    const created = await r.create(t);
    const keep = await r.send(t, await r.keep(t, created.key));
    const kept = await r.read(t, created.key);
    const rule = r.rules.keepsName;
    accepted(t, { rule, res: keep, what: `an update without ${r.nameField}`, statuses: [200] });
    listed(t, { rule, res: kept, what: `the name of the ${r.resource}, kept`, items: [created.shows] });
    const renamed = r.newName(t);
    const put = await r.send(t, r.rename(t, created.key, renamed));
    const got = await r.read(t, created.key);
    accepted(t, { rule, res: put, what: `a rename of the ${r.resource}`, statuses: [200] });
    listed(t, { rule, res: got, what: `the new name of the ${r.resource}`, items: [renamed], anyStatus: true });
    notListed(t, {
      rule,
      res: got,
      what: `the old name of the ${r.resource}`,
      items: [created.shows],
      anyStatus: true,
    });
  },
);
