import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar } from '../audit/read-har.ts';
import { startCli, type CliServer } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request with exactly these headers (Host included), as a browser page could make it. */
function send(url: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** What a browser page can be made to send to a server on this machine; each must be refused. */
const BROWSER_MADE: Array<{ what: string; status: number; headers: (port: number) => Record<string, string> }> = [
  {
    what: 'a DNS-rebinding page (Host evil.example on its port)',
    status: 421,
    headers: (port) => ({ host: `evil.example:${port}`, 'content-type': 'text/plain' }),
  },
  {
    what: 'a cross-site form POST (Origin of another site, text/plain, no preflight)',
    status: 403,
    headers: (port) => ({ host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'content-type': 'text/plain' }),
  },
  {
    what: 'a cross-site request without Origin (Sec-Fetch-Site: cross-site)',
    status: 403,
    headers: (port) => ({ host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }),
  },
];

const EVENTS = '/api/eventmanagement/v3/events';

describe('conformance serve answers only its own host, from no other site', () => {
  let serve: CliServer;
  beforeAll(async () => {
    serve = await startCli(['serve', '--port', '0', '--allow-host', 'reference.test'], /listening on (http:\/\/\S+)/);
  }, 70_000);
  afterAll(() => serve?.stop());

  it.each(BROWSER_MADE)('refuses $what with $status, before the reference sees it', async ({ status, headers }) => {
    const res = await send(serve.url, EVENTS, { method: 'POST', headers: headers(serve.port), body: '{"x":1}' });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^(Misdirected Request|Forbidden): /);
  });

  it.each([
    ['127.0.0.1 on its port', (port: number) => `127.0.0.1:${port}`],
    ['localhost on its port', (port: number) => `localhost:${port}`],
    ['an --allow-host name, on a port it was forwarded from', () => 'reference.test:8080'],
  ])('serves %s: the reference answers', async (_, hostOf) => {
    const res = await send(serve.url, EVENTS, { headers: { host: hostOf(serve.port) } });
    // The reference's own answer to a request without a token.
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/(vnd\.error\+)?json/);
  });

  it('says on its console what it refused, each once, and what would accept it', async () => {
    const { stderr } = await serve.stop();
    expect(stderr.split('\n').filter((l) => l.includes('refused'))).toEqual([
      expect.stringMatching(
        /^conformance serve: refused POST to Host "evil\.example:\d+", not this server's \(--allow-host evil\.example would accept it\)$/,
      ),
      'conformance serve: refused POST from Origin "http://evil.example", another site (--allow-origin would accept it)',
      'conformance serve: refused POST with Sec-Fetch-Site: cross-site, from another site',
    ]);
  });
});

describe('conformance proxy forwards, records and judges only what is addressed to it', () => {
  let upstream: Server;
  let proxy: CliServer;
  let target = '';
  const seen: Array<{ method?: string; url?: string; host?: string }> = [];
  const reportDir = join(tempDir('own-host-proxy'), 'report');
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, host: req.headers.host });
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    proxy = await startCli(
      ['proxy', '--target', target, '--listen', '0', '--allow-host', 'proxy.test', '--report-dir', reportDir],
      /conformance proxy: (http:\/\/\S+)/,
    );
  }, 70_000);
  afterAll(async () => {
    await proxy?.stop();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it.each(BROWSER_MADE)('refuses $what with $status, and the target sees nothing', async ({ status, headers }) => {
    const res = await send(proxy.url, `${EVENTS}?refused=1`, {
      method: 'POST',
      headers: headers(proxy.port),
      body: '{"x":1}',
    });
    expect(res.status).toBe(status);
    expect(res.body).toMatch(/^(Misdirected Request|Forbidden): /);
    expect(seen).toEqual([]);
  });

  it('forwards the loopback and --allow-host requests, and the HAR holds those only', async () => {
    expect((await send(proxy.url, `${EVENTS}?n=1`, { headers: { host: `127.0.0.1:${proxy.port}` } })).status).toBe(200);
    expect((await send(proxy.url, `${EVENTS}?n=2`, { headers: { host: 'proxy.test:443' } })).status).toBe(200);
    // Forwarded with the target's Host, as every request the proxy forwards.
    const { host } = new URL(target);
    expect(seen).toEqual([
      { method: 'GET', url: `${EVENTS}?n=1`, host },
      { method: 'GET', url: `${EVENTS}?n=2`, host },
    ]);
    const { code, stdout } = await proxy.stop();
    expect(stdout).toMatch(/SIGTERM: 2 exchanges recorded/);
    // A verdict on the stand-in target's answers (0 or 1), not a crash.
    expect([0, 1]).toContain(code);
    const har = readHar(join(reportDir, 'exchanges.har'));
    expect(har.log.entries.map((e) => new URL(e.request.url).search)).toEqual(['?n=1', '?n=2']);
    expect(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')).not.toMatch(/refused=1/);
  });
});
