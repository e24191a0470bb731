import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every way a broken deployment can answer, taken in turn by the hostile target. */
export const HOSTILE_BEHAVIOURS = [
  'truncated-json',
  'html-error',
  'wrong-content-type',
  'huge-body',
  'reset',
  'redirect',
  'stall',
  'empty-200',
] as const;

export interface HostileTarget {
  url: string;
  counts: Record<string, number>;
  close(): Promise<void>;
}

const FAKE_JWT = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"ten":"x"}').toString('base64url')}.`;

/**
 * A deployment that answers every request badly, in turn, except that its token endpoint
 * hands out a token (so that the run gets past authentication and meets the rest). Its stalls
 * last for ever, or `stallMs`.
 */
/**
 * A run configuration against the hostile target: only the token manager's application, whose
 * secret `secret` the outputs are searched for.
 */
export function hostileRunConfig(target: HostileTarget, secret: string): string {
  return JSON.stringify({
    target: target.url,
    tokenManager: {
      clientId: 'c',
      clientSecret: secret,
      appName: 'a',
      appVersion: '1',
      hostTenant: 'h',
      userTenants: ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'],
    },
  });
}

export async function startHostileTarget(opts: { stallMs?: number } = {}): Promise<HostileTarget> {
  let n = 0;
  const counts: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.url?.includes('/oauth/token') && n++ % 4 !== 3) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          access_token: FAKE_JWT,
          token_type: 'bearer',
          expires_in: 3600,
          scope: '',
          jti: 'x',
          timestamp: Date.now(),
        }),
      );
      return;
    }
    const behaviour = HOSTILE_BEHAVIOURS[n++ % HOSTILE_BEHAVIOURS.length];
    counts[behaviour] = (counts[behaviour] ?? 0) + 1;
    switch (behaviour) {
      case 'truncated-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"errors":[{"code":"platform.core');
        return;
      case 'html-error':
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'wrong-content-type':
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('bad request');
        return;
      case 'huge-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`[${'"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",'.repeat(100_000)}"x"]`);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'redirect':
        res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
        res.end();
        return;
      case 'stall':
        // Never answers, or answers (too late) after `stallMs`.
        if (opts.stallMs !== undefined)
          setTimeout(() => {
            if (res.destroyed) return;
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end('{}');
          }, opts.stallMs).unref();
        return;
      default:
        res.writeHead(200);
        res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
