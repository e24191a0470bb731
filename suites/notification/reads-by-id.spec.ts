// The reads by ID of recipients, recipient groups, template sets and categories, one table: a record of the
// tenant is served, an unknown ID is 404 noMatch, an ID that is no int64 is refused ("path id
// (int64)": 400 invalidParameter rather than a 404 of routing is the reading non-integer-id-400),
// and another tenant's record is not served.
import {
  listed,
  refused,
  FOREIGN_REFUSAL,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import { NO_OTHER, UNKNOWN_ID, hasOtherTenant, notificationTest as test } from './notification-client.ts';
import { CATEGORY, RECIPIENT, RECIPIENT_GROUP, TEMPLATE_SET, type ResourceDescription } from './resources.ts';

interface ReadById extends ResourceDescription {
  path: string;
  rule: string;
  budget: number;
  /** Whether the rule speaks of another tenant's record too (else another rule judges it). */
  foreign: boolean;
  /** IDs that are no int64 besides "abc": text around digits, values beyond the int64 range. */
  notInt64: readonly string[];
  /** The ends of the int64 range, which name nothing (refused; 404 is the reading int64-range-ends-404). */
  rangeEnds: readonly string[];
  /** The test reads only IDs that name no record (none of its own is made and served). */
  idsOnly?: boolean;
}

const READS: readonly ReadById[] = [
  {
    ...RECIPIENT,
    path: 'GET /recipient/{id}',
    rule: 'notification/recipients/get-by-id',
    budget: 11,
    foreign: false,
    notInt64: ['x1', '1x', '9223372036854775808', '-9223372036854775809'],
    rangeEnds: ['9223372036854775807', '-9223372036854775808'],
  },
  {
    ...RECIPIENT_GROUP,
    path: 'GET /recipient/recipientgroup/{id}',
    rule: 'notification/groups/get-by-id',
    budget: 7,
    foreign: true,
    notInt64: [],
    rangeEnds: [],
  },
  {
    ...TEMPLATE_SET,
    path: 'GET /template/templatesets/{id}',
    rule: 'notification/templates/get-set',
    budget: 6,
    foreign: true,
    notInt64: [],
    rangeEnds: [],
  },
  {
    ...CATEGORY,
    path: 'GET /communicationcategories/{id}',
    rule: 'notification/categories/get-not-found',
    budget: 2,
    foreign: false,
    notInt64: [],
    rangeEnds: [],
    idsOnly: true,
  },
];

/** What the test's name says of a record of the tenant, where it reads one. */
const served = (r: ReadById) => (r.idsOnly ? '' : `200 for a ${r.resource} of the tenant, `);

test.each(
  READS,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-no-match', 'notification/errors/code-invalid-parameter'],
    name: `${r.path}: ${served(r)}404 for an unknown ID, refused for an ID that is no int64`,
    options: { needs: r.needs, budget: r.budget, readOnly: !!r.idsOnly },
  }),
  async (t, r) => {
    const created = r.idsOnly ? undefined : await r.create(t);
    if (created)
      listed(t, {
        rule: r.rule,
        res: await r.read(t, created.key),
        what: `the ${r.resource} read by its ID`,
        items: [created.shows],
      });
    refused(t, {
      rule: r.rule,
      res: await r.read(t, UNKNOWN_ID),
      what: `unknown ${r.resource} ${UNKNOWN_ID}`,
      ...withCode('noMatch'),
      statuses: [404],
    });
    for (const id of ['abc', ...r.notInt64])
      answeredByReading(t, {
        rule: r.rule,
        res: await r.read(t, id),
        what: `id "${id}" (not an int64)`,
        reading: 'non-integer-id-400',
        allowed: CLIENT_ERRORS,
        wanted: 400,
        ...withCode('invalidParameter'),
      });
    // Refused is settled; 404 rather than 400 for IDs no deployment issues is our reading.
    for (const id of r.rangeEnds)
      refused(t, {
        rule: r.rule,
        res: await r.read(t, id),
        what: `unknown ${r.resource} ${id}`,
        statuses: [404],
        statusReading: 'int64-range-ends-404',
        ...withCode('noMatch'),
      });
    if (!r.foreign || !created) return;
    if (hasOtherTenant(t))
      refused(t, {
        rule: r.rule,
        res: await r.read(t, created.key, 'otherTenant'),
        what: `another tenant's GET of the ${r.resource}`,
        ...FOREIGN_REFUSAL,
      });
    else t.notExercised(r.rule, NO_OTHER);
  },
);
