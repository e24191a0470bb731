import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientCredentials, RunConfig } from '../suites/engine/run-config.ts';
import { contractScopes } from '../contracts/contract.ts';

/**
 * Deployments that attack the credentials of whoever runs the suite against them, and the
 * configurations such a run uses (each client with a secret of its own, which the outputs are
 * searched for).
 */

export type AttackMode =
  /** Tokens of 40 and 64 KiB in every JSON answer, and words of the report handed out as tokens. */
  | 'huge-tokens'
  /** Every request answered 429 with `Retry-After: 999999`. */
  | 'throttle-forever'
  /**
   * Tokens handed out, reads answered 404 at once, every other request 429 with `Retry-After:
   * 999999`: the run gets through its start to its tests, which then wait.
   */
  | 'throttle-writes'
  /** The request's X-SPACE-AUTH-KEY and Authorization echoed in every answer (a 401 for the token operations). */
  | 'echo-keys';

export interface AttackTarget {
  url: string;
  /** Requests received, and those that carried an X-SPACE-AUTH-KEY or an Authorization header. */
  requests: number;
  credentialed: number;
  /** Every X-SPACE-AUTH-KEY received. */
  keys: string[];
  close(): Promise<void>;
}

const b64url = (n: number) =>
  randomBytes(Math.ceil((n * 3) / 4))
    .toString('base64url')
    .slice(0, n);

function credentialed(h: IncomingHttpHeaders): boolean {
  return h['x-space-auth-key'] !== undefined || h.authorization !== undefined;
}

/** Starts an attacking deployment on a free loopback port. */
export async function startAttackTarget(mode: AttackMode): Promise<AttackTarget> {
  const state = { requests: 0, credentialed: 0, keys: [] as string[] };
  const firstKeys: Record<string, string> = {};
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests++;
      if (credentialed(req.headers)) state.credentialed++;
      const key = req.headers['x-space-auth-key'];
      if (typeof key === 'string') state.keys.push(key);
      const tokenOperation = req.method === 'POST' && /\/oauth(Tokens|\/token)$/.test(req.url ?? '');
      if (mode === 'throttle-writes' && req.method === 'GET') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"errors":[{"code":"platform.core.notFound","message":"no"}]}');
        return;
      }
      if (mode === 'throttle-forever' || (mode === 'throttle-writes' && !tokenOperation)) {
        res.writeHead(429, { 'retry-after': '999999', 'content-type': 'application/json' });
        res.end('{"errors":[{"code":"platform.core.tooManyRequests","message":"slow down"}]}');
        return;
      }
      if (mode === 'throttle-writes') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `eyJ${b64url(200)}`, token_type: 'bearer', expires_in: 3600 }));
        return;
      }
      if (mode === 'echo-keys') {
        // The first key of a client is taken for its right one: other keys of it are refused (401).
        const id =
          typeof key === 'string'
            ? Buffer.from(key.replace(/^Basic\s+/i, ''), 'base64')
                .toString()
                .split(':')[0]
            : '';
        const right = (firstKeys[id] ??= String(key)) === key;
        const echo = { key: req.headers['x-space-auth-key'], authorization: req.headers.authorization };
        if (tokenOperation && right) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: `eyJ${b64url(200)}`, token_type: 'bearer', expires_in: 3600 }));
          return;
        }
        res.writeHead(tokenOperation ? 401 : 200, {
          'content-type': 'application/json',
          'x-echo': JSON.stringify(echo),
        });
        res.end(JSON.stringify({ errors: [{ code: 'platform.core.unauthorized', message: JSON.stringify(echo) }] }));
        return;
      }
      // huge-tokens: a token of 40 KiB from the token operations, three of 64 KiB in every other
      // JSON answer, and the report's own words handed out as tokens.
      const token = {
        access_token: `eyJ${b64url(40 * 1024)}`,
        token_type: 'bearer',
        expires_in: 3600,
        id_token: 'event-management',
        refresh_token: 'startedAt',
      };
      const body = req.url?.endsWith('/oauthTokens')
        ? {
            oauthTokens: [
              { userTenantId: 'u1', token },
              { userTenantId: 'u2', token: { ...token, access_token: b64url(64 * 1024) } },
            ],
          }
        : tokenOperation
          ? token
          : {
              id_token: b64url(64 * 1024),
              access_token: b64url(64 * 1024),
              refresh_token: b64url(64 * 1024),
              items: [],
              page: { number: 0, size: 20, totalElements: 0, totalPages: 0 },
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get credentialed() {
      return state.credentialed;
    },
    get keys() {
      return state.keys;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function client(id: string): ClientCredentials {
  return {
    clientId: `client-${id}`,
    clientSecret: `S3cret-${id}-${randomBytes(12).toString('hex')}`,
    appName: 'app',
    appVersion: '1.0.0',
    hostTenant: 'hosttenant',
  };
}

/** A configuration of `principals` clients (the token manager's application, then the rest), each with its own secret. */
export function attackRunConfig(target: string, principals = 20): RunConfig {
  // Per scope of the contracts (the configuration's schema takes no other key): up to 15 more principals.
  const withoutScope: Record<string, ClientCredentials> = {};
  for (const [i, scope] of [...contractScopes().keys()].slice(0, Math.max(0, principals - 5)).entries())
    withoutScope[scope] = client(`without-${i}`);
  return {
    target,
    tokenManager: { ...client('full'), userTenants: ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'] },
    principals: {
      noScopes: client('noscopes'),
      otherTenant: client('other'),
      operator: client('operator'),
      throttled: client('throttled'),
      withoutScope,
    },
  };
}

/** Every client secret of a configuration and its `clientId:clientSecret` in each base64 form. */
export function secretsOf(config: RunConfig): Array<{ kind: string; value: string }> {
  const p = config.principals ?? {};
  const clients = [
    config.tokenManager,
    p.noScopes,
    p.otherTenant,
    p.operator,
    p.throttled,
    ...Object.values(p.withoutScope ?? {}),
  ].filter((c): c is ClientCredentials => !!c && 'clientSecret' in c);
  return clients.flatMap((c) => {
    const pair = Buffer.from(`${c.clientId}:${c.clientSecret}`);
    return [
      { kind: 'client secret', value: c.clientSecret },
      { kind: 'base64 key', value: pair.toString('base64').replace(/=+$/, '') },
      { kind: 'base64url key', value: pair.toString('base64url') },
    ];
  });
}

/**
 * The secrets of `config` found in `text`, also inside base64 (a key built from a secret, a wrong
 * one included, gives it back to whoever decodes it).
 */
export function leakedSecrets(text: string, config: RunConfig): string[] {
  const found = new Set<string>();
  const secrets = secretsOf(config);
  const decoded = [...text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)].map((m) =>
    Buffer.from(m[0].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'),
  );
  for (const { kind, value } of secrets) {
    if (text.includes(value)) found.add(kind);
    if (kind === 'client secret' && decoded.some((d) => d.includes(value))) found.add('client secret inside base64');
  }
  return [...found];
}
