import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { HAR_BODY_LIMIT, HarRecorder, harEntry } from '../suites/engine/har.ts';
import { PassiveJudge, type PassiveFailure } from './judge-har.ts';

export interface ProxyOptions {
  /** Base URL of the deployment the proxy forwards to. */
  target: string;
  host?: string;
  port?: number;
  services?: readonly ServiceName[];
  /** JSON-lines file the entries are appended to (assembled into a HAR when the proxy stops). */
  linesFile: string;
  /** Called once per rule, when an exchange first makes it fail. */
  onFailure?: (f: PassiveFailure) => void;
  /**
   * Requests answered at once with `status` and `body`, never forwarded, recorded or judged
   * (`conformance proxy`: a foreign Host, a request from another site).
   */
  refuse: (req: http.IncomingMessage) => { status: number; body: string } | undefined;
}

export interface RunningProxy {
  url: string;
  judge: PassiveJudge;
  /** Exchanges forwarded so far. */
  count(): number;
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own; everything else passes unchanged.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function flatHeaders(raw: http.IncomingHttpHeaders | http.OutgoingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** Collects at most the first HAR_BODY_LIMIT bytes of a body, and its size. */
class BodyTap {
  private chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept <= HAR_BODY_LIMIT) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
  }
  text(): string {
    const t = Buffer.concat(this.chunks).toString('utf8');
    return this.size > HAR_BODY_LIMIT ? `${t.slice(0, HAR_BODY_LIMIT)}…(${this.size} bytes)` : t;
  }
}

/**
 * A reverse proxy: every request it does not refuse is forwarded to the target unchanged
 * (hop-by-hop headers aside) and its answer streamed back; each exchange is then recorded and
 * judged, after the client has its answer, so that judging adds nothing to the latency the client
 * sees.
 */
export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(opts.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 64 }); // not a contract bound: sockets of the proxy
  const recorder = new HarRecorder(opts.linesFile);
  const judge = new PassiveJudge(opts.services ?? SERVICES);
  let count = 0;

  const server = http.createServer((req, res) => {
    const refusal = opts.refuse(req);
    if (refusal) {
      res.writeHead(refusal.status, {
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
      });
      res.end(refusal.body);
      return;
    }
    const startedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers.host = target.host;
    const reqTap = new BodyTap();
    const upstream = client.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${basePath}${req.url ?? '/'}`,
        headers,
        agent,
      },
      (up) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(up.statusCode ?? 502, out);
        const resTap = new BodyTap();
        up.on('data', (c: Buffer) => {
          resTap.add(c);
          res.write(c);
        });
        up.on('end', () => {
          res.end();
          const timeMs = performance.now() - started;
          setImmediate(() =>
            record(
              req,
              reqTap,
              { status: up.statusCode ?? 0, headers: flatHeaders(up.headers), body: resTap.text() },
              startedAt,
              timeMs,
            ),
          );
        });
        up.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`conformance proxy: ${target.origin} cannot be reached (${err.message})\n`);
      } else res.destroy();
      const timeMs = performance.now() - started;
      setImmediate(() => record(req, reqTap, undefined, startedAt, timeMs, err.message));
    });
    req.on('data', (c: Buffer) => {
      reqTap.add(c);
      upstream.write(c);
    });
    req.on('end', () => upstream.end());
    req.on('error', () => upstream.destroy());
  });

  function record(
    req: http.IncomingMessage,
    body: BodyTap,
    response: { status: number; headers: Record<string, string>; body: string } | undefined,
    startedAt: number,
    timeMs: number,
    error?: string,
  ): void {
    count++;
    try {
      const entry = harEntry(
        {
          request: {
            method: req.method ?? 'GET',
            url: `${target.origin}${basePath}${req.url ?? '/'}`,
            headers: flatHeaders(req.headers),
            body: body.size ? body.text() : undefined,
          },
          response,
          error,
          curl: '',
        },
        { startedAt, timeMs },
      );
      recorder.recordEntry(entry);
      for (const f of judge.observe(entry)) opts.onFailure?.(f);
    } catch {
      // An exchange that cannot be recorded is dropped; the client already has its answer.
    }
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolveListen());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`,
    judge,
    count: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
      await new Promise((r) => setImmediate(r));
      recorder.flush();
    },
  };
}
