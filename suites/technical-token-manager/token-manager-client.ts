import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { HttpResponse } from '../engine/http-client.ts';
import type { HoldsOptions } from '../engine/checks/index.ts';
import type { CheckedExchange } from '../engine/checks/response-check.ts';
import { serviceTest, type RuleContext } from '../engine/rule-test.ts';
import type { ClientCredentials } from '../engine/run-config.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';

export const SERVICE = 'technical-token-manager' as const;

/** Declares a token manager test (`test.each`: one per row of a table): none changes the target. */
export const test = serviceTest(SERVICE, { readOnly: true });

/** The fully granted application of the run, or a skip when the run has only static tokens. */
export function application(t: RuleContext): ClientCredentials & { userTenants?: string[] } {
  t.need('tokenManager');
  const tm = t.session.context.config.tokenManager;
  if (!tm) t.needsPrincipal('tokenManager', 'the run configuration has no tokenManager credentials');
  return tm;
}

/** User tenants provisioned to the application, from the configuration (at least `n`), or a skip. */
export function userTenants(t: RuleContext, n: number): string[] {
  t.need(`tokenManager.userTenants:${n}`);
  const list = (application(t).userTenants ?? []).filter((u) => u !== application(t).hostTenant);
  if (list.length < n)
    t.needsConfiguration(
      'tokenManager.userTenants',
      `needs ${n} provisioned user tenants in tokenManager.userTenants; the configuration lists ${list.length}`,
    );
  return list.slice(0, n);
}

/**
 * A tenant that exists and is not provisioned to the application
 * (`fixtures.technicalTokenManager.unprovisionedTenantId`), or a skip naming the key.
 */
export function unprovisionedTenant(t: RuleContext): string {
  t.need('fixtures.technicalTokenManager.unprovisionedTenantId');
  const f = t.fixtures.technicalTokenManager as { unprovisionedTenantId?: unknown } | undefined;
  const id = f?.unprovisionedTenantId;
  if (typeof id !== 'string' || id === '')
    t.needsConfiguration(
      'fixtures.technicalTokenManager.unprovisionedTenantId',
      'the run configuration has no fixtures.technicalTokenManager.unprovisionedTenantId (a tenant that exists and is not provisioned to the application)',
    );
  return id;
}

/** The Identification body for a user tenant. */
export function identification(app: ClientCredentials, userTenant: string): Record<string, unknown> {
  return { appName: app.appName, appVersion: app.appVersion, hostTenant: app.hostTenant, userTenant };
}

/** POSTs to a token operation with the application's key unless `key` says otherwise (`null`: no key). */
function postWithKey(
  t: RuleContext,
  path: string,
  body: unknown,
  key: string | null | undefined,
  extraHeaders: Record<string, string>,
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...extraHeaders };
  const k = key === undefined ? spaceAuthKey(application(t)) : key;
  if (k !== null) headers['X-SPACE-AUTH-KEY'] = k;
  return t.send({ method: 'POST', path, headers, json: body }, { as: null });
}

/** POST /oauth/token. */
export function getToken(
  t: RuleContext,
  body: unknown,
  key?: string | null,
  extraHeaders: Record<string, string> = {},
): Promise<HttpResponse> {
  return postWithKey(t, '/oauth/token', body, key, extraHeaders);
}

/** POST /oauthTokens. */
export function getOauthTokens(
  t: RuleContext,
  body: unknown,
  key?: string | null,
  extraHeaders: Record<string, string> = {},
): Promise<HttpResponse> {
  return postWithKey(t, '/oauthTokens', body, key, extraHeaders);
}

/** The TokensPayload for some user tenants. */
export function tokensPayload(app: ClientCredentials, userTenantIds: unknown): Record<string, unknown> {
  return { appName: app.appName, appVersion: app.appVersion, hostTenantId: app.hostTenant, userTenantIds };
}

/** GET /userTenants with an explicit Authorization value (`null`: none). */
export function getUserTenants(
  t: RuleContext,
  authorization: string | null,
  query: Record<string, string | number | undefined> = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  return t.send({ method: 'GET', path: '/userTenants', query, headers }, { as: null });
}

/** The host tenant's own token, from POST /oauth/token. */
export async function hostToken(t: RuleContext): Promise<string> {
  const app = application(t);
  const res = await getToken(t, identification(app, app.hostTenant));
  const tok = (res.json as { access_token?: unknown } | undefined)?.access_token;
  if (res.status !== 200 || typeof tok !== 'string') {
    t.skip(
      `no host-tenant token (POST /oauth/token answered HTTP ${res.status}); judged by tokens/host-tenant-as-user-tenant`,
    );
  }
  return `Bearer ${tok}`;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: JWTPayload & { ten?: string; scope?: string[] | string };
}

/** Decodes a compact JWT without verifying it; undefined when it is not one. */
export function decodeToken(token: unknown): DecodedJwt | undefined {
  if (typeof token !== 'string' || token.split('.').length !== 3) return undefined;
  try {
    return {
      header: decodeProtectedHeader(token),
      claims: decodeJwt<DecodedJwt['claims']>(token),
    };
  } catch {
    return undefined;
  }
}

/** The error codes of an Errors body. */
export function errorCodes(res: HttpResponse): string[] {
  const errors = (res.json as { errors?: Array<{ code?: unknown }> } | undefined)?.errors;
  return Array.isArray(errors) ? errors.map((e) => String(e?.code)) : [];
}

/**
 * A documented 400 of the token manager, spread into `refused`'s options: answered as JSON
 * ("Request and response bodies are JSON"; its Errors body is judged by the registry's
 */
export const errorsAsJson = {
  mediaType: { rule: 'technical-token-manager/transport/json', type: 'application/json' },
  codesOf: errorCodes,
} as const;

/**
 * A throttled answer the client absorbed, as the registry's response checks see it, for the
 * operation at `path` (an answer without a JSON body gives them nothing to judge).
 */
export function throttledExchange(s: { status: number; body: string; path: string }): CheckedExchange {
  let json: unknown;
  try {
    json = JSON.parse(s.body);
  } catch {
    // nothing to judge
  }
  const method = s.path.endsWith('/userTenants') ? 'GET' : 'POST';
  return { service: SERVICE, method, path: s.path, status: s.status, contentType: '', text: s.body, json };
}

/**
 * Cache-Control no-store on a token response (RFC 6749 section 5.1), spread into `headerPresent`'s
 * options for a 200: the document names RFC 6749 for the grant and says nothing of caching, so a reading.
 */
export const noStore = {
  rule: 'technical-token-manager/tokens/no-store',
  header: 'Cache-Control',
  value: /(^|,)\s*no-store\s*(,|$)/i,
  reading: 'no-store',
} as const;

/** The token the body of an answer hands out (an access_token, or a list of oauthTokens), described; none in a refusal. */
export function tokenIn(res: HttpResponse): string | undefined {
  const body = res.json as Record<string, unknown> | undefined;
  return !!body && (typeof body.access_token === 'string' || Array.isArray(body.oauthTokens)) ? 'a token' : undefined;
}

/**
 * A token manager refusal beyond its status, spread into `refused`'s options: any 4xx, no token in
 * the answer, and critical (a token handed out when it should not be).
 */
export const tokenRefusal = { anyClientError: true, severity: 'critical', withheld: tokenIn } as const;

/**
 * Whether `token` is a JWT in compact form (RFC 7519 section 3): three (JWS) or five (JWE)
 * base64url segments whose first is a JSON object (the JOSE header, readable in either form).
 */
export function isCompactJwt(token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  // not a contract bound: the segments of a JWS and a JWE
  if (![3, 5].includes(parts.length) || !parts.every((p) => /^[A-Za-z0-9_-]*$/.test(p))) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && !Array.isArray(header);
  } catch {
    return false;
  }
}

/**
 * What the AccessTokenResponse rules ask of a token of either operation (POST /oauth/token or an
 * item of POST /oauthTokens), as rows for `holds` (each judged where the test declares its rule),
 * and the rules a token gives nothing to judge by. `tenant` is the tenant the token was asked for.
 */
export function accessTokenChecks(
  body: Record<string, unknown>,
  opts: { operation: string; tenant: string; tenantRule: string; requestedAt: number },
): { holds: HoldsOptions[]; notExercised: Array<[rule: string, reason: string]> } {
  const at = `(${opts.operation})`;
  const rows: HoldsOptions[] = [];
  const notExercised: Array<[string, string]> = [];
  const row = (rule: string, ok: boolean, failure: string, expected: string, received: string, reading?: string) =>
    rows.push({
      rule,
      ok,
      failure: `${failure} ${at}`,
      expected,
      received,
      ...(reading ? { reading } : { soft: true }),
    });
  // "200: AccessTokenResponse" settles an object; that all six listed fields are always there is our reading.
  const kind = Array.isArray(body) ? 'an array' : typeof body;
  row(
    'technical-token-manager/access-token/fields',
    kind === 'object' && body !== null,
    'AccessTokenResponse is not a JSON object',
    'a JSON object',
    kind,
  );
  const missing = ['access_token', 'token_type', 'timestamp', 'expires_in', 'scope', 'jti'].filter((k) => !(k in body));
  row(
    'technical-token-manager/access-token/fields',
    missing.length === 0,
    'AccessTokenResponse without some of its six fields',
    'access_token, token_type, timestamp, expires_in, scope, jti',
    `missing ${missing.join(', ')}`,
    'all-six-fields',
  );
  const jwt = decodeToken(body.access_token);
  // "JWT bearer technical token" settles a compact JWT; that it is signed (a JWS, its claims readable)
  // rather than encrypted (a five-part JWE) is our reading.
  const compact = isCompactJwt(body.access_token);
  row(
    'technical-token-manager/access-token/access-token-jwt',
    compact,
    'access_token is not a compact JWT',
    'a JWS or JWE in compact form, base64url segments with a JSON header',
    typeof body.access_token,
  );
  if (compact)
    row(
      'technical-token-manager/access-token/access-token-jwt',
      !!jwt,
      'access_token is not a JWS with a readable claims set',
      'header.claims.signature, base64url JSON',
      `${String(body.access_token).split('.').length} segments`,
      'signed-jwt',
    );
  // A field the answer leaves out is judged by access-token/fields alone (all-six-fields).
  if ('token_type' in body)
    row(
      'technical-token-manager/access-token/token-type-bearer',
      typeof body.token_type === 'string' && body.token_type.toLowerCase() === 'bearer',
      'token_type is not bearer',
      '"bearer" (any case)',
      JSON.stringify(body.token_type),
    );
  if ('timestamp' in body)
    row(
      'technical-token-manager/access-token/timestamp-number',
      typeof body.timestamp === 'number',
      'timestamp is not a number',
      'a JSON number',
      JSON.stringify(body.timestamp),
    );
  const exp = jwt?.claims.exp;
  const iat = jwt?.claims.iat;
  const lifetime = exp !== undefined && iat !== undefined ? exp - iat : undefined;
  const expiresIn = body.expires_in as number;
  // "Seconds until the token expires, counted from issuance": a positive whole number of seconds, never
  // more than the JWT's lifetime, and not counted from a moment long after issuance (a minute's slack).
  if ('expires_in' in body)
    row(
      'technical-token-manager/access-token/expires-in-seconds',
      Number.isInteger(expiresIn) &&
        expiresIn > 0 &&
        (lifetime === undefined || (expiresIn <= lifetime && expiresIn >= lifetime - 60)),
      'expires_in does not agree with the token',
      `a positive integer of seconds${lifetime !== undefined ? `, from ${lifetime - 60} to exp - iat = ${lifetime}` : ''}`,
      JSON.stringify(expiresIn),
    );
  if (lifetime !== undefined && Number.isInteger(expiresIn))
    row(
      'technical-token-manager/access-token/expires-in-seconds',
      expiresIn === lifetime,
      'expires_in is not exactly exp - iat',
      `expires_in = exp - iat = ${lifetime}`,
      JSON.stringify(expiresIn),
      'exact-lifetime',
    );
  // "Seconds until the token expires": the JWT's exp (RFC 7519, seconds since the epoch) lies about
  // expires_in seconds after the request; a day's slack leaves room for the two clocks' difference.
  if (typeof exp === 'number' && Number.isInteger(expiresIn)) {
    const expected = Math.floor(opts.requestedAt / 1000) + expiresIn;
    row(
      'technical-token-manager/access-token/expires-in-seconds',
      Math.abs(exp - expected) <= 86_400,
      'the JWT does not expire when expires_in says',
      `exp within a day of ${expected} (request time + expires_in)`,
      `exp ${exp}`,
    );
  }
  if (lifetime === undefined && 'expires_in' in body)
    notExercised.push([
      'technical-token-manager/access-token/expires-in-seconds',
      `the JWT ${at} has no exp and iat claims to count expires_in against`,
    ]);
  const scope = body.scope;
  const names = typeof scope === 'string' ? scope.split(' ') : [];
  const claim = jwt?.claims.scope;
  const claimScopes = claim === undefined ? undefined : Array.isArray(claim) ? claim : String(claim).split(' ');
  if ('scope' in body) {
    row(
      'technical-token-manager/access-token/scope-space-separated',
      typeof scope === 'string' && (scope === '' || names.every((n) => n.length > 0)),
      'scope is not a space-separated list of scope names',
      'scope names separated by single spaces',
      JSON.stringify(scope),
    );
    // The document says nothing of the JWT's claims: that its scope claim names the same scopes is our reading.
    if (claimScopes && typeof scope === 'string')
      row(
        'technical-token-manager/access-token/scope-space-separated',
        [...claimScopes].sort().join(' ') === [...names].sort().join(' '),
        'scope does not name the scopes of the JWT scope claim',
        `"${claimScopes.join(' ')}"`,
        JSON.stringify(scope),
        'scope-claim-same',
      );
  }
  const GRANT = 'technical-token-manager/tokens/client-credentials-grant';
  const keys = Object.keys(body).join(', ');
  const issued = typeof body.access_token === 'string' && body.access_token !== '';
  row(GRANT, issued, 'no access token issued on the client credentials', 'an access_token string', keys);
  row(
    GRANT,
    !('refresh_token' in body),
    'a refresh token issued by the client credentials grant',
    'no refresh_token (RFC 6749 section 4.4.3)',
    keys,
    'no-refresh-token',
  );
  // The document names no claim for the tenant: reading ten as it is ours (ten-claim). A token
  // without ten gives a client nothing to judge its tenant by: that part is not exercised.
  const ten = jwt?.claims.ten;
  if (ten === undefined)
    notExercised.push([opts.tenantRule, `the token ${at} carries no ten claim naming the tenant it gives access to`]);
  else
    rows.push({
      rule: opts.tenantRule,
      ok: ten === opts.tenant,
      failure: `token is for another tenant ${at}`,
      expected: `ten = ${opts.tenant}`,
      received: `ten = ${String(ten)}`,
      reading: 'ten-claim',
    });
  return { holds: rows, notExercised };
}
