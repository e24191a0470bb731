import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpResponse } from '../engine/http-client.ts';
import { ruleTest, type RuleContext } from '../engine/rule-test.ts';
import {
  SERVICE,
  application,
  checkErrorJson,
  checkErrorCodeForm,
  checkRejectedWithCode,
  errorCodes,
  getOauthTokens,
  getToken,
  getUserTenants,
  hostToken,
  identification,
  tokensPayload,
  userTenants,
} from './token-manager-client.ts';
import { registerSecret } from '../engine/redact.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';

const test = (
  rules: string[],
  name: string,
  fn: Parameters<typeof ruleTest>[3],
  opts?: Parameters<typeof ruleTest>[4],
) => ruleTest(SERVICE, rules, name, fn, { readOnly: true, ...opts });

interface Page {
  size?: unknown;
  totalElements?: unknown;
  totalPages?: unknown;
  number?: unknown;
}

function body(res: HttpResponse): { page?: Page; userTenants?: Array<{ id?: unknown }> } {
  return res.json ?? {};
}

function ids(res: HttpResponse): string[] {
  const list = body(res).userTenants;
  return Array.isArray(list) ? list.map((u) => String(u?.id)) : [];
}

function checkShape(t: RuleContext, res: HttpResponse): void {
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
  t.verify('technical-token-manager/user-tenants/at-most-500', ids(res).length <= 500, {
    title: 'more than 500 tenant IDs',
    expected: '≤ 500 items',
    received: `${ids(res).length} items`,
  });
}

function checkCoherent(t: RuleContext, res: HttpResponse, page: number, size: number): void {
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

test(
  [
    'technical-token-manager/auth/host-token-accepted',
    'technical-token-manager/user-tenants/shape',
    'technical-token-manager/page/field-types',
    'technical-token-manager/user-tenants/at-most-500',
    'technical-token-manager/user-tenants/page-default',
    'technical-token-manager/user-tenants/size-default',
    'technical-token-manager/page/coherent',
    'technical-token-manager/tokens/operator-and-developer',
  ],
  'GET /userTenants with the host token and no query answers page 0 of size 500',
  async (t) => {
    const res = await getUserTenants(t, await hostToken(t));
    t.check('technical-token-manager/auth/host-token-accepted', res.status === 200, {
      title: 'host token from POST /oauth/token refused',
      expected: 'HTTP 200',
      received: `HTTP ${res.status} ${res.text.slice(0, 200)}`,
    });
    t.verify('technical-token-manager/tokens/operator-and-developer', res.status === 200, {
      title: 'host application not served',
      expected: 'HTTP 200',
      received: `HTTP ${res.status}`,
    });
    checkShape(t, res);
    // "as with page=0" and "as with size=500" are the document's; that page.number and page.size
    // echo the request is our reading of the Page fields (spring-data-page).
    const p = body(res).page ?? {};
    t.reading('spring-data-page', 'technical-token-manager/user-tenants/page-default', p.number === 0, {
      title: 'page.number does not report the default page 0',
      expected: 'page.number 0',
      received: JSON.stringify(p.number),
    });
    t.reading('spring-data-page', 'technical-token-manager/user-tenants/size-default', p.size === 500, {
      title: 'page.size does not report the default size 500',
      expected: 'page.size 500',
      received: JSON.stringify(p.size),
    });
    const pageZero = await getUserTenants(t, await hostToken(t), { page: 0 });
    t.verify(
      'technical-token-manager/user-tenants/page-default',
      pageZero.status === 200 && JSON.stringify(ids(pageZero)) === JSON.stringify(ids(res)),
      {
        title: 'no page and page=0 differ',
        expected: 'the same IDs',
        received: `HTTP ${pageZero.status}, ${ids(res).length} vs ${ids(pageZero).length} IDs`,
      },
    );
    // Page 1 holds fewer items than the page size wherever fewer than 1,000 tenants are provisioned,
    // so page.size there tells the requested size from the number of items.
    const second = await getUserTenants(t, await hostToken(t), { page: 1 });
    t.reading(
      'spring-data-page',
      'technical-token-manager/user-tenants/size-default',
      body(second).page?.size === 500,
      {
        title: 'page.size of page 1 does not report the default size 500',
        expected: 'page.size 500',
        received: `HTTP ${second.status} ${JSON.stringify(body(second).page)}`,
      },
    );
    const size500 = await getUserTenants(t, await hostToken(t), { page: 1, size: 500 });
    if (size500.status === 200)
      t.verify(
        'technical-token-manager/user-tenants/size-default',
        JSON.stringify(ids(size500)) === JSON.stringify(ids(second)),
        {
          title: 'no size and size=500 differ',
          expected: 'the same IDs on page 1',
          received: `${ids(second).length} vs ${ids(size500).length} IDs`,
        },
      );
    else
      t.notExercised(
        'technical-token-manager/user-tenants/size-default',
        `size=500 was answered HTTP ${size500.status}, so "as with size=500" could not be compared (the enforced maximum is open: user-tenants/size-maximum)`,
      );
    checkCoherent(t, res, 0, 500);
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/auth/host-token-accepted'],
  'GET /userTenants accepts the host token issued by POST /oauthTokens',
  async (t) => {
    const app = application(t);
    const res = await getOauthTokens(t, tokensPayload(app, [app.hostTenant]));
    const token = ((res.json as { oauthTokens?: Array<{ token?: { access_token?: string } }> } | undefined)
      ?.oauthTokens ?? [])[0]?.token?.access_token;
    if (!token)
      t.skip(`POST /oauthTokens gave no host token (HTTP ${res.status}); judged by tokens/host-tenant-as-user-tenant`);
    registerSecret(token);
    const list = await getUserTenants(t, `Bearer ${token}`);
    t.check('technical-token-manager/auth/host-token-accepted', list.status === 200, {
      title: 'host token from POST /oauthTokens refused',
      expected: 'HTTP 200',
      received: `HTTP ${list.status} ${list.text.slice(0, 200)}`,
    });
  },
  { needs: ['tokenManager'] },
);

test(
  [
    'technical-token-manager/user-tenants/provisioned-ids',
    'technical-token-manager/page/coherent',
    'technical-token-manager/user-tenants/page-beyond-last',
    'technical-token-manager/user-tenants/size-maximum',
  ],
  'paging through GET /userTenants yields every provisioned tenant once',
  async (t) => {
    const auth = await hostToken(t);
    // 100: within both maxima the document states (500 and 100).
    const size = 100;
    const first = await getUserTenants(t, auth, { page: 0, size });
    t.check('technical-token-manager/user-tenants/provisioned-ids', first.status === 200, {
      title: 'size 100 refused',
      expected: 'HTTP 200',
      received: `HTTP ${first.status}`,
    });
    const total = Number(body(first).page?.totalElements);
    const pages = Math.ceil(total / size);
    const all = [...ids(first)];
    checkCoherent(t, first, 0, size);
    for (let p = 1; p < Math.min(pages, 10); p++) {
      const res = await getUserTenants(t, auth, { page: p, size });
      checkCoherent(t, res, p, size);
      all.push(...ids(res));
    }
    const distinct = new Set(all);
    t.verify(
      'technical-token-manager/user-tenants/provisioned-ids',
      distinct.size === all.length && (pages > 10 || all.length === total),
      {
        title: 'paging repeats or loses tenant IDs',
        expected: `${total} distinct IDs`,
        received: `${all.length} IDs, ${distinct.size} distinct`,
      },
    );
    const configured = application(t).userTenants ?? [];
    const missing = configured.filter((u) => u !== application(t).hostTenant && !distinct.has(u));
    t.verify('technical-token-manager/user-tenants/provisioned-ids', pages > 10 || missing.length === 0, {
      title: 'configured user tenants not listed',
      expected: 'every tenant of tokenManager.userTenants listed',
      received: `missing ${missing.join(', ')}`,
    });
    // A listed tenant from the middle of the listing (not the first ones, which the configuration
    // names for other tests). No sentence links the listing to issuance: that it gets a token is our reading.
    const sample = all[Math.floor(all.length / 2)];
    if (sample) {
      const app = application(t);
      const tok = await getToken(t, identification(app, sample));
      t.reading('listed-tenant-token', 'technical-token-manager/user-tenants/provisioned-ids', tok.status === 200, {
        title: 'a listed tenant gets no token',
        expected: `HTTP 200 for userTenant ${sample}`,
        received: `HTTP ${tok.status}`,
      });
    }
    const beyond = await getUserTenants(t, auth, { page: pages + 1, size });
    t.observe(
      'technical-token-manager/user-tenants/page-beyond-last',
      `page ${pages + 1} of ${pages}: HTTP ${beyond.status}, ${ids(beyond).length} IDs`,
    );
    t.check(
      'technical-token-manager/user-tenants/provisioned-ids',
      beyond.status < 500 && ids(beyond).every((i) => !distinct.has(i)),
      {
        title: 'page beyond the last repeats IDs or fails',
        expected: 'no 5xx and no repeated IDs',
        received: `HTTP ${beyond.status}, ${ids(beyond).length} IDs`,
      },
    );
    // Which status a page beyond the last gets is open; a 200 still has a page object to keep.
    if (beyond.status === 200) checkCoherent(t, beyond, pages + 1, size);
    const seen: string[] = [];
    for (const s of [100, 101, 500]) {
      const res = await getUserTenants(t, auth, { size: s });
      seen.push(`size=${s}: HTTP ${res.status}${errorCodes(res).length ? ` ${errorCodes(res).join(',')}` : ''}`);
    }
    t.observe('technical-token-manager/user-tenants/size-maximum', seen.join('; '));
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/user-tenants/size-above-500-refused', 'technical-token-manager/transport/json'],
  'GET /userTenants with size 501 is answered 400 pageSizeForUserTenantsExceeded; a size beyond 32 bits with a 400',
  async (t) => {
    const auth = await hostToken(t);
    checkRejectedWithCode(
      t,
      'technical-token-manager/user-tenants/size-above-500-refused',
      await getUserTenants(t, auth, { size: 501 }),
      'platform.core.keymanager.pageSizeForUserTenantsExceeded',
      'size 501',
    );
    // A size beyond 32 bits is above the maximum too, and no 32-bit integer: the document does
    // not say which of the two refusals answers it, so only the 400 and its Errors body are judged.
    const huge = await getUserTenants(t, auth, { size: '2147483648' });
    t.check('technical-token-manager/user-tenants/size-above-500-refused', huge.status === 400, {
      title: 'size 2147483648 not answered 400',
      expected: 'HTTP 400 (pageSizeForUserTenantsExceeded or invalidRequestParameter)',
      received: `HTTP ${huge.status} ${huge.text.slice(0, 200)}`,
    });
    if (huge.status === 400) checkErrorJson(t, huge);
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/user-tenants/invalid-host-token', 'technical-token-manager/transport/json'],
  'GET /userTenants with a bearer value that is not a JWT is answered 400 invalidHostTokenFormat',
  async (t) => {
    const res = await getUserTenants(t, 'Bearer not-a-jwt');
    // Settled: a bearer value that is no token opens no tenant list.
    t.check(
      'technical-token-manager/user-tenants/invalid-host-token',
      res.status >= 400 && res.status < 500 && ids(res).length === 0,
      {
        title: 'tenant list served to a bearer value that is not a JWT',
        severity: 'critical',
        expected: '4xx and no tenant list',
        received: `HTTP ${res.status} ${res.text.slice(0, 200)}`,
      },
    );
    // Whether that is "Host token invalid" (400) or an authentication failure (401) is our reading.
    checkRejectedWithCode(
      t,
      'technical-token-manager/user-tenants/invalid-host-token',
      res,
      'platform.core.keymanager.invalidHostTokenFormat',
      'a malformed host token',
      'malformed-bearer-host-token-format',
    );
  },
);

test(
  ['technical-token-manager/user-tenants/unidentified-user', 'technical-token-manager/transport/json'],
  "GET /userTenants with a user tenant's token is answered 400 unidentifiedUser",
  async (t) => {
    const [tenant] = userTenants(t, 1);
    const auth = await t.session.tokens.authorization('full', tenant);
    checkRejectedWithCode(
      t,
      'technical-token-manager/user-tenants/unidentified-user',
      await getUserTenants(t, auth),
      'platform.core.keymanager.unidentifiedUser',
      'a user-tenant token',
      'user-tenant-token-unidentified',
    );
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:1'] },
);

test(
  ['technical-token-manager/auth/user-tenants-token-required'],
  'GET /userTenants without a token is refused',
  async (t) => {
    const res = await getUserTenants(t, null);
    t.check(
      'technical-token-manager/auth/user-tenants-token-required',
      res.status >= 400 && res.status < 500 && ids(res).length === 0,
      {
        title: 'tenant list served without a token',
        severity: 'critical',
        expected: '4xx and no tenant list',
        received: `HTTP ${res.status}`,
      },
    );
    // The application's Basic credential of the token operations is not a bearer token either.
    const basic = await getUserTenants(t, spaceAuthKey(application(t)));
    t.check(
      'technical-token-manager/auth/user-tenants-token-required',
      basic.status >= 400 && basic.status < 500 && ids(basic).length === 0,
      {
        title: 'tenant list served, or the request failed, with a Basic credential instead of a token',
        severity: 'critical',
        expected: '4xx and no tenant list',
        received: `HTTP ${basic.status}`,
      },
    );
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/auth/user-tenants-scope'],
  'GET /userTenants with a token lacking km.usr is refused',
  async (t) => {
    if (!t.session.tokens.has('without:km.usr'))
      t.needsPrincipal(
        'principals.withoutScope["km.usr"]',
        'no principal without km.usr is configured (principals.withoutScope["km.usr"])',
      );
    const res = await getUserTenants(t, await t.session.tokens.authorization('without:km.usr'));
    t.check(
      'technical-token-manager/auth/user-tenants-scope',
      res.status >= 400 && res.status < 500 && ids(res).length === 0,
      {
        title: 'tenant list served to a token without km.usr',
        severity: 'critical',
        expected: '4xx and no tenant list',
        received: `HTTP ${res.status}`,
      },
    );
  },
  { needs: ['principals.withoutScope["km.usr"]'] },
);

test(
  [
    'technical-token-manager/user-tenants/query-types',
    'technical-token-manager/transport/json',
    'technical-token-manager/user-tenants/shape',
    'technical-token-manager/page/field-types',
    'technical-token-manager/user-tenants/at-most-500',
  ],
  'GET /userTenants with a malformed page or size is answered 400',
  async (t) => {
    const auth = await hostToken(t);
    // Not integers: the document types both as integers. A negative page and size 0: the document
    // gives no lower bound, so refusing them is our reading (page-size-lower-bound).
    const cases: Array<[Record<string, string | number>, string?]> = [
      [{ page: 'abc' }],
      [{ size: '1.5' }],
      [{ page: -1 }, 'page-size-lower-bound'],
      [{ size: 0 }, 'page-size-lower-bound'],
    ];
    for (const [q, reading] of cases) {
      const res = await getUserTenants(t, auth, q);
      const d = {
        title: `${JSON.stringify(q)} not answered 400`,
        expected: 'HTTP 400',
        received: `HTTP ${res.status}`,
      };
      if (reading === undefined) t.check('technical-token-manager/user-tenants/query-types', res.status === 400, d);
      else t.reading(reading, 'technical-token-manager/user-tenants/query-types', res.status === 400, d);
      if (res.status === 400) checkErrorJson(t, res);
      // The Errors table binds pageSizeForUserTenantsExceeded to "Requested page size above the
      // maximum supported": a size of 1.5 or 0 is above no maximum.
      if (res.status === 400 && q.size !== undefined)
        t.verify(
          'technical-token-manager/user-tenants/query-types',
          !errorCodes(res).includes('platform.core.keymanager.pageSizeForUserTenantsExceeded'),
          {
            title: `${JSON.stringify(q)} answered as a page size above the maximum`,
            expected: 'a code other than platform.core.keymanager.pageSizeForUserTenantsExceeded',
            received: errorCodes(res).join(', '),
          },
        );
      // A deployment that takes page -1 or size 0 (the other side of page-size-lower-bound) still
      // answers a UserTenantResponse whose Page fields are integers ("| totalPages | integer |").
      if (res.status === 200) checkShape(t, res);
    }
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/throttling/too-many-requests', 'technical-token-manager/errors/code-form'],
  'throttled requests are answered 429',
  async (t) => {
    // A short burst of cheap reads (within the run's own rate and concurrency limits): a
    // deployment that throttles at this level shows how it answers; one that does not is skipped.
    // With --probe-throttling the burst is sent as the `throttled` principal when there is one.
    const probe = t.session.context.probeThrottling && t.session.tokens.has('throttled');
    const auth = probe ? await t.session.tokens.authorization('throttled') : await hostToken(t);
    // Probing, one request and an idle second come first: a throttle must serve a client again once
    // it has waited, also when its burst starts after a pause.
    if (probe) {
      await getUserTenants(t, auth, { size: 1 });
      await sleep(1_100);
    }
    const burst = await Promise.all(
      Array.from({ length: probe ? 12 : 20 }, () => getUserTenants(t, auth, { size: 1 })),
    );
    // A refusal of a valid read in the burst with another status than 429 (a 503 with or without
    // Retry-After) is throttling answered the wrong way, whatever the engine kept as a sample.
    const odd = burst.filter((r) => r.status !== 200 && r.status !== 429);
    if (odd.length)
      t.check('technical-token-manager/throttling/too-many-requests', false, {
        title: 'a burst of valid requests answered with another status than 200 or 429',
        expected: 'HTTP 200, or 429 when throttled',
        received: `HTTP ${odd.map((r) => r.status).join(', ')} ${odd[0].text.slice(0, 160)}`,
      });
    const samples = t.session.http.stats.throttleSamples.filter((s) =>
      s.path.startsWith('/api/technicaltokenmanager/'),
    );
    if (!samples.length) t.skip('the target throttled no token manager request during the run');
    t.check(
      'technical-token-manager/throttling/too-many-requests',
      samples.every((s) => s.status === 429),
      {
        title: 'throttling not answered 429',
        expected: 'HTTP 429',
        received: JSON.stringify(samples.map((s) => s.status)),
      },
    );
    // POST /oauth/token's failures have a body "of unspecified format": its codes are not judged.
    for (const s of samples) if (!s.path.includes('/oauth/token')) checkErrorCodeForm(t, s.status, s.body, s.path);
    // "Throttling thresholds: not shown": no wait is long enough by the document, so a request after
    // the burst may still be throttled; it is judged only for being answered 200 or 429.
    const res = await getUserTenants(t, auth, { size: 1 });
    t.check('technical-token-manager/throttling/too-many-requests', res.status === 200 || res.status === 429, {
      title: 'a request after throttling answered with another status than 200 or 429',
      expected: 'HTTP 200, or 429 while still throttled',
      received: `HTTP ${res.status}`,
    });
  },
  { needs: ['tokenManager'], budget: 25 },
);
