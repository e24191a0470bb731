import fc from 'fast-check';
import { headerPresent, holds, refused, served } from '../engine/checks/index.ts';
import {
  accessTokenChecks,
  application,
  decodeToken,
  errorCodes,
  getOauthTokens,
  getToken,
  identification,
  noStore,
  test,
  tokensPayload,
  unprovisionedTenant,
  userTenants,
  tokenRefusal,
} from './token-manager-client.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import type { ClientCredentials } from '../engine/run-config.ts';

test(
  [
    'technical-token-manager/access-token/fields',
    'technical-token-manager/access-token/access-token-jwt',
    'technical-token-manager/access-token/token-type-bearer',
    'technical-token-manager/access-token/timestamp-number',
    'technical-token-manager/access-token/timestamp-unit',
    'technical-token-manager/access-token/expires-in-seconds',
    'technical-token-manager/access-token/scope-space-separated',
    'technical-token-manager/tokens/client-credentials-grant',
    'technical-token-manager/tokens/no-store',
    'technical-token-manager/transport/json',
    'technical-token-manager/versioning/base-path',
    'technical-token-manager/identification/user-tenant-token',
  ],
  'POST /oauth/token issues an AccessTokenResponse whose fields agree with the JWT',
  async (t) => {
    const app = application(t);
    const [tenant] = userTenants(t, 1);
    const requestedAt = Date.now();
    const res = await getToken(t, identification(app, tenant));
    served(t, {
      rule: 'technical-token-manager/versioning/base-path',
      res,
      what: 'POST /oauth/token under the base path',
    });
    holds(t, {
      rule: 'technical-token-manager/transport/json',
      ok: res.contentType === 'application/json',
      failure: '200 not application/json',
      expected: 'application/json',
      received: res.contentType,
      soft: true,
    });
    headerPresent(t, { ...noStore, res, what: 'POST /oauth/token' });
    const body = (res.json ?? {}) as Record<string, unknown>;
    const checks = accessTokenChecks(body, {
      operation: 'POST /oauth/token',
      tenant,
      tenantRule: 'technical-token-manager/identification/user-tenant-token',
      requestedAt,
    });
    for (const c of checks.holds) if (t.declares(c.rule)) holds(t, c);
    if (typeof body.timestamp === 'number') {
      const ts = body.timestamp;
      const near = (ms: number) => Math.abs(ms - requestedAt) < 600_000;
      const unit = near(ts)
        ? 'milliseconds'
        : near(ts * 1000)
          ? 'seconds'
          : 'neither seconds nor milliseconds near now';
      t.observe(
        'technical-token-manager/access-token/timestamp-unit',
        `timestamp ${ts} (POST /oauth/token) reads as ${unit} since the Unix epoch`,
      );
    }
    for (const [rule, why] of checks.notExercised) if (t.declares(rule)) t.notExercised(rule, why);
  },
  { needs: ['tokenManager', 'tokenManager.userTenants:1'] },
);

test(
  ['technical-token-manager/access-token/jti-unique'],
  'every different token has a jti of its own, equal to the JWT jti claim',
  async (t) => {
    const app = application(t);
    // jti per issued token: a deployment may answer a repeated call with the same still-valid token
    // (and so the same jti), so uniqueness is judged between different tokens only.
    const jtiOfToken = new Map<string, string>();
    for (let i = 0; i < 3; i++) {
      const res = await getToken(t, identification(app, app.hostTenant));
      const body = (res.json ?? {}) as Record<string, unknown>;
      // A response without jti is judged by access-token/fields alone (all-six-fields).
      if (!('jti' in body)) continue;
      const claim = decodeToken(body.access_token)?.claims.jti;
      holds(t, {
        rule: 'technical-token-manager/access-token/jti-unique',
        ok: typeof body.jti === 'string' && body.jti !== '' && (claim === undefined || claim === body.jti),
        failure: 'jti missing or not the JWT jti',
        expected: `a non-empty jti equal to the claim ${String(claim)}`,
        received: JSON.stringify(body.jti),
        soft: true,
      });
      jtiOfToken.set(String(body.access_token), String(body.jti));
    }
    const jtis = [...jtiOfToken.values()];
    if (jtis.length < 2) t.skip('fewer than two different tokens carried a jti');
    holds(t, {
      rule: 'technical-token-manager/access-token/jti-unique',
      ok: new Set(jtis).size === jtis.length,
      failure: 'jti repeated',
      expected: `${jtis.length} different jti values for ${jtis.length} different tokens`,
      received: JSON.stringify(jtis),
    });
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/tokens/host-tenant-as-user-tenant'],
  "POST /oauth/token with the host tenant as user tenant issues the host tenant's token",
  async (t) => {
    const app = application(t);
    const res = await getToken(t, identification(app, app.hostTenant));
    // That it is the host tenant's own token is judged by auth/host-token-accepted (GET /userTenants
    // takes it); the document names no claim of the token to read the tenant from.
    const jwt = decodeToken((res.json as Record<string, unknown> | undefined)?.access_token);
    holds(t, {
      rule: 'technical-token-manager/tokens/host-tenant-as-user-tenant',
      ok: res.status === 200 && !!jwt,
      failure: 'no token for the host tenant',
      expected: `HTTP 200 with a token, for userTenant = hostTenant ${app.hostTenant}`,
      received: `HTTP ${res.status} ${res.text.slice(0, 160)}`,
    });
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/auth/space-auth-key-basic'],
  'X-SPACE-AUTH-KEY with a wrong secret, an unknown client or another form is refused on both token operations',
  async (t) => {
    const app = application(t);
    // The last three hold the right credentials in another form (no scheme in front, other text
    // around the Basic value): refusing them is our reading.
    const wrong: Array<[string, string, string?]> = [
      ['a wrong client secret', spaceAuthKey({ clientId: app.clientId, clientSecret: `${app.clientSecret}x` })],
      ['an unknown client ID', spaceAuthKey({ clientId: `${t.prefix}unknown`, clientSecret: app.clientSecret })],
      ['a Basic value that is not base64 of id:secret', 'Basic not-base64!'],
      [
        'a value with no scheme in front',
        Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64'),
        'basic-scheme-required',
      ],
      ['the right value behind a stray word', `Token ${spaceAuthKey(app)}`, 'basic-scheme-required'],
      ['the right value followed by a stray character', `${spaceAuthKey(app)}!`, 'basic-scheme-required'],
    ];
    // The Authentication table gives POST /oauthTokens the same header and value construction.
    const operations: Array<[string, (key: string) => ReturnType<typeof getToken>]> = [
      ['POST /oauth/token', (key) => getToken(t, identification(app, app.hostTenant), key)],
      ['POST /oauthTokens', (key) => getOauthTokens(t, tokensPayload(app, [app.hostTenant]), key)],
    ];
    for (const [op, send] of operations)
      for (const [what, key, reading] of wrong)
        refused(t, {
          ...tokenRefusal,
          rule: 'technical-token-manager/auth/space-auth-key-basic',
          res: await send(key),
          what: `${op}: X-SPACE-AUTH-KEY with ${what}`,
          reading,
        });
  },
  { needs: ['tokenManager'], budget: 12 },
);

test(
  ['technical-token-manager/auth/authorization-header-instead'],
  'whether Authorization: Basic is accepted instead of X-SPACE-AUTH-KEY',
  async (t) => {
    const app = application(t);
    const res = await getToken(t, identification(app, app.hostTenant), null, { authorization: spaceAuthKey(app) });
    t.observe(
      'technical-token-manager/auth/authorization-header-instead',
      res.status === 200 ? 'accepted (HTTP 200 with a token)' : `refused: HTTP ${res.status}`,
    );
  },
  { needs: ['tokenManager'] },
);

// The fields naming the application, on both token operations: refusing a mismatch is our reading.
test.each(
  [
    {
      rule: 'technical-token-manager/identification/application-match',
      operation: 'POST /oauth/token',
      what: 'an Identification',
      host: 'hostTenant',
      send: (t: RuleContext, app: ClientCredentials, change: object) =>
        getToken(t, { ...identification(app, app.hostTenant), ...change }),
    },
    {
      rule: 'technical-token-manager/tokens-payload/application-match',
      operation: 'POST /oauthTokens',
      what: 'a payload',
      host: 'hostTenantId',
      send: (t: RuleContext, app: ClientCredentials, change: object) =>
        getOauthTokens(t, { ...tokensPayload(app, userTenants(t, 1)), ...change }),
    },
  ],
  (row) => ({
    rules: [row.rule],
    name: `${row.operation} naming another application is refused`,
    options: {
      needs: ['tokenManager', ...(row.host === 'hostTenantId' ? (['tokenManager.userTenants:1'] as const) : [])],
    },
  }),
  async (t, { rule, what, host, send }) => {
    const app = application(t);
    for (const [field, value] of [
      ['appName', `${app.appName}x`],
      ['appVersion', `${app.appVersion}.99`],
      [host, `${app.hostTenant}x`],
    ])
      refused(t, {
        ...tokenRefusal,
        rule,
        res: await send(t, app, { [field]: value }),
        what: `${what} with a wrong ${field}`,
        reading: 'application-fields-checked',
      });
  },
);

test(
  ['technical-token-manager/identification/user-tenant-provisioned'],
  'a user tenant not provisioned to the application gets no token',
  async (t) => {
    const app = application(t);
    for (const [what, tenant] of [
      ['a tenant that does not exist', `${t.prefix}nosuchtenant`],
      ['a tenant not provisioned to the application', unprovisionedTenant(t)],
    ])
      refused(t, {
        ...tokenRefusal,
        rule: 'technical-token-manager/identification/user-tenant-provisioned',
        res: await getToken(t, identification(app, tenant)),
        what: `a token for ${what}`,
        reading: 'unprovisioned-tenant-refused',
      });
  },
  { needs: ['tokenManager', 'fixtures.technicalTokenManager.unprovisionedTenantId'] },
);

test(
  ['technical-token-manager/identification/field-types'],
  'an Identification field that is not a string is refused (property)',
  async (t) => {
    const app = application(t);
    const good = identification(app, app.hostTenant);
    const arb = fc.record({
      field: fc.constantFrom('appName', 'appVersion', 'hostTenant', 'userTenant'),
      // No null: with "Required fields of Identification: not shown", a null field may be taken as
      // an absent one, which the alternate profile fills from the credential.
      value: fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
      ),
    });
    await t.property(
      arb,
      async ({ field, value }) => {
        const res = await getToken(t, { ...good, [field]: value });
        refused(t, {
          ...tokenRefusal,
          rule: 'technical-token-manager/identification/field-types',
          res,
          what: `${field} = ${JSON.stringify(value)}`,
        });
      },
      { rule: 'technical-token-manager/identification/field-types', runs: Math.min(t.session.context.runs, 20) },
    );
  },
  { needs: ['tokenManager'], budgetPerRun: 1 },
);

test(
  ['technical-token-manager/identification/field-types'],
  'a body that is not an Identification JSON object is refused',
  async (t) => {
    // "Body: Identification": an array of Identifications is not one. (JSON null is not sent: with
    // no field required, it may be read as an empty body, every field absent.)
    const app = application(t);
    const good = identification(app, app.hostTenant);
    const cases: Array<[string, unknown]> = [['an array of Identifications', [good]]];
    for (const [what, body] of cases)
      refused(t, {
        ...tokenRefusal,
        rule: 'technical-token-manager/identification/field-types',
        res: await getToken(t, body),
        what,
      });
    // JSON null, refused or read as an empty body, is still no server failure.
    const res = await getToken(t, null);
    holds(t, {
      rule: 'technical-token-manager/identification/field-types',
      ok: res.status < 500,
      failure: 'the body null answered with a server error',
      expected: 'a 4xx refusal, or the body read as empty (2xx)',
      received: `HTTP ${res.status} ${res.text.slice(0, 160)}`,
    });
  },
  { needs: ['tokenManager'] },
);

test(
  ['technical-token-manager/identification/required-fields'],
  'how POST /oauth/token answers an Identification lacking a field',
  async (t) => {
    const app = application(t);
    const seen: string[] = [];
    for (const field of ['appName', 'appVersion', 'hostTenant', 'userTenant']) {
      const body = identification(app, app.hostTenant);
      delete body[field];
      const res = await getToken(t, body);
      seen.push(`without ${field}: HTTP ${res.status}${errorCodes(res).length ? ` ${errorCodes(res).join(',')}` : ''}`);
    }
    t.observe('technical-token-manager/identification/required-fields', seen.join('; '));
  },
  { needs: ['tokenManager'] },
);

// "Any other status: error body of unspecified format": only the refusal is judged; the status and
// the body are recorded (the Errors body of the other operations is not asked for).
test.each(
  [
    ['technical-token-manager/auth/space-auth-key-required', 'without X-SPACE-AUTH-KEY', null, undefined],
    ['technical-token-manager/identification/field-types', 'appName a number', undefined, { appName: 42 }],
  ] as const,
  ([rule, what]) => ({
    rules: [
      rule,
      'technical-token-manager/get-token/failure-status',
      'technical-token-manager/get-token/error-body-format',
    ],
    name: `how POST /oauth/token refuses a token request ${what}`,
    options: { needs: ['tokenManager'] },
  }),
  async (t, [rule, what, key, change]) => {
    const app = application(t);
    const res = await getToken(t, { ...identification(app, app.hostTenant), ...change }, key);
    refused(t, { ...tokenRefusal, rule, res, what: `a token request ${what}` });
    t.observe(
      'technical-token-manager/get-token/failure-status',
      `${what}: HTTP ${res.status} codes ${JSON.stringify(errorCodes(res))}`,
    );
    t.observe(
      'technical-token-manager/get-token/error-body-format',
      errorCodes(res).length
        ? `Errors body (${res.contentType})`
        : `not the Errors body: ${res.contentType} ${res.text.slice(0, 80)}`,
    );
  },
);
