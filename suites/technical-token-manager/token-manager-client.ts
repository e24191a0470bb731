import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { HttpResponse } from '../engine/http-client.ts';
import { ttmErrorBody } from '../engine/checks/ttm-error-body.ts';
import { registerIssuedToken } from '../engine/redact.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import type { ClientCredentials } from '../engine/run-config.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';

export const SERVICE = 'technical-token-manager' as const;

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
  registerIssuedToken(tok);
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
 * A documented 400 is answered as JSON ("Request and response bodies are JSON"); its Errors body
 * is judged by the registry's ttm-error-body after every request.
 */
export function checkErrorJson(t: RuleContext, res: HttpResponse): void {
  if (res.status !== 400) return;
  t.verify('technical-token-manager/transport/json', res.contentType === 'application/json', {
    title: 'error answered without application/json',
    expected: 'Content-Type application/json',
    received: res.contentType || '(none)',
  });
}

/**
 * The form of every error code of an answer the test did not receive itself (a throttled answer
 * the client absorbed): the registry's ttm-error-body on its status and body, for the operation
 * at `path`. An answer without an Errors body gives nothing to judge and is passed over.
 */
export function checkErrorCodeForm(t: RuleContext, status: number, text: string, path: string): void {
  if (!t.declares('technical-token-manager/errors/code-form')) return;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return;
  }
  const method = path.endsWith('/userTenants') ? 'GET' : 'POST';
  const x = { service: SERVICE, method, path, status, contentType: '', text, json };
  // Only the code form: the body of a 400 is judged on the answers the test receives.
  const form = ttmErrorBody.check(x).filter((f) => f.rule === 'technical-token-manager/errors/code-form');
  for (const f of form)
    t.verify(f.rule, f.ok, { title: `${f.title} (a throttled ${path})`, expected: f.expected, received: f.received });
}

/**
 * A 400 with a documented code and the Errors body. With `reading` (listed with the rule in the
 * catalog) the condition sent is one our reading puts under that code: another answer is a warning,
 * and the Errors body is then judged only on a 400 (the error body the document gives the operation).
 */
export function checkRejectedWithCode(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  code: string,
  what: string,
  reading?: string,
): void {
  const ok = res.status === 400 && errorCodes(res).includes(code);
  const d = {
    title: `${what} not answered 400 ${code}`,
    expected: `HTTP 400 with error code ${code}`,
    received: `HTTP ${res.status} codes ${JSON.stringify(errorCodes(res))} ${res.text.slice(0, 200)}`,
    response: res,
  };
  // The body of a 400 first: a check that fails ends the test.
  checkErrorJson(t, res);
  if (reading === undefined) t.check(ruleId, ok, d);
  else t.reading(reading, ruleId, ok, d);
}

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
 * The AccessTokenResponse rules, judged on a token of either operation (POST /oauth/token or an
 * item of POST /oauthTokens): only the rules the calling test declares are checked. `tenant` is
 * the tenant the token was asked for; a JWT without a ten claim leaves that part unjudged.
 */
export function checkAccessTokenResponse(
  t: RuleContext,
  body: Record<string, unknown>,
  opts: { operation: string; tenant: string; tenantRule: string; requestedAt: number },
): void {
  const at = `(${opts.operation})`;
  type Details = { title: string; expected: string; received: string };
  const verify = (slug: string, ok: boolean, d: Details) => {
    if (t.declares(slug)) t.verify(slug, ok, { ...d, title: `${d.title} ${at}` });
  };
  const reading = (id: string, slug: string, ok: boolean, d: Details) => {
    if (t.declares(slug)) t.reading(id, slug, ok, { ...d, title: `${d.title} ${at}` });
  };
  // "200: AccessTokenResponse" settles an object; that all six listed fields are always there is our reading.
  verify(
    'technical-token-manager/access-token/fields',
    typeof body === 'object' && body !== null && !Array.isArray(body),
    {
      title: 'AccessTokenResponse is not a JSON object',
      expected: 'a JSON object',
      received: Array.isArray(body) ? 'an array' : typeof body,
    },
  );
  const missing = ['access_token', 'token_type', 'timestamp', 'expires_in', 'scope', 'jti'].filter((k) => !(k in body));
  reading('all-six-fields', 'technical-token-manager/access-token/fields', missing.length === 0, {
    title: 'AccessTokenResponse without some of its six fields',
    expected: 'access_token, token_type, timestamp, expires_in, scope, jti',
    received: `missing ${missing.join(', ')}`,
  });
  const jwt = decodeToken(body.access_token);
  // "JWT bearer technical token" settles a compact JWT; that it is signed (a JWS, its claims readable)
  // rather than encrypted (a five-part JWE) is our reading.
  verify('technical-token-manager/access-token/access-token-jwt', isCompactJwt(body.access_token), {
    title: 'access_token is not a compact JWT',
    expected: 'a JWS or JWE in compact form, base64url segments with a JSON header',
    received: typeof body.access_token,
  });
  if (isCompactJwt(body.access_token))
    reading('signed-jwt', 'technical-token-manager/access-token/access-token-jwt', !!jwt, {
      title: 'access_token is not a JWS with a readable claims set',
      expected: 'header.claims.signature, base64url JSON',
      received: `${String(body.access_token).split('.').length} segments`,
    });
  // A field the answer leaves out is judged by access-token/fields alone (all-six-fields).
  if ('token_type' in body)
    verify(
      'technical-token-manager/access-token/token-type-bearer',
      typeof body.token_type === 'string' && body.token_type.toLowerCase() === 'bearer',
      { title: 'token_type is not bearer', expected: '"bearer" (any case)', received: JSON.stringify(body.token_type) },
    );
  if ('timestamp' in body)
    verify('technical-token-manager/access-token/timestamp-number', typeof body.timestamp === 'number', {
      title: 'timestamp is not a number',
      expected: 'a JSON number',
      received: JSON.stringify(body.timestamp),
    });
  if (typeof body.timestamp === 'number' && t.declares('technical-token-manager/access-token/timestamp-unit')) {
    const ts = body.timestamp;
    const unit =
      Math.abs(ts - opts.requestedAt) < 600_000
        ? 'milliseconds'
        : Math.abs(ts * 1000 - opts.requestedAt) < 600_000
          ? 'seconds'
          : 'neither seconds nor milliseconds near now';
    t.observe(
      'technical-token-manager/access-token/timestamp-unit',
      `timestamp ${ts} ${at} reads as ${unit} since the Unix epoch`,
    );
  }
  const exp = jwt?.claims.exp;
  const iat = jwt?.claims.iat;
  const lifetime = exp !== undefined && iat !== undefined ? exp - iat : undefined;
  const expiresIn = body.expires_in;
  // "Seconds until the token expires, counted from issuance": a positive whole number of seconds, never
  // more than the JWT's lifetime, and not counted from a moment long after issuance (a minute's slack).
  if ('expires_in' in body)
    verify(
      'technical-token-manager/access-token/expires-in-seconds',
      Number.isInteger(expiresIn) &&
        (expiresIn as number) > 0 &&
        (lifetime === undefined || ((expiresIn as number) <= lifetime && (expiresIn as number) >= lifetime - 60)),
      {
        title: 'expires_in does not agree with the token',
        expected: `a positive integer of seconds${lifetime !== undefined ? `, from ${lifetime - 60} to exp - iat = ${lifetime}` : ''}`,
        received: JSON.stringify(expiresIn),
      },
    );
  if (lifetime !== undefined && Number.isInteger(expiresIn))
    reading('exact-lifetime', 'technical-token-manager/access-token/expires-in-seconds', expiresIn === lifetime, {
      title: 'expires_in is not exactly exp - iat',
      expected: `expires_in = exp - iat = ${lifetime}`,
      received: JSON.stringify(expiresIn),
    });
  // "Seconds until the token expires": the JWT's exp (RFC 7519, seconds since the epoch) lies about
  // expires_in seconds after the request; a day's slack leaves room for the two clocks' difference.
  if (typeof exp === 'number' && Number.isInteger(expiresIn)) {
    const expected = Math.floor(opts.requestedAt / 1000) + (expiresIn as number);
    verify('technical-token-manager/access-token/expires-in-seconds', Math.abs(exp - expected) <= 86_400, {
      title: 'the JWT does not expire when expires_in says',
      expected: `exp within a day of ${expected} (request time + expires_in)`,
      received: `exp ${exp}`,
    });
  }
  if (
    t.declares('technical-token-manager/access-token/expires-in-seconds') &&
    lifetime === undefined &&
    'expires_in' in body
  )
    t.notExercised(
      'technical-token-manager/access-token/expires-in-seconds',
      `the JWT ${at} has no exp and iat claims to count expires_in against`,
    );
  const scope = body.scope;
  const names = typeof scope === 'string' ? scope.split(' ') : [];
  const claimScopes =
    jwt?.claims.scope === undefined
      ? undefined
      : Array.isArray(jwt.claims.scope)
        ? jwt.claims.scope
        : String(jwt.claims.scope).split(' ');
  if ('scope' in body) {
    verify(
      'technical-token-manager/access-token/scope-space-separated',
      typeof scope === 'string' && (scope === '' || names.every((n) => n.length > 0)),
      {
        title: 'scope is not a space-separated list of scope names',
        expected: 'scope names separated by single spaces',
        received: JSON.stringify(scope),
      },
    );
    // The document says nothing of the JWT's claims: that its scope claim names the same scopes is our reading.
    if (claimScopes && typeof scope === 'string')
      reading(
        'scope-claim-same',
        'technical-token-manager/access-token/scope-space-separated',
        [...claimScopes].sort().join(' ') === [...names].sort().join(' '),
        {
          title: 'scope does not name the scopes of the JWT scope claim',
          expected: `"${claimScopes.join(' ')}"`,
          received: JSON.stringify(scope),
        },
      );
  }
  verify(
    'technical-token-manager/tokens/client-credentials-grant',
    typeof body.access_token === 'string' && body.access_token !== '',
    {
      title: 'no access token issued on the client credentials',
      expected: 'an access_token string',
      received: Object.keys(body).join(', '),
    },
  );
  reading('no-refresh-token', 'technical-token-manager/tokens/client-credentials-grant', !('refresh_token' in body), {
    title: 'a refresh token issued by the client credentials grant',
    expected: 'no refresh_token (RFC 6749 section 4.4.3)',
    received: Object.keys(body).join(', '),
  });
  if (!t.declares(opts.tenantRule)) return;
  // The document names no claim for the tenant: reading ten as it is ours (ten-claim). A token
  // without ten gives a client nothing to judge its tenant by: that part is not exercised.
  const ten = jwt?.claims.ten;
  if (ten === undefined) {
    t.notExercised(opts.tenantRule, `the token ${at} carries no ten claim naming the tenant it gives access to`);
    return;
  }
  t.reading('ten-claim', opts.tenantRule, ten === opts.tenant, {
    title: `token is for another tenant ${at}`,
    expected: `ten = ${opts.tenant}`,
    received: `ten = ${String(ten)}`,
  });
}

/**
 * Cache-Control no-store on a token response (RFC 6749 section 5.1). The document names RFC 6749
 * for the grant and says nothing of caching: a reading (no-store), a warning when it does not hold.
 */
export function checkNoStore(t: RuleContext, res: HttpResponse, operation: string): void {
  const rule = 'technical-token-manager/tokens/no-store';
  if (!t.declares(rule) || res.status !== 200) return;
  const cc = String(res.headers['cache-control'] ?? '');
  t.reading('no-store', rule, /(^|,)\s*no-store\s*(,|$)/i.test(cc), {
    title: `${operation}: token response without Cache-Control no-store`,
    expected: 'Cache-Control: no-store (RFC 6749 section 5.1)',
    received: cc ? `Cache-Control: ${cc}` : 'no Cache-Control header',
  });
}
