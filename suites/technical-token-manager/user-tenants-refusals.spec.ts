import { setTimeout as sleep } from 'node:timers/promises';
import { holds, refused } from '../engine/checks/index.ts';
import { ttmErrorBody } from '../engine/checks/ttm-error-body.ts';
import {
  application,
  errorsAsJson,
  errorCodes,
  getUserTenants,
  hostToken,
  test,
  throttledExchange,
} from './token-manager-client.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';
import { probeThrottle, THROTTLE_PROBE, unmetThrottleReason } from '../engine/throttle-probe.ts';
import { shapeOf, tenantListRefusal } from './user-tenants-support.ts';

test(
  ['technical-token-manager/auth/user-tenants-token-required'],
  'GET /userTenants without a token is refused',
  async (t) => {
    // The application's Basic credential of the token operations is not a bearer token either.
    for (const [what, authorization] of [
      ['GET /userTenants without a token', null],
      ['GET /userTenants with a Basic credential instead of a token', spaceAuthKey(application(t))],
    ] as const)
      refused(t, {
        ...tenantListRefusal,
        rule: 'technical-token-manager/auth/user-tenants-token-required',
        res: await getUserTenants(t, authorization),
        what,
      });
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
    refused(t, {
      ...tenantListRefusal,
      rule: 'technical-token-manager/auth/user-tenants-scope',
      res: await getUserTenants(t, await t.session.tokens.authorization('without:km.usr')),
      what: 'GET /userTenants with a token without km.usr',
    });
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
      const rule = 'technical-token-manager/user-tenants/query-types';
      refused(t, { ...errorsAsJson, rule, res, what: JSON.stringify(q), reading });
      // The Errors table binds pageSizeForUserTenantsExceeded to "Requested page size above the
      // maximum supported": a size of 1.5 or 0 is above no maximum.
      if (res.status === 400 && q.size !== undefined)
        holds(t, {
          rule: 'technical-token-manager/user-tenants/query-types',
          ok: !errorCodes(res).includes('platform.core.keymanager.pageSizeForUserTenantsExceeded'),
          failure: `${JSON.stringify(q)} answered as a page size above the maximum`,
          expected: 'a code other than platform.core.keymanager.pageSizeForUserTenantsExceeded',
          received: errorCodes(res).join(', '),
          soft: true,
        });
      // A deployment that takes page -1 or size 0 (the other side of page-size-lower-bound) still
      // answers a UserTenantResponse whose Page fields are integers ("| totalPages | integer |").
      if (res.status === 200) for (const c of shapeOf(res)) holds(t, c);
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
    // With --probe-throttling the bursts are sent as the `throttled` principal when there is one,
    // until the target throttles one or the probe's bound is reached (THROTTLE_PROBE).
    const probe = t.session.context.probeThrottling && t.session.tokens.has('throttled');
    const auth = probe ? await t.session.tokens.authorization('throttled') : await hostToken(t);
    const throttled = () =>
      t.session.http.stats.throttleSamples.filter((s) => s.path.startsWith('/api/technicaltokenmanager/'));
    // Probing, one request and an idle second come first: a throttle must serve a client again once
    // it has waited, also when its burst starts after a pause.
    if (probe) {
      await getUserTenants(t, auth, { size: 1 });
      await sleep(1_100);
    }
    const read = () => getUserTenants(t, auth, { size: 1 });
    const probed = probe
      ? await probeThrottle(read, () => throttled().length > 0)
      : { responses: await Promise.all(Array.from({ length: 20 }, read)), met: false, elapsedMs: 0 };
    // A refusal of a valid read in the burst with another status than 429 (a 503 with or without
    // Retry-After) is throttling answered the wrong way, whatever the engine kept as a sample.
    const odd = probed.responses.filter((r) => r.status !== 200 && r.status !== 429);
    if (odd.length)
      holds(t, {
        rule: 'technical-token-manager/throttling/too-many-requests',
        ok: false,
        failure: 'a burst of valid requests answered with another status than 200 or 429',
        expected: 'HTTP 200, or 429 when throttled',
        received: `HTTP ${odd.map((r) => r.status).join(', ')} ${odd[0].text.slice(0, 160)}`,
      });
    const samples = throttled();
    if (!samples.length)
      t.skip(
        probe
          ? unmetThrottleReason('token manager', probed)
          : 'the target throttled no token manager request during the run (configure principals.throttled, a client it throttles, to probe it)',
      );
    holds(t, {
      rule: 'technical-token-manager/throttling/too-many-requests',
      ok: samples.every((s) => s.status === 429),
      failure: 'throttling not answered 429',
      expected: 'HTTP 429',
      received: JSON.stringify(samples.map((s) => s.status)),
    });
    // POST /oauth/token's failures have a body "of unspecified format": its codes are not judged.
    for (const s of samples.filter((x) => !x.path.includes('/oauth/token')))
      for (const f of ttmErrorBody.check(throttledExchange(s)))
        if (f.rule === 'technical-token-manager/errors/code-form')
          holds(t, { ...f, failure: `${f.title} (a throttled ${s.path})`, soft: true });
    // "Throttling thresholds: not shown": no wait is long enough by the document, so a request after
    // the burst may still be throttled; it is judged only for being answered 200 or 429.
    const res = await getUserTenants(t, auth, { size: 1 });
    holds(t, {
      rule: 'technical-token-manager/throttling/too-many-requests',
      ok: res.status === 200 || res.status === 429,
      failure: 'a request after throttling answered with another status than 200 or 429',
      expected: 'HTTP 200, or 429 while still throttled',
      received: `HTTP ${res.status}`,
    });
  },
  { needs: ['tokenManager'], budget: 2 + THROTTLE_PROBE.maxRequests },
);
