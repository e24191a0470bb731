// What the user-tenants spec files share: the answer's parts, and what its shape and page must be.
import type { HttpResponse } from '../engine/http-client.ts';
import type { HoldsOptions } from '../engine/checks/index.ts';
import { MAX_LISTED_TENANTS } from './token-manager-bounds.ts';

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

/**
 * A tenant list refusal beyond its status, spread into `refused`'s options: any 4xx, no tenant
 * listed, and critical (a tenant list served when it should not be).
 */
export const tenantListRefusal = {
  anyClientError: true,
  severity: 'critical',
  withheld: (res: HttpResponse) => (ids(res).length ? 'a tenant list' : undefined),
} as const;

/** What a UserTenantResponse must be, as rows for `holds` (each going on when it fails). */
export function shapeOf(res: HttpResponse): HoldsOptions[] {
  const b = body(res);
  const p = b.page ?? {};
  const fields = ['size', 'totalElements', 'totalPages', 'number'] as const;
  return [
    {
      rule: 'technical-token-manager/user-tenants/shape',
      ok:
        res.contentType === 'application/json' &&
        !!b.page &&
        typeof b.page === 'object' &&
        Array.isArray(b.userTenants) &&
        b.userTenants.every((u) => typeof u?.id === 'string'),
      failure: 'UserTenantResponse malformed',
      expected: 'application/json {"page":Page,"userTenants":[{"id":string}]}',
      received: `${res.contentType} ${res.text.slice(0, 200)}`,
      soft: true,
    },
    {
      rule: 'technical-token-manager/page/field-types',
      ok: fields.every((f) => Number.isInteger(p[f]) && (p[f] as number) >= 0),
      failure: 'page fields are not non-negative integers',
      expected: 'size, totalElements, totalPages, number: integers ≥ 0',
      received: JSON.stringify(p),
      soft: true,
    },
    {
      rule: 'technical-token-manager/user-tenants/at-most-500',
      ok: ids(res).length <= MAX_LISTED_TENANTS,
      failure: `more than ${MAX_LISTED_TENANTS} tenant IDs`,
      expected: `≤ ${MAX_LISTED_TENANTS} items`,
      received: `${ids(res).length} items`,
      soft: true,
    },
  ];
}

/**
 * That the page object describes the answer to `page` of `size`, a row for `holds`: the document
 * gives the Page fields names and types only; reading them as a Spring Data page is ours.
 */
export function coherent(res: HttpResponse, page: number, size: number): HoldsOptions {
  const p = body(res).page ?? {};
  const total = Number(p.totalElements);
  const expectedItems = Math.min(size, Math.max(0, total - page * size));
  return {
    rule: 'technical-token-manager/page/coherent',
    ok:
      p.number === page &&
      p.size === size &&
      p.totalPages === Math.ceil(total / size) &&
      ids(res).length === expectedItems,
    failure: 'page object does not describe the answer',
    expected: `number ${page}, size ${size}, totalPages ceil(${total}/${size}), ${expectedItems} items`,
    received: `${JSON.stringify(p)} with ${ids(res).length} items`,
    reading: 'spring-data-page',
  };
}
