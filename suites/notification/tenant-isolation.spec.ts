// Tenant isolation of categories, recipients and stored certificates, one table: another tenant
// does not see the record in its listing, its requests naming the record are refused (404 rather
// than 403 is the reading foreign-resource-404), and the record is intact after them.
import { notListed, refused, unchanged, FOREIGN_REFUSAL } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { getCategory, putCategory, view } from './categories-support.ts';
import { del, listing, put } from './certificates-support.ts';
import { hasOtherTenant, mentions, notificationTest as test, recipientName, send } from './notification-client.ts';
import { CATEGORY, CERTIFICATE, RECIPIENT, type Held as HeldRecord, type ResourceDescription } from './resources.ts';
import { getRecipient, putRecipient, searchRecipients, update } from './recipients-support.ts';

type Held = HeldRecord<number | string>;

interface Isolated extends ResourceDescription<number | string> {
  rule: string;
  budget: number;
  /** Another tenant's listing, and whether it shows the record. */
  otherList(t: RuleContext, held: Held): Promise<{ res: HttpResponse; shown: boolean }>;
  /** Another tenant's requests naming the record. */
  foreign: ReadonlyArray<{ what: string; send(t: RuleContext, held: Held): Promise<HttpResponse> }>;
  /** The home tenant's read of the record afterwards, and whether it is unchanged. */
  intact(t: RuleContext, held: Held): Promise<{ res: HttpResponse; ok: boolean }>;
}

const HIJACKED = 'Hijacked';

const ISOLATED: readonly Isolated[] = [
  {
    ...CATEGORY,
    rule: 'notification/categories/tenant-isolation',
    needs: [...CATEGORY.needs, 'principals.otherTenant'],
    budget: 7,
    async otherList(t, held) {
      const res = await send(t, { method: 'GET', path: '/communicationcategories/' }, 'otherTenant');
      const shown =
        Array.isArray(res.json) &&
        (res.json as Array<Record<string, unknown>>).some((x) => x?.msgCategoryId === held.key);
      return { res, shown };
    },
    foreign: [
      { what: 'GET', send: (t, h) => getCategory(t, h.key, undefined, 'otherTenant') },
      { what: 'PUT', send: (t, h) => putCategory(t, h.key, { subject: HIJACKED }, 'otherTenant') },
      {
        what: 'DELETE',
        send: (t, h) =>
          send(
            t,
            { method: 'DELETE', path: '/communicationcategories/', query: { categoryIds: h.key } },
            'otherTenant',
          ),
      },
    ],
    async intact(t, held) {
      const res = await getCategory(t, held.key);
      return { res, ok: res.status === 200 && view(res).subject !== HIJACKED };
    },
  },
  {
    ...RECIPIENT,
    rule: 'notification/recipients/tenant-isolation',
    needs: [...RECIPIENT.needs, 'principals.otherTenant'],
    budget: 8,
    async otherList(t, held) {
      const res = await searchRecipients(t, '', 'otherTenant');
      return { res, shown: res.status !== 200 || mentions(res, held.shows) };
    },
    foreign: [
      { what: 'GET', send: (t, h) => getRecipient(t, h.key, 'otherTenant') },
      {
        what: 'PUT',
        send: (t, h) =>
          putRecipient(t, update(t, h.key as number, { recipientname: recipientName(t, HIJACKED) }), 'otherTenant'),
      },
      { what: 'DELETE', send: (t, h) => send(t, { method: 'DELETE', path: `/recipient/${h.key}` }, 'otherTenant') },
    ],
    async intact(t, held) {
      const res = await getRecipient(t, held.key);
      return { res, ok: res.status === 200 && mentions(res, held.shows) };
    },
  },
  {
    ...CERTIFICATE,
    rule: 'notification/certificates/list-calling-tenant',
    needs: [...CERTIFICATE.needs, 'principals.otherTenant'],
    budget: 6,
    async otherList(t, held) {
      const res = await listing(t, 'otherTenant');
      return { res, shown: res.status !== 200 || mentions(res, held.shows) };
    },
    foreign: [
      {
        what: 'PUT',
        send: (t, h) => put(t, h.key as string, { fileName: `${t.prefix}.cer`, ownerid: 'intruder' }, 'otherTenant'),
      },
      { what: 'DELETE', send: (t, h) => del(t, h.key as string, 'otherTenant') },
    ],
    async intact(t, held) {
      const res = await listing(t);
      return { res, ok: res.status === 200 && mentions(res, held.shows) };
    },
  },
];

test.each(
  ISOLATED,
  (r) => ({
    rules: [r.rule, 'notification/errors/code-no-match'],
    name: `another tenant neither lists nor changes a ${r.resource} (${r.foreign.map((f) => f.what).join(', ')} refused)`,
    options: { needs: r.needs, budget: r.budget },
  }),
  async (t, r) => {
    if (!hasOtherTenant(t))
      t.needsPrincipal('principals.otherTenant', 'needs the otherTenant principal (a second tenant)');
    const held = await r.create(t);
    const listed = await r.otherList(t, held);
    notListed(t, {
      rule: r.rule,
      res: listed.res,
      what: `the ${r.resource}, to another tenant`,
      items: [held.shows],
      holds: () => listed.shown,
      anyStatus: true,
      severity: 'critical',
    });
    for (const f of r.foreign)
      refused(t, { rule: r.rule, res: await f.send(t, held), what: `another tenant's ${f.what}`, ...FOREIGN_REFUSAL });
    const after = await r.intact(t, held);
    unchanged(t, {
      rule: r.rule,
      res: after.res,
      intact: after.ok,
      what: `another tenant's requests (the ${r.resource})`,
      expected: `HTTP 200 showing ${held.shows}, unchanged`,
      severity: 'critical',
    });
  },
);
