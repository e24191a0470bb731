import { describe, expect, it } from 'vitest';
import { ownHostGuard, type GuardedRequest, type OwnHostOptions } from './own-host-guard.ts';
import { UsageError } from './usage-error.ts';

const PORT = 4010;

interface Case {
  what: string;
  headers: Record<string, string>;
  url?: string;
  /** The address the connection arrived at (default 127.0.0.1). */
  local?: string;
  options?: OwnHostOptions;
  /** The refusal's status, or `served`. */
  expected: 421 | 403 | 'served';
}

const host = { host: `127.0.0.1:${PORT}` };

const CASES: Case[] = [
  // Its own host, on its port.
  { what: 'the listen address and port', headers: host, expected: 'served' },
  { what: 'localhost on its port', headers: { host: `localhost:${PORT}` }, expected: 'served' },
  { what: '[::1] on its port', headers: { host: `[::1]:${PORT}` }, local: '::1', expected: 'served' },
  { what: 'a name in capitals', headers: { host: `LocalHost:${PORT}` }, expected: 'served' },
  {
    what: 'the --host address',
    headers: { host: `192.0.2.7:${PORT}` },
    local: '192.0.2.7',
    options: { listenHost: '192.0.2.7' },
    expected: 'served',
  },
  {
    what: 'the --host name',
    headers: { host: `reference.internal:${PORT}` },
    options: { listenHost: 'reference.internal' },
    expected: 'served',
  },
  {
    what: 'the address it arrived at, listening on every interface',
    headers: { host: `10.1.2.3:${PORT}` },
    local: '::ffff:10.1.2.3',
    options: { listenHost: '0.0.0.0' },
    expected: 'served',
  },
  {
    what: 'the wildcard it listens on',
    headers: { host: `0.0.0.0:${PORT}` },
    options: { listenHost: '0.0.0.0' },
    expected: 'served',
  },
  // A Host of someone else's: a DNS-rebinding page.
  { what: 'a foreign name on its port', headers: { host: `evil.example:${PORT}` }, expected: 421 },
  { what: 'a foreign name without a port', headers: { host: 'evil.example' }, expected: 421 },
  { what: 'no Host at all', headers: {}, expected: 421 },
  { what: 'its own name on another port', headers: { host: `localhost:${PORT + 1}` }, expected: 421 },
  { what: 'its own name without a port (80)', headers: { host: 'localhost' }, expected: 421 },
  { what: 'a subdomain of localhost', headers: { host: `a.localhost:${PORT}` }, expected: 421 },
  { what: 'userinfo around its own host', headers: { host: `127.0.0.1:${PORT}@evil.example` }, expected: 421 },
  { what: 'a port beyond 65535', headers: { host: '127.0.0.1:70000' }, expected: 421 },
  {
    what: 'an absolute-form target of another host (its Host ignored, RFC 9112 §3.2.2)',
    headers: host,
    url: 'http://evil.example/api',
    expected: 421,
  },
  {
    what: 'an address it did not arrive at',
    headers: { host: `10.9.9.9:${PORT}` },
    local: '10.1.2.3',
    options: { listenHost: '0.0.0.0' },
    expected: 421,
  },
  // --allow-host.
  {
    what: 'an --allow-host name on any port',
    headers: { host: 'reference.test.svc:8080' },
    options: { allowHosts: ['Reference.test.svc'] },
    expected: 'served',
  },
  {
    what: 'an --allow-host NAME:PORT on its port',
    headers: { host: 'localhost:8080' },
    options: { allowHosts: ['localhost:8080'] },
    expected: 'served',
  },
  {
    what: 'an --allow-host NAME:PORT on another port',
    headers: { host: 'localhost:8081' },
    options: { allowHosts: ['localhost:8080'] },
    expected: 421,
  },
  {
    what: 'a bare IPv6 --allow-host',
    headers: { host: '[fd00::5]:8080' },
    options: { allowHosts: ['fd00::5'] },
    expected: 'served',
  },
  // Origin: a page's requests.
  { what: 'its own origin', headers: { ...host, origin: `http://127.0.0.1:${PORT}` }, expected: 'served' },
  {
    what: 'a cross-site form POST',
    headers: { ...host, origin: 'http://evil.example', 'content-type': 'text/plain' },
    expected: 403,
  },
  { what: 'the opaque origin null', headers: { ...host, origin: 'null' }, expected: 403 },
  { what: 'its own name on another port', headers: { ...host, origin: 'http://localhost:5173' }, expected: 403 },
  {
    what: 'an --allow-host name as the origin',
    headers: { host: 'conformance.example', origin: 'https://conformance.example' },
    options: { allowHosts: ['conformance.example'] },
    expected: 'served',
  },
  {
    what: 'an --allow-origin origin from another site',
    headers: { ...host, origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' },
    options: { allowOrigins: ['http://localhost:5173/'] },
    expected: 'served',
  },
  // Sec-Fetch-Site: the browser's word.
  { what: 'Sec-Fetch-Site: cross-site', headers: { ...host, 'sec-fetch-site': 'cross-site' }, expected: 403 },
  { what: 'Sec-Fetch-Site: same-site', headers: { ...host, 'sec-fetch-site': 'same-site' }, expected: 403 },
  {
    what: 'Sec-Fetch-Site: cross-site with its own Origin',
    headers: { ...host, origin: `http://localhost:${PORT}`, 'sec-fetch-site': 'cross-site' },
    expected: 403,
  },
  { what: 'Sec-Fetch-Site: same-origin', headers: { ...host, 'sec-fetch-site': 'same-origin' }, expected: 'served' },
  { what: 'Sec-Fetch-Site: none (typed in)', headers: { ...host, 'sec-fetch-site': 'none' }, expected: 'served' },
];

function request(c: Pick<Case, 'headers' | 'url' | 'local'>): GuardedRequest {
  return {
    method: 'POST',
    url: c.url ?? '/api/eventmanagement/v3/events',
    headers: c.headers,
    socket: { localAddress: c.local ?? '127.0.0.1', localPort: PORT },
  };
}

describe('ownHostGuard', () => {
  it.each(CASES)('$what: $expected', (c) => {
    const refusal = ownHostGuard(c.options)(request(c));
    expect(refusal?.status ?? 'served').toBe(c.expected);
  });

  it('answers with a body that repeats nothing of the request, and logs what it refused, neutralised', () => {
    const lines: string[] = [];
    const guard = ownHostGuard({ report: (l) => lines.push(l) });
    const refusal = guard(request({ headers: { host: 'evil\u001b[2J.example' } }));
    expect(refusal?.body).not.toMatch(/evil/);
    expect(lines).toEqual([
      'refused POST to Host "evil\\x1b[2J.example", not this server\'s (--allow-host NAME would accept it)',
    ]);
  });

  it('reports each distinct refusal once, and at most 20 of them', () => {
    const lines: string[] = [];
    const guard = ownHostGuard({ report: (l) => lines.push(l) });
    for (let i = 0; i < 30; i++) for (let k = 0; k < 2; k++) guard(request({ headers: { host: `h${i}.example` } }));
    expect(lines).toHaveLength(21);
    expect(new Set(lines).size).toBe(21);
    expect(lines.at(-1)).toBe('refused more requests; further refusals are not shown');
  });

  it.each([
    ['--allow-host', { allowHosts: ['http://reference.internal'] }],
    ['--allow-host', { allowHosts: ['localhost:'] }],
    ['--allow-host', { allowHosts: ['localhost:99999'] }],
    ['--allow-origin', { allowOrigins: ['localhost:5173'] }],
    ['--allow-origin', { allowOrigins: ['http://localhost:5173/app'] }],
  ] as const)('refuses a malformed %s value at start: %j', (flag, options) => {
    expect(() => ownHostGuard(options)).toThrow(UsageError);
    expect(() => ownHostGuard(options)).toThrow(flag);
  });
});
