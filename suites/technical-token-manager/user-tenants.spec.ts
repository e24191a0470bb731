import { answered, holds, refused, served } from '../engine/checks/index.ts';
import {
  application,
  errorsAsJson,
  errorCodes,
  getOauthTokens,
  getToken,
  getUserTenants,
  hostToken,
  identification,
  test,
  tokensPayload,
  userTenants,
} from './token-manager-client.ts';
import { body, ids, shapeOf, coherent, tenantListRefusal } from './user-tenants-support.ts';
import { USER_TENANTS_PAGE } from './token-manager-bounds.ts';

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
  `GET /userTenants with the host token and no query answers page 0 of size ${USER_TENANTS_PAGE.default}`,
  async (t) => {
    const res = await getUserTenants(t, await hostToken(t));
    served(t, {
      rule: 'technical-token-manager/auth/host-token-accepted',
      res,
      what: 'GET /userTenants with the host token',
    });
    served(t, {
      rule: 'technical-token-manager/tokens/operator-and-developer',
      res,
      what: 'GET /userTenants of the host application',
      soft: true,
    });
    for (const c of shapeOf(res)) holds(t, c);
    // "as with page=0" and "as with size=500" are the document's; that page.number and page.size
    // echo the request is our reading of the Page fields (spring-data-page).
    const p = body(res).page ?? {};
    holds(t, {
      rule: 'technical-token-manager/user-tenants/page-default',
      ok: p.number === 0,
      failure: 'page.number does not report the default page 0',
      expected: 'page.number 0',
      received: JSON.stringify(p.number),
      reading: 'spring-data-page',
    });
    holds(t, {
      rule: 'technical-token-manager/user-tenants/size-default',
      ok: p.size === USER_TENANTS_PAGE.default,
      failure: `page.size does not report the default size ${USER_TENANTS_PAGE.default}`,
      expected: `page.size ${USER_TENANTS_PAGE.default}`,
      received: JSON.stringify(p.size),
      reading: 'spring-data-page',
    });
    const pageZero = await getUserTenants(t, await hostToken(t), { page: 0 });
    holds(t, {
      rule: 'technical-token-manager/user-tenants/page-default',
      ok: pageZero.status === 200 && JSON.stringify(ids(pageZero)) === JSON.stringify(ids(res)),
      failure: 'no page and page=0 differ',
      expected: 'the same IDs',
      received: `HTTP ${pageZero.status}, ${ids(res).length} vs ${ids(pageZero).length} IDs`,
      soft: true,
    });
    // Page 1 holds fewer items than the page size wherever fewer than 1,000 tenants are provisioned,
    // so page.size there tells the requested size from the number of items.
    const second = await getUserTenants(t, await hostToken(t), { page: 1 });
    holds(t, {
      rule: 'technical-token-manager/user-tenants/size-default',
      ok: body(second).page?.size === USER_TENANTS_PAGE.default,
      failure: `page.size of page 1 does not report the default size ${USER_TENANTS_PAGE.default}`,
      expected: `page.size ${USER_TENANTS_PAGE.default}`,
      received: `HTTP ${second.status} ${JSON.stringify(body(second).page)}`,
      reading: 'spring-data-page',
    });
    const sizeDefault = await getUserTenants(t, await hostToken(t), { page: 1, size: USER_TENANTS_PAGE.default });
    if (sizeDefault.status === 200)
      holds(t, {
        rule: 'technical-token-manager/user-tenants/size-default',
        ok: JSON.stringify(ids(sizeDefault)) === JSON.stringify(ids(second)),
        failure: `no size and size=${USER_TENANTS_PAGE.default} differ`,
        expected: 'the same IDs on page 1',
        received: `${ids(second).length} vs ${ids(sizeDefault).length} IDs`,
        soft: true,
      });
    else
      t.notExercised(
        'technical-token-manager/user-tenants/size-default',
        `size=${USER_TENANTS_PAGE.default} was answered HTTP ${sizeDefault.status}, so "as with size=${USER_TENANTS_PAGE.default}" could not be compared (the enforced maximum is open: user-tenants/size-maximum)`,
      );
    holds(t, coherent(res, 0, USER_TENANTS_PAGE.default));
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
    served(t, {
      rule: 'technical-token-manager/auth/host-token-accepted',
      res: await getUserTenants(t, `Bearer ${token}`),
      what: 'GET /userTenants with the host token from POST /oauthTokens',
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
    // Within both maxima the document states (500 and 100).
    const size = Math.min(USER_TENANTS_PAGE.max, USER_TENANTS_PAGE.describedMax);
    const first = await getUserTenants(t, auth, { page: 0, size });
    served(t, { rule: 'technical-token-manager/user-tenants/provisioned-ids', res: first, what: `size ${size}` });
    const total = Number(body(first).page?.totalElements);
    const pages = Math.ceil(total / size);
    const all = [...ids(first)];
    holds(t, coherent(first, 0, size));
    for (let p = 1; p < Math.min(pages, 10); p++) {
      const res = await getUserTenants(t, auth, { page: p, size });
      holds(t, coherent(res, p, size));
      all.push(...ids(res));
    }
    const distinct = new Set(all);
    holds(t, {
      rule: 'technical-token-manager/user-tenants/provisioned-ids',
      ok: distinct.size === all.length && (pages > 10 || all.length === total),
      failure: 'paging repeats or loses tenant IDs',
      expected: `${total} distinct IDs`,
      received: `${all.length} IDs, ${distinct.size} distinct`,
      soft: true,
    });
    // The configured user tenants are listed, where the run found the application provisioned for
    // them (doctor's check): one it is not is the configuration's slip, this half not judged.
    const notProvisioned = Object.entries(t.session.context.unready ?? {}).find(([key]) =>
      key.startsWith('tokenManager.userTenants:'),
    )?.[1];
    if (notProvisioned)
      t.notExercised(
        'technical-token-manager/user-tenants/provisioned-ids',
        `every tenant of tokenManager.userTenants listed: ${notProvisioned.reason}`,
      );
    else {
      const configured = application(t).userTenants ?? [];
      const missing = configured.filter((u) => u !== application(t).hostTenant && !distinct.has(u));
      holds(t, {
        rule: 'technical-token-manager/user-tenants/provisioned-ids',
        ok: pages > 10 || missing.length === 0,
        failure: 'configured user tenants not listed',
        expected: 'every tenant of tokenManager.userTenants listed',
        received: `missing ${missing.join(', ')}`,
        soft: true,
      });
    }
    // A listed tenant from the middle of the listing (not the first ones, which the configuration
    // names for other tests). No sentence links the listing to issuance: that it gets a token is our reading.
    const sample = all[Math.floor(all.length / 2)];
    if (sample) {
      const app = application(t);
      const tok = await getToken(t, identification(app, sample));
      answered(t, {
        rule: 'technical-token-manager/user-tenants/provisioned-ids',
        res: tok,
        what: `POST /oauth/token for the listed userTenant ${sample}`,
        reading: 'listed-tenant-token',
      });
    }
    const beyond = await getUserTenants(t, auth, { page: pages + 1, size });
    t.observe(
      'technical-token-manager/user-tenants/page-beyond-last',
      `page ${pages + 1} of ${pages}: HTTP ${beyond.status}, ${ids(beyond).length} IDs`,
    );
    holds(t, {
      rule: 'technical-token-manager/user-tenants/provisioned-ids',
      ok: beyond.status < 500 && ids(beyond).every((i) => !distinct.has(i)),
      failure: 'page beyond the last repeats IDs or fails',
      expected: 'no 5xx and no repeated IDs',
      received: `HTTP ${beyond.status}, ${ids(beyond).length} IDs`,
    });
    // Which status a page beyond the last gets is open; a 200 still has a page object to keep.
    if (beyond.status === 200) holds(t, coherent(beyond, pages + 1, size));
    const seen: string[] = [];
    const { describedMax, max } = USER_TENANTS_PAGE;
    for (const s of [describedMax, describedMax + 1, max]) {
      const res = await getUserTenants(t, auth, { size: s });
      seen.push(`size=${s}: HTTP ${res.status}${errorCodes(res).length ? ` ${errorCodes(res).join(',')}` : ''}`);
    }
    t.observe('technical-token-manager/user-tenants/size-maximum', seen.join('; '));
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/user-tenants/size-above-500-refused', 'technical-token-manager/transport/json'],
  `GET /userTenants with size ${USER_TENANTS_PAGE.max + 1} is answered 400 pageSizeForUserTenantsExceeded; a size beyond 32 bits with a 400`,
  async (t) => {
    const auth = await hostToken(t);
    refused(t, {
      ...errorsAsJson,
      code: 'platform.core.keymanager.pageSizeForUserTenantsExceeded',
      rule: 'technical-token-manager/user-tenants/size-above-500-refused',
      res: await getUserTenants(t, auth, { size: USER_TENANTS_PAGE.max + 1 }),
      what: `size ${USER_TENANTS_PAGE.max + 1}`,
    });
    // A size beyond 32 bits is above the maximum too, and no 32-bit integer: the document does
    // not say which of the two refusals answers it, so only the 400 and its Errors body are judged.
    refused(t, {
      ...errorsAsJson,
      rule: 'technical-token-manager/user-tenants/size-above-500-refused',
      res: await getUserTenants(t, auth, { size: '2147483648' }),
      what: 'size 2147483648 (pageSizeForUserTenantsExceeded or invalidRequestParameter)',
    });
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/user-tenants/invalid-host-token', 'technical-token-manager/transport/json'],
  'GET /userTenants with a bearer value that is not a JWT is answered 400 invalidHostTokenFormat',
  async (t) => {
    const res = await getUserTenants(t, 'Bearer not-a-jwt');
    // Settled: a bearer value that is no token opens no tenant list.
    refused(t, {
      ...tenantListRefusal,
      rule: 'technical-token-manager/user-tenants/invalid-host-token',
      res,
      what: 'a bearer value that is not a JWT',
    });
    // Whether that is "Host token invalid" (400) or an authentication failure (401) is our reading.
    refused(t, {
      ...errorsAsJson,
      code: 'platform.core.keymanager.invalidHostTokenFormat',
      rule: 'technical-token-manager/user-tenants/invalid-host-token',
      res,
      what: 'a malformed host token',
      reading: 'malformed-bearer-host-token-format',
    });
  },
);

test(
  ['technical-token-manager/user-tenants/unidentified-user', 'technical-token-manager/transport/json'],
  "GET /userTenants with a user tenant's token is answered 400 unidentifiedUser",
  async (t) => {
    const [tenant] = userTenants(t, 1);
    const auth = await t.session.tokens.authorization('full', tenant);
    refused(t, {
      ...errorsAsJson,
      code: 'platform.core.keymanager.unidentifiedUser',
      rule: 'technical-token-manager/user-tenants/unidentified-user',
      res: await getUserTenants(t, auth),
      what: 'a user-tenant token',
      reading: 'user-tenant-token-unidentified',
    });
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:1'] },
);
