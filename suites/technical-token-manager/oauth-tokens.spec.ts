import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import { headerPresent, holds, refused, served } from '../engine/checks/index.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';
import {
  accessTokenChecks,
  application,
  errorsAsJson,
  getOauthTokens,
  noStore,
  test,
  tokensPayload,
  unprovisionedTenant,
  userTenants,
  tokenRefusal,
} from './token-manager-client.ts';
import { MAX_USER_TENANTS } from './token-manager-bounds.ts';

/** A 400 invalidRequestBody, its Errors body as JSON. */
const INVALID = { ...errorsAsJson, code: 'platform.core.keymanager.invalidRequestBody' };

test(
  [
    'technical-token-manager/limits/user-tenant-ids-per-call',
    'technical-token-manager/tokens-response/one-token-per-user-tenant',
    'technical-token-manager/tokens-response/shape',
    'technical-token-manager/access-token/fields',
    'technical-token-manager/access-token/access-token-jwt',
    'technical-token-manager/access-token/token-type-bearer',
    'technical-token-manager/access-token/timestamp-number',
    'technical-token-manager/access-token/expires-in-seconds',
    'technical-token-manager/access-token/scope-space-separated',
    'technical-token-manager/tokens/client-credentials-grant',
    'technical-token-manager/tokens/no-store',
    'technical-token-manager/access-token/jti-unique',
    'technical-token-manager/tokens/operator-and-developer',
  ],
  `POST /oauthTokens with exactly ${MAX_USER_TENANTS} user tenants answers one token per tenant`,
  async (t) => {
    const app = application(t);
    const tenants = userTenants(t, MAX_USER_TENANTS);
    const requestedAt = Date.now();
    const res = await getOauthTokens(t, tokensPayload(app, tenants));
    served(t, {
      rule: 'technical-token-manager/tokens/operator-and-developer',
      res,
      what: 'POST /oauthTokens of the application of the run',
      soft: true,
    });
    served(t, {
      rule: 'technical-token-manager/limits/user-tenant-ids-per-call',
      res,
      what: `POST /oauthTokens with exactly ${MAX_USER_TENANTS} user tenants`,
    });
    const list = (res.json as { oauthTokens?: unknown } | undefined)?.oauthTokens;
    const items = Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];
    holds(t, {
      rule: 'technical-token-manager/tokens-response/shape',
      ok:
        res.contentType === 'application/json' &&
        Array.isArray(list) &&
        items.every((i) => typeof i?.userTenantId === 'string' && !!i.token && typeof i.token === 'object'),
      failure: 'TokensResponse malformed',
      expected: '{"oauthTokens":[{"userTenantId":string,"token":AccessTokenResponse}]} as application/json',
      received: `${res.contentType} ${res.text.slice(0, 200)}`,
      soft: true,
    });
    const ids = items.map((i) => i.userTenantId);
    holds(t, {
      rule: 'technical-token-manager/tokens-response/one-token-per-user-tenant',
      ok: ids.length === MAX_USER_TENANTS && tenants.every((u) => ids.filter((x) => x === u).length === 1),
      failure: 'not one token per requested tenant',
      expected: JSON.stringify(tenants),
      received: JSON.stringify(ids),
      soft: true,
    });
    if (res.status === 200) headerPresent(t, { ...noStore, res, what: 'POST /oauthTokens' });
    for (const item of items) {
      const checks = accessTokenChecks((item.token ?? {}) as Record<string, unknown>, {
        operation: 'POST /oauthTokens',
        tenant: String(item.userTenantId),
        tenantRule: 'technical-token-manager/tokens-response/one-token-per-user-tenant',
        requestedAt,
      });
      for (const c of checks.holds) if (t.declares(c.rule)) holds(t, c);
      for (const [rule, why] of checks.notExercised) if (t.declares(rule)) t.notExercised(rule, why);
    }
    // A token without jti is judged by access-token/fields alone (all-six-fields).
    const jtis = items.map((i) => (i.token as Record<string, unknown> | undefined)?.jti).filter((j) => j !== undefined);
    holds(t, {
      rule: 'technical-token-manager/access-token/jti-unique',
      ok: new Set(jtis).size === jtis.length,
      failure: 'tokens of one call share a jti',
      expected: 'distinct jti values',
      received: JSON.stringify(jtis),
      soft: true,
    });
  },
  { needs: ['tokenManager', `tokenManager.userTenants:${MAX_USER_TENANTS}`] },
);

// Conditions of the 400 invalidRequestBody, each one payload.
test.each(
  [
    {
      rule: 'technical-token-manager/tokens-payload/too-many-user-tenants',
      condition: `${MAX_USER_TENANTS + 1} user tenants`,
      what: `${MAX_USER_TENANTS + 1} user tenants`,
      tenants: MAX_USER_TENANTS + 1,
      change: {},
    },
    {
      rule: 'technical-token-manager/tokens-payload/empty-user-tenant-set',
      condition: 'an empty user tenant set',
      what: 'an empty userTenantIds',
      tenants: 0,
      change: {},
    },
    {
      rule: 'technical-token-manager/tokens-payload/empty-host-tenant-id',
      condition: 'an empty host tenant ID',
      what: 'an empty hostTenantId',
      tenants: 1,
      change: { hostTenantId: '' },
    },
  ],
  (row) => ({
    rules: [row.rule, 'technical-token-manager/transport/json'],
    name: `POST /oauthTokens with ${row.condition} is answered 400 invalidRequestBody`,
    options: {
      needs: ['tokenManager', ...(row.tenants ? [`tokenManager.userTenants:${row.tenants}` as const] : [])],
    },
  }),
  async (t, { rule, what, tenants, change }) => {
    const body = { ...tokensPayload(application(t), tenants ? userTenants(t, tenants) : []), ...change };
    refused(t, { ...INVALID, rule, res: await getOauthTokens(t, body), what });
  },
);

test(
  ['technical-token-manager/tokens/host-tenant-as-user-tenant'],
  "POST /oauthTokens with only the host tenant issues the host tenant's token",
  async (t) => {
    const app = application(t);
    const res = await getOauthTokens(t, tokensPayload(app, [app.hostTenant]));
    const items = (res.json as { oauthTokens?: Array<Record<string, unknown>> } | undefined)?.oauthTokens ?? [];
    holds(t, {
      rule: 'technical-token-manager/tokens/host-tenant-as-user-tenant',
      ok: res.status === 200 && items.length === 1 && items[0]?.userTenantId === app.hostTenant,
      failure: 'no host-tenant token from POST /oauthTokens',
      expected: `HTTP 200 with one token for ${app.hostTenant}`,
      received: `HTTP ${res.status} ${res.text.slice(0, 200)}`,
    });
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/tokens-payload/only-host-tenant', 'technical-token-manager/transport/json'],
  'POST /oauthTokens with the host tenant anywhere among user tenants breaks "provide only hostTenantId"',
  async (t) => {
    const app = application(t);
    const lists = listWithBadItems({
      rule: 'technical-token-manager/tokens-payload/only-host-tenant',
      valid: userTenants(t, 2),
      bad: { 'the host tenant': app.hostTenant },
      // The host tenant alone is its own token (tokens/host-tenant-as-user-tenant).
      minValid: 1,
      maxLength: MAX_USER_TENANTS,
    });
    await t.property(
      lists,
      async (list) =>
        refused(t, {
          ...INVALID,
          rule: 'technical-token-manager/tokens-payload/only-host-tenant',
          res: await getOauthTokens(t, tokensPayload(app, list.items)),
          what: `userTenantIds with ${badItemsText(list)}`,
          reading: 'host-tenant-alone',
        }),
      { rule: 'technical-token-manager/tokens-payload/only-host-tenant' },
    );
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:2'], budgetPerRun: 1 },
);

test(
  ['technical-token-manager/tokens-payload/invalid-user-tenant', 'technical-token-manager/transport/json'],
  'POST /oauthTokens with an invalid tenant anywhere among provisioned ones is answered 400 invalidRequestBody',
  async (t) => {
    const app = application(t);
    // Condition 5, "a tenant in the user tenant set is invalid": each kind, wherever it stands.
    const lists = listWithBadItems({
      rule: 'technical-token-manager/tokens-payload/invalid-user-tenant',
      valid: userTenants(t, 2),
      bad: {
        'a tenant that does not exist': `${t.prefix}nosuchtenant`,
        'a tenant not provisioned to the application': unprovisionedTenant(t),
        'an empty tenant ID': '',
      },
      maxLength: MAX_USER_TENANTS,
    });
    await t.property(
      lists,
      async (list) =>
        refused(t, {
          ...INVALID,
          rule: 'technical-token-manager/tokens-payload/invalid-user-tenant',
          res: await getOauthTokens(t, tokensPayload(app, list.items)),
          what: `userTenantIds with ${badItemsText(list)}`,
        }),
      { rule: 'technical-token-manager/tokens-payload/invalid-user-tenant' },
    );
  },
  {
    needs: ['tokenManager', 'tokenManager.userTenants:2', 'fixtures.technicalTokenManager.unprovisionedTenantId'],
    budgetPerRun: 1,
  },
);

test(
  ['technical-token-manager/tokens-payload/required-fields', 'technical-token-manager/transport/json'],
  'POST /oauthTokens lacking a field is answered 400',
  async (t) => {
    const app = application(t);
    for (const field of ['appName', 'appVersion', 'hostTenantId', 'userTenantIds']) {
      const body = tokensPayload(app, userTenants(t, 1));
      delete body[field];
      refused(t, {
        ...errorsAsJson,
        rule: 'technical-token-manager/tokens-payload/required-fields',
        res: await getOauthTokens(t, body),
        what: `a payload without ${field}`,
      });
    }
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:1'] },
);

test(
  ['technical-token-manager/tokens-payload/field-types', 'technical-token-manager/transport/json'],
  'POST /oauthTokens with fields of the wrong type is answered 400',
  async (t) => {
    const app = application(t);
    const base = tokensPayload(app, userTenants(t, 1));
    const cases: Array<[string, unknown]> = [
      ['appName is a number', { ...base, appName: 1 }],
      ['hostTenantId is an array', { ...base, hostTenantId: [app.hostTenant] }],
      ['userTenantIds is a string', { ...base, userTenantIds: userTenants(t, 1)[0] }],
      ['the body is an array', [base]],
      ['the body is null', null],
    ];
    for (const [what, body] of cases)
      refused(t, {
        ...errorsAsJson,
        rule: 'technical-token-manager/tokens-payload/field-types',
        res: await getOauthTokens(t, body),
        what,
      });
    // JSON text cut short is not a JSON object either.
    const cut = await t.send(
      {
        method: 'POST',
        path: '/oauthTokens',
        headers: { 'X-SPACE-AUTH-KEY': spaceAuthKey(app), 'content-type': 'application/json' },
        body: JSON.stringify(base).slice(0, 20),
      },
      { as: null },
    );
    refused(t, {
      ...errorsAsJson,
      rule: 'technical-token-manager/tokens-payload/field-types',
      res: cut,
      what: 'a body of malformed JSON',
    });
    // "array of string": an item that is not a string, wherever it stands among tenant IDs.
    const lists = listWithBadItems({
      rule: 'technical-token-manager/tokens-payload/field-types',
      valid: userTenants(t, 2),
      bad: { 'a number': 7, 'a boolean': true, 'an object': { id: userTenants(t, 1)[0] } },
      maxLength: MAX_USER_TENANTS,
    });
    await t.property(
      lists,
      async (list) =>
        refused(t, {
          ...errorsAsJson,
          rule: 'technical-token-manager/tokens-payload/field-types',
          res: await getOauthTokens(t, tokensPayload(app, list.items)),
          what: `userTenantIds with ${badItemsText(list)}`,
        }),
      { rule: 'technical-token-manager/tokens-payload/field-types' },
    );
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:2'], budgetPerRun: 1 },
);

test(
  [
    'technical-token-manager/auth/space-auth-key-required',
    'technical-token-manager/auth/space-auth-key-replaces-bearer',
  ],
  'POST /oauthTokens needs X-SPACE-AUTH-KEY; a bearer token does not replace it',
  async (t) => {
    const app = application(t);
    const body = tokensPayload(app, userTenants(t, 1));
    refused(t, {
      ...tokenRefusal,
      rule: 'technical-token-manager/auth/space-auth-key-required',
      res: await getOauthTokens(t, body, null),
      what: 'POST /oauthTokens without X-SPACE-AUTH-KEY',
    });
    const authorization = await t.session.tokens.authorization('full');
    refused(t, {
      ...tokenRefusal,
      rule: 'technical-token-manager/auth/space-auth-key-replaces-bearer',
      res: await getOauthTokens(t, body, null, { authorization }),
      what: 'POST /oauthTokens with only a bearer token',
    });
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:1'] },
);
