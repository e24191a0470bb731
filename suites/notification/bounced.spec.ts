import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  accepted,
  formatted,
  listed,
  notListed,
  refused,
  everyItem,
  answeredByReading,
  withCode,
  CLIENT_ERRORS,
} from '../engine/checks/index.ts';
import {
  fixturesOf,
  hasOtherTenant,
  homeTenant,
  isBounceTime,
  letters,
  notificationTest as test,
  poll,
  seen,
  send,
  NO_OTHER,
} from './notification-client.ts';
import { awaitAuditEntry, lists } from './audit-search.ts';
import { trackBounce } from './notification-resources.ts';
import { fieldValues } from '../engine/resources/index.ts';

const PATH = '/communicationcategories/bouncedEmailIds';

interface Bounce {
  emailId?: unknown;
  blackListedDate?: unknown;
}

function list(t: RuleContext, as?: 'otherTenant') {
  return send(t, { method: 'GET', path: PATH }, as);
}

function items(res: HttpResponse): Bounce[] {
  return Array.isArray(res.json) ? (res.json as Bounce[]) : [];
}

function holds(res: HttpResponse, address: string | number): boolean {
  const a = String(address).toLowerCase();
  return items(res).some((b) => typeof b?.emailId === 'string' && b.emailId.toLowerCase() === a);
}

/**
 * `n` addresses at the configured domain that bounces, published to in one message; each is tracked
 * so that it leaves the blacklist again (`releases` mark the test's own removals). A refused publish
 * skips the test (judged by publish/success-204).
 */
async function bounced(t: RuleContext, n: number): Promise<{ addresses: string[]; releases: Array<() => void> }> {
  const { bounceDomain, bounceLocalPrefix } = fixturesOf(t);
  if (!bounceDomain || bounceLocalPrefix === undefined)
    t.needsConfiguration(
      'fixtures.notification.bounceDomain',
      'the run configuration names no address that bounces (fixtures.notification.bounceDomain and bounceLocalPrefix)',
    );
  const addresses = Array.from({ length: n }, () => `${bounceLocalPrefix}${t.prefix}${letters(6)}@${bounceDomain}`);
  const releases = addresses.map((address) => trackBounce(t, address));
  const pub = await send(t, {
    method: 'POST',
    path: '/publisher/messages',
    json: {
      body: { message: 'Conformance bounce' },
      recipientsTo: addresses.join(';'),
      from: t.prefix,
      subject: 'ConformanceBounce',
    },
  });
  const them = n === 1 ? 'address' : 'addresses';
  if (pub.status !== 204)
    t.skip(`the publish to the bouncing ${them} was refused (${seen(pub, 120)}); judged by publish/success-204`);
  return { addresses, releases };
}

/** Checks the listing's shape and the date format of every entry. */
function checkListing(t: RuleContext, res: HttpResponse): void {
  everyItem(t, {
    rule: 'notification/bounced/list',
    res,
    what: 'a BounceEmailObj',
    items: items(res),
    is: (b) => !!b && typeof b.emailId === 'string' && typeof b.blackListedDate === 'string',
    expected: 'HTTP 200 with [{emailId, blackListedDate}]',
    arrayBody: true,
  });
  // An empty list holds no date to judge: the format is then not exercised by this answer.
  if (!items(res).length) {
    t.notExercised('notification/bounced/date-format', 'the listing was empty, so no blackListedDate was seen');
    return;
  }
  formatted(t, {
    rule: 'notification/bounced/date-format',
    what: 'blackListedDate',
    values: items(res).map((b) => b.blackListedDate),
    format: 'dd-MM-yyyy HH:mm:ss',
    is: isBounceTime,
  });
}

test(
  ['notification/bounced/list', 'notification/bounced/date-format'],
  'GET /communicationcategories/bouncedEmailIds answers an array of BounceEmailObj with dd-MM-yyyy HH:mm:ss dates',
  async (t) => {
    checkListing(t, await list(t));
  },
  { readOnly: true, budget: 1 },
);

test(
  [
    'notification/bounced/list',
    'notification/bounced/date-format',
    'notification/bounced/remove',
    'notification/audit/bounced-emails-listed',
  ],
  'an address that bounced is listed for its tenant only, and DELETE with emailList removes it again',
  async (t) => {
    const {
      addresses: [address],
      releases: [release],
    } = await bounced(t, 1);
    const after = await poll(
      () => list(t),
      (r) => r.status !== 200 || holds(r, address),
      20_000,
    );
    checkListing(t, after);
    listed(t, {
      rule: 'notification/bounced/list',
      res: after,
      what: 'the bounced address',
      items: [address],
      holds,
      anyStatus: true,
    });
    if (hasOtherTenant(t)) {
      const other = await list(t, 'otherTenant');
      notListed(t, {
        rule: 'notification/bounced/list',
        res: other,
        what: 'the bounced address, to another tenant',
        items: [address],
        holds,
        severity: 'critical',
      });
      // The operations take no tenantId; one sent anyway must not reach another tenant's list
      // (the tenant is the token's): neither to read it nor to clear it.
      const home = await homeTenant(t);
      if (home) {
        const named = await send(t, { method: 'GET', path: PATH, query: { tenantId: home } }, 'otherTenant');
        notListed(t, {
          rule: 'notification/bounced/list',
          res: named,
          what: "the bounced address, to another tenant naming this tenant's tenantId",
          items: [address],
          holds,
          anyStatus: true,
          severity: 'critical',
        });
        await send(
          t,
          { method: 'DELETE', path: PATH, query: { tenantId: home }, json: { emailList: [address] } },
          'otherTenant',
        );
        const still = await list(t);
        listed(t, {
          rule: 'notification/bounced/list',
          res: still,
          what: "the bounced address, after another tenant naming this tenant's tenantId cleared it",
          items: [address],
          holds,
          anyStatus: true,
          severity: 'critical',
        });
      } else
        t.notExercised(
          'notification/bounced/list',
          'the home tenant ID is not known, so no explicit tenantId was tried',
        );
    } else t.notExercised('notification/bounced/list', NO_OTHER);
    // The bounce is listed in the blacklist by now; the audit entry may record it later: waited for.
    const audit = await awaitAuditEntry(t, address, {}, 'bouncedEmails');
    listed(t, {
      rule: 'notification/audit/bounced-emails-listed',
      res: audit.res,
      what: "the bounced address, under bouncedEmails of its message's audit entry",
      items: [address],
      holds: (_, a) => !!audit.entry && lists(audit.entry, 'bouncedEmails', String(a)),
      anyStatus: true,
    });
    const del = await send(t, { method: 'DELETE', path: PATH, json: { emailList: [address] } });
    accepted(t, {
      rule: 'notification/bounced/remove',
      res: del,
      what: 'removal of the address from the blacklist',
      statuses: [200],
    });
    const gone = await list(t);
    notListed(t, {
      rule: 'notification/bounced/remove',
      res: gone,
      what: 'the removed address',
      items: [address],
      holds,
    });
    release();
  },
  { needs: ['fixtures.notification.bounceDomain', 'fixtures.notification.bounceLocalPrefix'], budget: 30 },
);

test(
  [
    'notification/bounced/remove-body-required',
    'notification/errors/code-missing-request-body-property',
    'notification/errors/code-invalid-request-body-property',
  ],
  'DELETE /communicationcategories/bouncedEmailIds without an emailList of strings is refused',
  async (t) => {
    // emailList is not marked required: a body without it may remove nothing. Refusing it is our reading.
    answeredByReading(t, {
      rule: 'notification/bounced/remove-body-required',
      res: await send(t, { method: 'DELETE', path: PATH, json: {} }),
      what: 'a body without emailList',
      reading: 'email-list-required',
      allowed: [200, 204, ...CLIENT_ERRORS],
      wanted: 400,
      ...withCode('missingRequestBodyProperty'),
    });
    // "emailList (array of string, ...)": one item that is not a string is enough.
    await fieldValues(t, {
      rule: 'notification/bounced/remove-body-required',
      field: 'emailList',
      cases: [`${t.prefix}@example.com`, [42], { address: 'x@example.com' }].map((value) => ({ value, valid: false })),
      send: (c) => send(t, { method: 'DELETE', path: PATH, json: { emailList: c.value } }),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
    // An item that is not a string, wherever it stands among addresses.
    const lists = listWithBadItems({
      rule: 'notification/bounced/remove-body-required',
      valid: ['a', 'b', 'c'].map((k) => `${t.prefix}${k}@example.com`),
      bad: { 'the number 42': 42, 'an object': { address: `${t.prefix}@example.com` } },
    });
    await t.property(
      lists,
      async (list) =>
        refused(t, {
          rule: 'notification/bounced/remove-body-required',
          res: await send(t, { method: 'DELETE', path: PATH, json: { emailList: list.items } }),
          what: `emailList with ${badItemsText(list)}`,
          ...withCode('invalidRequestBodyProperty'),
        }),
      { rule: 'notification/bounced/remove-body-required' },
    );
  },
  { budget: 10, budgetPerRun: 1 },
);

test(
  ['notification/bounced/remove'],
  'DELETE with emailList removes every listed address from the blacklist, however many it lists',
  async (t) => {
    // One list of each length 1, 2 and 3: six addresses that bounce, from one publish.
    const { addresses: pool, releases } = await bounced(t, 6);
    const listed = await poll(
      () => list(t),
      (r) => r.status !== 200 || pool.every((a) => holds(r, a)),
      20_000,
    );
    if (!pool.every((a) => holds(listed, a)))
      t.skip(`the bounced addresses were not all listed (${seen(listed, 120)}); judged by bounced/list`);
    let next = 0;
    const lists = listWithBadItems({
      rule: 'notification/bounced/remove',
      valid: [],
      bad: { 'an address on the blacklist': 'bounced' },
      maxBad: 3,
    });
    await t.property(
      lists,
      async (emailList) => {
        // Each list takes addresses of its own; shrinking past the pool tries nothing more.
        if (next + emailList.items.length > pool.length) return;
        const addresses = pool.slice(next, (next += emailList.items.length));
        const del = await send(t, { method: 'DELETE', path: PATH, json: { emailList: addresses } });
        accepted(t, {
          rule: 'notification/bounced/remove',
          res: del,
          what: `removal of ${addresses.length} addresses from the blacklist`,
          statuses: [200],
        });
        const after = await list(t);
        notListed(t, {
          rule: 'notification/bounced/remove',
          res: after,
          what: `the ${addresses.length} addresses of emailList, once removed`,
          items: addresses,
          holds,
        });
        for (const a of addresses) releases[pool.indexOf(a)]();
      },
      // The lists of one, two and three addresses that every run tries first, and no more.
      { rule: 'notification/bounced/remove', runs: 0 },
    );
  },
  { needs: ['fixtures.notification.bounceDomain', 'fixtures.notification.bounceLocalPrefix'], budget: 9 },
);
