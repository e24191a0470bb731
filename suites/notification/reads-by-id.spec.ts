// The reads by ID of recipients, recipient groups and template sets, one table: a record of the
// tenant is served, an unknown ID is 404 noMatch, an ID that is no int64 is refused ("path id
// (int64)": 400 invalidParameter rather than a 404 of routing is the reading non-integer-id-400),
// and another tenant's record is not served.
import type { ConfigNeed } from '../engine/config-needs.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { answeredByReading, CLIENT_ERRORS } from './answered-by-reading.ts';
import { listed, refused } from '../engine/checks/index.ts';
import {
  NO_OTHER,
  UNKNOWN_ID,
  channelId,
  foreignRefused,
  hasOtherTenant,
  notificationTest as test,
  send,
  verifyCode,
} from './notification-client.ts';
import { createGroup, createRecipient, createTemplateSet } from './notification-resources.ts';
import { getGroup } from './recipient-groups-support.ts';
import { getRecipient } from './recipients-support.ts';

interface ReadById {
  resource: string;
  path: string;
  rule: string;
  needs: ConfigNeed[];
  budget: number;
  create(t: RuleContext): Promise<{ id: number; name: string }>;
  read(t: RuleContext, id: number | string, as?: 'otherTenant'): Promise<HttpResponse>;
  /** Whether the rule speaks of another tenant's record too (else another rule judges it). */
  foreign: boolean;
  /** IDs that are no int64 besides "abc": text around digits, values beyond the int64 range. */
  notInt64: readonly string[];
  /** The ends of the int64 range, which name nothing (refused; 404 is the reading int64-range-ends-404). */
  rangeEnds: readonly string[];
}

const READS: readonly ReadById[] = [
  {
    resource: 'recipient',
    path: 'GET /recipient/{id}',
    rule: 'notification/recipients/get-by-id',
    needs: ['fixtures.notification.addressTypes.email'],
    budget: 11,
    create: (t) => createRecipient(t),
    read: (t, id, as) => getRecipient(t, id, as),
    foreign: false,
    notInt64: ['x1', '1x', '9223372036854775808', '-9223372036854775809'],
    rangeEnds: ['9223372036854775807', '-9223372036854775808'],
  },
  {
    resource: 'recipient group',
    path: 'GET /recipient/recipientgroup/{id}',
    rule: 'notification/groups/get-by-id',
    needs: [],
    budget: 7,
    create: (t) => createGroup(t),
    read: (t, id, as) => getGroup(t, id, as),
    foreign: true,
    notInt64: [],
    rangeEnds: [],
  },
  {
    resource: 'template set',
    path: 'GET /template/templatesets/{id}',
    rule: 'notification/templates/get-set',
    needs: ['fixtures.notification.channels.email'],
    budget: 6,
    create: (t) => createTemplateSet(t, { channels: [channelId(t, 'email')] }),
    read: (t, id, as) => send(t, { method: 'GET', path: `/template/templatesets/${id}` }, as),
    foreign: true,
    notInt64: [],
    rangeEnds: [],
  },
];

test.each(
  READS,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-no-match', 'notification/errors/code-invalid-parameter'],
    name: `${r.path}: 200 for a ${r.resource} of the tenant, 404 for an unknown ID, refused for an ID that is no int64`,
    options: { needs: r.needs, budget: r.budget },
  }),
  async (t, r) => {
    const created = await r.create(t);
    const ok = await r.read(t, created.id);
    listed(t, {
      rule: r.rule,
      res: ok,
      what: `the ${r.resource} read by its ID`,
      items: [created.name],
    });
    refused(t, {
      rule: r.rule,
      res: await r.read(t, UNKNOWN_ID),
      what: `unknown ${r.resource} ${UNKNOWN_ID}`,
      code: 'noMatch',
      verifyCode,
      statuses: [404],
    });
    for (const id of ['abc', ...r.notInt64])
      answeredByReading(
        t,
        r.rule,
        await r.read(t, id),
        `id "${id}" (not an int64)`,
        'non-integer-id-400',
        CLIENT_ERRORS,
        400,
        'invalidParameter',
      );
    // Refused is settled; 404 rather than 400 for IDs no deployment issues is our reading.
    for (const id of r.rangeEnds)
      refused(t, {
        rule: r.rule,
        res: await r.read(t, id),
        what: `unknown ${r.resource} ${id}`,
        statuses: [404],
        statusReading: 'int64-range-ends-404',
        code: 'noMatch',
        verifyCode,
      });
    if (!r.foreign) return;
    if (hasOtherTenant(t))
      foreignRefused(
        t,
        r.rule,
        await r.read(t, created.id, 'otherTenant'),
        `another tenant's GET of the ${r.resource}`,
      );
    else t.notExercised(r.rule, NO_OTHER);
  },
);
