// What the user-tenants spec files share.
import type { HttpResponse } from '../engine/http-client.ts';
import { ruleTest, type RuleContext } from '../engine/rule-test.ts';
import { SERVICE } from './token-manager-client.ts';
import { MAX_LISTED_TENANTS } from './token-manager-bounds.ts';

export const test = (
  rules: string[],
  name: string,
  fn: Parameters<typeof ruleTest>[3],
  opts?: Parameters<typeof ruleTest>[4],
) => ruleTest(SERVICE, rules, name, fn, { readOnly: true, ...opts });

export interface Page {
  size?: unknown;
  totalElements?: unknown;
  totalPages?: unknown;
  number?: unknown;
}

export function body(res: HttpResponse): { page?: Page; userTenants?: Array<{ id?: unknown }> } {
  return res.json ?? {};
}

export function ids(res: HttpResponse): string[] {
  const list = body(res).userTenants;
  return Array.isArray(list) ? list.map((u) => String(u?.id)) : [];
}

export function checkShape(t: RuleContext, res: HttpResponse): void {
  const b = body(res);
  t.verify(
    'technical-token-manager/user-tenants/shape',
    res.contentType === 'application/json' &&
      !!b.page &&
      typeof b.page === 'object' &&
      Array.isArray(b.userTenants) &&
      b.userTenants.every((u) => typeof u?.id === 'string'),
    {
      title: 'UserTenantResponse malformed',
      expected: 'application/json {"page":Page,"userTenants":[{"id":string}]}',
      received: `${res.contentType} ${res.text.slice(0, 200)}`,
    },
  );
  const p = b.page ?? {};
  const fields = ['size', 'totalElements', 'totalPages', 'number'] as const;
  t.verify(
    'technical-token-manager/page/field-types',
    fields.every((f) => Number.isInteger(p[f]) && (p[f] as number) >= 0),
    {
      title: 'page fields are not non-negative integers',
      expected: 'size, totalElements, totalPages, number: integers ≥ 0',
      received: JSON.stringify(p),
    },
  );
  t.verify('technical-token-manager/user-tenants/at-most-500', ids(res).length <= MAX_LISTED_TENANTS, {
    title: `more than ${MAX_LISTED_TENANTS} tenant IDs`,
    expected: `≤ ${MAX_LISTED_TENANTS} items`,
    received: `${ids(res).length} items`,
  });
}

export function checkCoherent(t: RuleContext, res: HttpResponse, page: number, size: number): void {
  const p = body(res).page ?? {};
  const total = Number(p.totalElements);
  const expectedItems = Math.min(size, Math.max(0, total - page * size));
  const ok =
    p.number === page &&
    p.size === size &&
    p.totalPages === Math.ceil(total / size) &&
    ids(res).length === expectedItems;
  // The document gives the Page fields names and types only; reading them as a Spring Data page is ours.
  t.reading('spring-data-page', 'technical-token-manager/page/coherent', ok, {
    title: 'page object does not describe the answer',
    expected: `number ${page}, size ${size}, totalPages ceil(${total}/${size}), ${expectedItems} items`,
    received: `${JSON.stringify(p)} with ${ids(res).length} items`,
  });
}
