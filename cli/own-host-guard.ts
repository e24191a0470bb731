import type { IncomingMessage } from 'node:http';
import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { UsageError } from './usage-error.ts';

/** A refused request: the status and plain-text body it is answered with, and a line for the console. */
export interface Refusal {
  status: 403 | 421;
  /** The answer's body; it repeats nothing the request sent. */
  body: string;
  /** What was refused and what would accept it, the request's own values neutralised for a terminal. */
  log: string;
}

/** What the servers pass: the request's headers and target, and the socket it arrived on. */
export type GuardedRequest = Pick<IncomingMessage, 'headers' | 'method' | 'url'> & {
  socket: { localAddress?: string; localPort?: number };
};

export interface OwnHostOptions {
  /** The address the server listens on (`--host`): a name it answers to, with its port. */
  listenHost?: string;
  /** `--allow-host`: NAME (on any port: a published or forwarded one) or NAME:PORT. */
  allowHosts?: readonly string[];
  /** `--allow-origin`: origins whose requests are served although they come from another site. */
  allowOrigins?: readonly string[];
  /** Where refusals are reported, each distinct one once (and at most MAX_REPORTED of them). */
  report?: (line: string) => void;
}

/** Names every server of ours answers to, on the port it listens on. */
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const MAX_REPORTED = 20;

// RFC 9110 §7.2 Host = uri-host [ ":" port ]; a reg-name as browsers send it (lower-case, IDNA
// already applied) or a bracketed IPv6 literal. Anything else is not a host of ours.
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d{0,5}))?$/i;
// RFC 6454 §7: serialized-origin = scheme "://" host [ ":" port ] (or "null", which is no host).
const ORIGIN = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d{1,5}))?$/i;
const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443 };

interface HostPort {
  name: string;
  port: number;
}

/** `::1` → `[::1]`, `::ffff:10.0.0.5` → `10.0.0.5`, names lower-case: as a Host header writes an address. */
function hostName(address: string): string {
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return a.includes(':') && !a.startsWith('[') ? `[${a}]` : a;
}

function parseHostPort(value: string, defaultPort: number): HostPort | undefined {
  const m = HOST_PORT.exec(value);
  if (!m) return undefined;
  const port = m[2] ? Number(m[2]) : defaultPort;
  return port <= 65535 ? { name: hostName(m[1]), port } : undefined;
}

/** The authority a request is addressed to: its absolute-form target's (RFC 9112 §3.2.2), else its Host. */
function authorityOf(req: GuardedRequest): string | undefined {
  const absolute = /^https?:\/\/([^/?#]*)/i.exec(req.url ?? '');
  return absolute ? absolute[1] : req.headers.host;
}

function parseAllowedHost(value: string): { name: string; port?: number } {
  // A bare IPv6 address (::1, fd00::5) has no port; one with a port is bracketed, as in a Host.
  if (value.split(':').length > 2 && !value.startsWith('[')) return { name: hostName(value) };
  const m = HOST_PORT.exec(value);
  const port = m?.[2] === undefined ? undefined : Number(m[2]);
  if (!m || m[2] === '' || (port !== undefined && port > 65535))
    throw new UsageError(
      `--allow-host takes a host name or address, with :PORT for that port only (e.g. conformance.internal or localhost:8080), not "${t(value)}"`,
    );
  return { name: hostName(m[1]), port };
}

/** An origin as a browser serializes it in `Origin` (lower-case, no default port). */
function parseAllowedOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  )
    throw new UsageError(
      `--allow-origin takes an origin, scheme://host[:port] (e.g. http://localhost:5173), not "${t(value)}"`,
    );
  return url.origin;
}

/**
 * Refuses what a browser can be made to send to a server on this machine, as development servers
 * do against DNS rebinding: a request addressed to a Host that is not the server's own (a page of
 * evil.example whose name now resolves to 127.0.0.1), and a request from another site (a
 * cross-site form POST, which needs no preflight). Its own Host is 127.0.0.1, localhost, [::1],
 * its listen address or the address the request arrived at, on the port it arrived at, or a name
 * given in `allowHosts`. A request is from another site when its `Origin` is not one of those
 * hosts or its `Sec-Fetch-Site` says so, unless its `Origin` is one of `allowOrigins`; one with
 * neither header (curl, SDKs, the suites) is not.
 */
export function ownHostGuard(options: OwnHostOptions = {}): (req: GuardedRequest) => Refusal | undefined {
  const own = [...LOOPBACK, ...(options.listenHost ? [hostName(options.listenHost)] : [])];
  const allowed = (options.allowHosts ?? []).map(parseAllowedHost);
  const allowedOrigins = new Set((options.allowOrigins ?? []).map(parseAllowedOrigin));
  const reported = new Set<string>();

  const ours = (h: HostPort, req: GuardedRequest): boolean =>
    ((own.includes(h.name) || (!!req.socket.localAddress && h.name === hostName(req.socket.localAddress))) &&
      h.port === req.socket.localPort) ||
    allowed.some((a) => a.name === h.name && (a.port === undefined || a.port === h.port));

  const refuse = (refusal: Refusal): Refusal => {
    if (options.report && !reported.has(refusal.log) && reported.size <= MAX_REPORTED) {
      reported.add(refusal.log);
      options.report(
        reported.size > MAX_REPORTED ? 'refused more requests; further refusals are not shown' : refusal.log,
      );
    }
    return refusal;
  };

  return (req) => {
    const method = t(req.method ?? 'a request');
    const authority = authorityOf(req);
    const host = authority === undefined ? undefined : parseHostPort(authority, 80);
    if (!host || !ours(host, req))
      return refuse({
        status: 421,
        body: 'Misdirected Request: this server answers only to its own host name (127.0.0.1, localhost or [::1] on its port, its listen address, or a name given with --allow-host).\n',
        log:
          authority === undefined
            ? `refused ${method} without a Host header`
            : `refused ${method} to Host "${t(authority)}", not this server's (--allow-host ${host ? t(host.name) : 'NAME'} would accept it)`,
      });
    const origin = req.headers.origin;
    if (origin !== undefined && allowedOrigins.has(origin.toLowerCase())) return undefined;
    if (origin !== undefined) {
      const m = ORIGIN.exec(origin);
      const from = m ? parseHostPort(m[3] ? `${m[2]}:${m[3]}` : m[2], DEFAULT_PORT[m[1].toLowerCase()]) : undefined;
      if (!from || !ours(from, req))
        return refuse({
          status: 403,
          body: 'Forbidden: a request from another site (its Origin is not this server); start the server with --allow-origin ORIGIN to serve that site.\n',
          log: `refused ${method} from Origin "${t(origin)}", another site (--allow-origin would accept it)`,
        });
    }
    // Fetch Metadata (W3C): the browser's own word that the request comes from another site.
    const site = String(req.headers['sec-fetch-site'] ?? '').toLowerCase();
    if (site === 'cross-site' || site === 'same-site')
      return refuse({
        status: 403,
        body: `Forbidden: a request from another site (Sec-Fetch-Site: ${site}).\n`,
        log: `refused ${method} with Sec-Fetch-Site: ${site}, from another site${origin === undefined ? '' : ` (Origin "${t(origin)}"; --allow-origin would accept it)`}`,
      });
    return undefined;
  };
}
