import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { HttpResponse } from '../engine/http-client.ts';
import { registerSecret } from '../engine/redact.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import type { ClientCredentials } from '../engine/run-config.ts';
import { spaceAuthKey } from '../engine/token-provider.ts';

export const SERVICE = 'technical-token-manager' as const;
export const R = (slug: string) => `${SERVICE}/${slug}`;

/** The fully granted application of the run, or a skip when the run has only static tokens. */
export function application(t: RuleContext): ClientCredentials & { userTenants?: string[] } {
  const tm = t.session.context.config.tokenManager;
  if (!tm) t.skip('the run configuration has no tokenManager credentials');
  return tm;
}

/** User tenants provisioned to the application, from the configuration (at least `n`), or a skip. */
export function userTenants(t: RuleContext, n: number): string[] {
  const list = (application(t).userTenants ?? []).filter((u) => u !== application(t).hostTenant);
  if (list.length < n)
    t.skip(`needs ${n} provisioned user tenants in tokenManager.userTenants; the configuration lists ${list.length}`);
  return list.slice(0, n);
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
  registerSecret(tok);
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
 * The documented Errors body of a 400: application/json, `errors[]` of code, logref and
 * message strings, each code of the form platform.core.<area>.<name>.
 */
export function checkErrorBody(t: RuleContext, res: HttpResponse): void {
  t.verify(R('transport/json'), res.contentType === 'application/json', {
    title: 'error answered without application/json',
    expected: 'Content-Type application/json',
    received: res.contentType || '(none)',
  });
  const errors = (res.json as { errors?: unknown } | undefined)?.errors;
  const items = Array.isArray(errors) ? (errors as Array<Record<string, unknown>>) : [];
  const shapeOk =
    items.length > 0 && items.every((e) => e && ['code', 'logref', 'message'].every((k) => typeof e[k] === 'string'));
  t.verify(R('errors/body-shape'), shapeOk, {
    title: 'error body is not the documented Errors body',
    expected: '{"errors":[{"code":string,"logref":string,"message":string}, …]}',
    received: res.text.slice(0, 300) || '(empty body)',
  });
  if (!shapeOk) return;
  const badCode = items.find((e) => !/^platform\.core\.[^.\s]+\.[^.\s]+$/.test(String(e.code)));
  t.verify(R('errors/code-form'), !badCode, {
    title: 'error code not of the form platform.core.<area>.<name>',
    expected: 'platform.core.<area>.<name>',
    received: String(badCode?.code),
  });
  t.verify(
    R('errors/logref'),
    items.every((e) => String(e.logref).trim() !== ''),
    {
      title: 'empty logref',
      expected: 'a non-empty logref',
      received: JSON.stringify(items.map((e) => e.logref)),
    },
  );
}

/** A 400 with a documented code and the Errors body. */
export function checkRejectedWithCode(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  code: string,
  what: string,
): void {
  t.check(ruleId, res.status === 400 && errorCodes(res).includes(code), {
    title: `${what} not answered 400 ${code}`,
    expected: `HTTP 400 with error code ${code}`,
    received: `HTTP ${res.status} codes ${JSON.stringify(errorCodes(res))} ${res.text.slice(0, 200)}`,
  });
  checkErrorBody(t, res);
}

/** A refusal: a 4xx status and no access token in the body. */
export function checkRefused(t: RuleContext, ruleId: string, res: HttpResponse, what: string): void {
  const body = res.json as Record<string, unknown> | undefined;
  const leaked = !!body && (typeof body.access_token === 'string' || Array.isArray(body.oauthTokens));
  t.check(ruleId, res.status >= 400 && res.status < 500 && !leaked, {
    title: `${what} was not refused`,
    severity: 'critical',
    expected: 'a 4xx status and no token',
    received: `HTTP ${res.status}${leaked ? ' with a token' : ''} ${res.text.slice(0, 160)}`,
  });
}
