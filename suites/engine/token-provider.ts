import { SERVICE_INFO } from '../../contracts/services.ts';
import { noteCredentialSource } from './curl.ts';
import type { Exchange, HttpClient } from './http-client.ts';
import { registerCredentials, registerIssuedToken, registerSecret } from './redact.ts';
import { MAX_SECRET_LENGTH } from './secret-matcher.ts';
import { configuredPrincipals, type ClientCredentials, type PrincipalConfig, type RunConfig } from './run-config.ts';
import { TokenError } from './token-error.ts';
import { PrincipalUnavailable } from './unjudged.ts';

/** Names of the principals a suite may act as. */
export type PrincipalName = 'full' | 'noScopes' | 'otherTenant' | 'operator' | 'throttled' | `without:${string}`;

const RENEW_BEFORE_MS = 60_000;

/**
 * Base64 of `clientId:clientSecret`, the documented X-SPACE-AUTH-KEY form. What it encodes is
 * registered for redaction first: a key built from a secret (a deliberately wrong one too) gives
 * the secret back to whoever decodes an echo of it.
 */
export function spaceAuthKey(c: Pick<ClientCredentials, 'clientId' | 'clientSecret'>): string {
  registerCredentials(c.clientId, c.clientSecret);
  return `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
}

/** The token endpoint's refusal of a principal's credentials, and what it most likely means, by its status. */
export function tokenRefusal(e: TokenError): string {
  if (e.status === 200) return `${e.message}: is the target the deployment?`;
  const refused = `the token endpoint refused the credentials (HTTP ${e.status})`;
  if (e.status === 401 || e.status === 403) return `${refused}: wrong client ID or secret?`;
  // The tool cannot tell a slip from a token manager that refuses a valid request: it names both.
  const orDefect = ' (or the token manager refuses a valid request: nothing is judged without a token)';
  if (e.status === 400) return `${refused}: wrong appName, appVersion or hostTenant?${orDefect}`;
  return `${refused}: is the target the deployment's host (no path), and its token manager up?${orDefect}`;
}

/** Whether a value is one of the configuration's client secrets. */
export function isClientSecret(config: RunConfig, value: string): boolean {
  return configuredPrincipals(config).some(([, p]) => 'clientSecret' in p && p.clientSecret === value);
}

/**
 * Registers every client secret (with its X-SPACE-AUTH-KEY in each base64 form) and static token
 * of a configuration for redaction.
 */
export function registerConfigSecrets(config: RunConfig): void {
  for (const [, p] of configuredPrincipals(config)) {
    if ('token' in p) registerSecret(p.token);
    else registerCredentials(p.clientId, p.clientSecret);
  }
}

/**
 * Obtains bearer tokens for the configured principals from the deployment's token manager,
 * caches them and renews them before they expire; static tokens from the configuration are
 * used as they are.
 */
export class TokenProvider {
  private readonly cache = new Map<string, { header: string; renewAt: number }>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(
    private readonly client: HttpClient,
    private readonly config: RunConfig,
  ) {
    registerConfigSecrets(config);
    // The keys (and static tokens) `conformance token` prints per principal, for the curls that send them.
    for (const name of this.names()) {
      const p = this.principal(name)!;
      if ('token' in p) noteCredentialSource(`Bearer ${p.token}`, { principal: name, kind: 'token' });
      else noteCredentialSource(spaceAuthKey(p), { principal: name, kind: 'key' });
    }
  }

  /** The names of the principals the configuration has, the main one first. */
  private names(): PrincipalName[] {
    const named: PrincipalName[] = ['full', 'noScopes', 'otherTenant', 'operator', 'throttled'];
    const without = Object.keys(this.config.principals?.withoutScope ?? {}).map((s) => `without:${s}` as const);
    return [...named, ...without].filter((n) => this.has(n));
  }

  /** The configuration of a principal, or undefined when the run has none. */
  principal(name: PrincipalName): PrincipalConfig | undefined {
    const p = this.config.principals ?? {};
    if (name === 'full') return p.full ?? this.config.tokenManager;
    if (name === 'noScopes') return p.noScopes;
    if (name === 'otherTenant') return p.otherTenant;
    if (name === 'operator') return p.operator;
    if (name === 'throttled') return p.throttled;
    return p.withoutScope?.[name.slice('without:'.length)];
  }

  has(name: PrincipalName): boolean {
    return !!this.principal(name);
  }

  /** The configuration key of a principal (`principals.noScopes`, `principals.withoutScope["em.c"]`, `tokenManager`). */
  configKey(name: PrincipalName): string {
    if (name === 'full') return this.config.principals?.full ? 'principals.full' : 'tokenManager';
    if (name.startsWith('without:')) return `principals.withoutScope["${name.slice('without:'.length)}"]`;
    return `principals.${name}`;
  }

  /**
   * The `Authorization` header value for a principal (optionally for another user tenant).
   * Throws PrincipalUnavailable when the principal is not configured or the token endpoint gives
   * no token for it (any answer but a 200 with an access_token): the tests acting as it cannot
   * judge their rules, which are not the token manager's; its own rules judge the token endpoint
   * with requests of their own.
   */
  async authorization(name: PrincipalName, userTenant?: string): Promise<string> {
    const p = this.principal(name);
    if (!p) throw new PrincipalUnavailable(this.configKey(name), `${this.configKey(name)} is not configured`);
    if ('token' in p) return `Bearer ${p.token}`;
    const tenant = userTenant ?? p.userTenant ?? p.hostTenant;
    const key = `${name}|${tenant}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() < hit.renewAt) return hit.header;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchToken(p, tenant)
        .catch((e: unknown) => {
          if (!(e instanceof TokenError)) throw e;
          const forTenant =
            userTenant !== undefined && userTenant !== p.hostTenant ? ` for user tenant ${userTenant}` : '';
          throw new PrincipalUnavailable(
            this.configKey(name),
            forTenant
              ? `no token${forTenant}: the token endpoint refused the credentials of client ${p.clientId} (HTTP ${e.status}): is the application provisioned for it?`
              : `no token: ${tokenRefusal(e)} (client ${p.clientId})`,
            e,
          );
        })
        .then(({ header, lifetimeMs }) => {
          this.cache.set(key, { header, renewAt: Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2) });
          // `conformance token --principal NAME` gets such a token; one of another user tenant it does not.
          if (tenant === (p.userTenant ?? p.hostTenant))
            noteCredentialSource(header, { principal: name, kind: 'token' });
          return header;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fetchToken(c: ClientCredentials, userTenant: string): Promise<{ header: string; lifetimeMs: number }> {
    let exchange: Exchange | undefined;
    const res = await this.client.send(
      {
        method: 'POST',
        path: `${SERVICE_INFO['technical-token-manager'].basePath}/oauth/token`,
        headers: { 'X-SPACE-AUTH-KEY': spaceAuthKey(c) },
        json: { appName: c.appName, appVersion: c.appVersion, hostTenant: c.hostTenant, userTenant },
      },
      (e) => (exchange = e),
    );
    if (res.status !== 200) {
      throw new TokenError(`token endpoint answered ${res.status} for client ${c.clientId}`, res.status, exchange);
    }
    const body = res.json as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!body || typeof body.access_token !== 'string' || !body.access_token) {
      throw new TokenError(
        `token endpoint answered 200 without an access_token (${res.jsonError ?? 'no token field'})`,
        200,
        exchange,
      );
    }
    // A token longer than any secret kept whole is refused: every request and record would carry it.
    if (body.access_token.length > MAX_SECRET_LENGTH)
      throw new TokenError(
        `token endpoint answered 200 with an access_token of ${body.access_token.length} characters, more than ${MAX_SECRET_LENGTH} taken`,
        200,
        exchange,
      );
    registerIssuedToken(body.access_token);
    const lifetimeMs = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 300_000;
    return { header: `Bearer ${body.access_token}`, lifetimeMs };
  }

  /** The tenant the suites work in. */
  homeTenant(): string | undefined {
    const full = this.principal('full');
    return full && !('token' in full) ? (full.userTenant ?? full.hostTenant) : undefined;
  }
}
