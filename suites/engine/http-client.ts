import { readFileSync } from 'node:fs';
import { Agent, FormData, request as undiciRequest } from 'undici';
import { readOperationOf } from '../../contracts/read-operations.ts';
import { curlOf, type Curl, type CurlRequest } from './curl.ts';
import { SERVICE_INFO } from '../../contracts/services.ts';
import { redactText, registerIssuedTokens } from './redact.ts';
import { RequestPacer, Semaphore, sleep } from './load-control.ts';
import { inCleanup, sleepUnless } from './run-stop.ts';

export type QueryValue = string | number | boolean | undefined | null;

export interface FormPart {
  name: string;
  value?: string;
  /** A Blob (e.g. from `fs.openAsBlob`) is sent without being read into memory first. */
  file?: { filename: string; content: Buffer | string | Blob; contentType?: string };
}

/** Time allowed on top of the timeout for sending a request body: a second per MiB beyond the first. */
export function uploadAllowanceMs(form: Array<{ size?: number; value?: string }> | undefined, body?: string): number {
  const bytes = (form ?? []).reduce((n, p) => n + (p.size ?? p.value?.length ?? 0), 0) + (body?.length ?? 0);
  return Math.max(0, Math.ceil((bytes - MIB) / MIB) * 1000);
}
const MIB = 1024 * 1024;

/** A request as the suites describe it; `path` is relative to the target's origin. */
export interface HttpRequest {
  method: string;
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  /** JSON body; sent as `application/json` unless a content-type header says otherwise. */
  json?: unknown;
  /** Raw body, sent as it is (for malformed-JSON checks). */
  body?: string;
  form?: FormPart[];
  /**
   * Its turn for a slot when requests wait for one (higher first; not sent): a test passes how many
   * requests it has sent, so that the long chains of requests, once under way, keep going and the
   * short tests fill the slots around them.
   */
  priority?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Media type without parameters, lower-case ('' when absent). */
  contentType: string;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  /** Set when the body was not valid JSON although it was non-empty. */
  jsonError?: string;
  durationMs: number;
}

const EXCHANGE_OF = new WeakMap<HttpResponse, Exchange>();

/** The exchange (request, response, curl) that produced a response: the evidence of a check on it. */
export function exchangeOf(res: HttpResponse | undefined): Exchange | undefined {
  return res ? EXCHANGE_OF.get(res) : undefined;
}

/** One request and its response, kept as evidence for a failure. */
export interface Exchange {
  request: CurlRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  /** The curl that reproduces the request; none when a curl cannot send it as it was (`noCurl` says why). */
  curl?: string;
  noCurl?: string;
  /** When it was sent (epoch ms) and how long it took, for the HAR. */
  startedAt?: number;
  timeMs?: number;
  /** The test that sent it and the rules it declares. */
  tag?: { test: string; rules: readonly string[] };
}

/**
 * REFUSED, DNS and TLS mean the target cannot be reached at all; the others are a target that
 * was reached and then misbehaved (reset, stalled, sent too much), or one given up on after
 * too many such answers in a row (UNRESPONSIVE).
 */
export type TransportErrorCode =
  'TIMEOUT' | 'REFUSED' | 'CONNECTION' | 'TLS' | 'DNS' | 'BODY_TOO_LARGE' | 'ABORTED' | 'UNRESPONSIVE';

/** The largest answer a run takes by default (`--max-body`). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The target could not be talked to (as opposed to answering wrongly). */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    /** The request as far as it went (none when it was not sent at all: the run is stopping). */
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/**
 * A request the read-only profile would not send: it is neither a GET/HEAD nor a documented read
 * operation (`contracts/read-operations.ts`), so a broken target could change something with it.
 */
export class ReadOnlyRefusal extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(
      `needs ${method.toUpperCase()} ${path}, which is not a read operation and could change the target; not sent in --profile read-only`,
    );
    this.name = 'ReadOnlyRefusal';
  }
}

/** How the suites may talk to a target: what the command line sets for a run. */
export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  rate: number;
  concurrency: number;
  ca?: string;
  insecure?: boolean;
}

export interface HttpClientOptions extends TransportOptions {
  target: string;
  /** Retries of a 429 answer before it is handed to the caller. */
  max429Retries: number;
  /** Longest wait a `Retry-After` may impose (ms). */
  maxRetryAfterMs: number;
  /**
   * The target counts as unresponsive when its transport failures (timeouts, resets, refused
   * connections) reach this score: each adds 1, each answer takes `HEALTH_RECOVERY` off, so
   * this many in a row, or failures steadily above one request in six, trip it; a short blip
   * does not. Then further requests fail at once for a while, and the run stops its tests.
   */
  breakAfter?: number;
  /** Refuse (ReadOnlyRefusal, nothing sent) every request outside the contracts' read operations. */
  readOnly?: boolean;
  /**
   * The run is stopping once this aborts: no wait is kept any more (a 429 is handed to the caller
   * as it is), and no request is sent but the cleanup's (`asCleanup`).
   */
  stop?: AbortSignal;
  /** With `stop`: requests under way are aborted too (the checks before the tests start). */
  abortInFlight?: boolean;
}

/** Counters of what the client did, for the report. */
export interface HttpStats {
  requests: number;
  throttled: number;
  retriedAfter429: number;
  transportErrors: number;
  /** A sample of 429 answers per service base path, to check their bodies. */
  throttleSamples: Array<{ path: string; status: number; contentType: string; body: string; retryAfter?: string }>;
}

const EXCHANGE_BODY_LIMIT = 8192;
/** How much of the health score one answer of the target takes off (see `breakAfter`). */
export const HEALTH_RECOVERY = 0.2;
/** How long requests fail at once after the target was found unresponsive. */
const OPEN_MS = 30_000;

/** A body cut at the evidence limit; redacted before it is cut, so that no secret is left cut in half. */
function clip(text: string): string {
  return text.length > EXCHANGE_BODY_LIMIT
    ? `${redactText(text).slice(0, EXCHANGE_BODY_LIMIT)}…(${text.length} bytes)`
    : text;
}

function classify(err: unknown): TransportErrorCode {
  const code = `${(err as { code?: string }).code ?? ''} ${(err as { cause?: { code?: string } }).cause?.code ?? ''}`;
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL/.test(code)) return 'REFUSED';
  const name = (err as { name?: string }).name ?? '';
  if (name === 'TimeoutError' || /TIMEOUT/.test(code)) return 'TIMEOUT';
  if (name === 'AbortError') return 'ABORTED';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'DNS';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) return 'TLS';
  return 'CONNECTION';
}

/**
 * What to do about a certificate the target's TLS handshake failed on, naming `--ca` and
 * `--insecure` (Node's verification codes: self-signed, unknown CA, wrong host name, expired).
 */
export function tlsHint(code: string | undefined, target?: string): string | undefined {
  if (!code) return undefined;
  if (/SELF_SIGNED/.test(code))
    return 'the certificate is self-signed: pass it (or the CA that signed it) with --ca FILE.pem, or skip verification with --insecure (tests only)';
  if (/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|CERT_UNTRUSTED|UNABLE_TO_GET_CRL/.test(code))
    return "the certificate is signed by a CA this machine does not know: pass that CA's certificate with --ca FILE.pem, or skip verification with --insecure (tests only)";
  if (/ALTNAME|HOSTNAME|IP_ADDRESS/.test(code))
    return `the certificate does not name the host${target ? ` of ${target}` : ''}: use a host name the certificate names in the target URL, or skip verification with --insecure (tests only)`;
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(code))
    return "the certificate is outside its validity period (check this machine's clock), or skip verification with --insecure (tests only)";
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return 'the certificate could not be verified: --ca FILE.pem names a private CA, --insecure skips verification (tests only)';
  return undefined;
}

/**
 * An exchange whose curl command is built (and redacted) only when it is read: almost every
 * exchange is thrown away unread, and building the command is a measurable share of a request.
 */
function withLazyCurl(e: Omit<Exchange, 'curl' | 'noCurl'>): Exchange {
  let curl: Curl | undefined;
  const built = () => (curl ??= curlOf(e.request));
  return Object.defineProperties(e, {
    curl: { enumerable: true, get: () => built().command },
    noCurl: { enumerable: true, get: () => built().noCurl },
  });
}

const TOKEN_OPERATIONS = new Set(
  ['/oauth/token', '/oauthTokens'].map((p) => `${SERVICE_INFO['technical-token-manager'].basePath}${p}`),
);

/**
 * The tokens the token manager issues to the suite are secrets from the moment they exist: those
 * of a token operation's answer are registered before the exchange is recorded. Fields of any
 * other answer are not (a target could otherwise choose words for the report to hide).
 */
function registerTokensOf(req: HttpRequest, status: number, json: unknown): void {
  if (status >= 200 && status < 300 && req.method.toUpperCase() === 'POST' && TOKEN_OPERATIONS.has(req.path))
    registerIssuedTokens(json);
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | undefined, fallback = 1000): number {
  if (!value) return fallback;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : fallback;
}

/**
 * The one HTTP client of a run: keep-alive connections, a per-request timeout, a cap on
 * response size, a rate limit and a concurrency limit shared by every suite, and 429s
 * absorbed by waiting as `Retry-After` says (a bounded number of times).
 */
export class HttpClient {
  readonly stats: HttpStats = {
    requests: 0,
    throttled: 0,
    retriedAfter429: 0,
    transportErrors: 0,
    throttleSamples: [],
  };
  private readonly agent: Agent;
  private readonly pacer: RequestPacer;
  private readonly slots: Semaphore;
  private readonly origin: string;
  private failureScore = 0;
  private failingSince = 0;
  private openUntil = 0;
  /** When the target's transport failures began that made it count as unresponsive (ms since epoch). */
  unresponsiveSince?: number;
  /** Sees every exchange after the caller's `onExchange` (the run's HAR recorder). */
  recorder?: (e: Exchange) => void;

  constructor(readonly options: HttpClientOptions) {
    this.origin = options.target.replace(/\/+$/, '');
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: Math.max(1, options.concurrency),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: options.timeoutMs,
        ca: options.ca ? readFileSync(options.ca) : undefined,
        rejectUnauthorized: !options.insecure,
      },
    });
    this.pacer = new RequestPacer(options.rate);
    this.slots = new Semaphore(Math.max(1, options.concurrency));
  }

  /** The absolute URL of a path and query. */
  url(path: string, query?: Record<string, QueryValue>): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.append(k, String(v));
    const s = qs.toString();
    return `${this.origin}${path}${s ? `?${s}` : ''}`;
  }

  /** Requests under way (sent or waiting for a slot). */
  private inFlight = 0;

  /**
   * Waits until no request is under way (at most `maxMs`), then a moment more for their callers to
   * note what the answers created.
   */
  async settled(maxMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    const until = Date.now() + maxMs;
    while (this.inFlight > 0 && Date.now() < until) await sleep(20);
    await sleep(20);
  }

  /** Sends a request; throws TransportError when the target cannot be talked to. */
  async send(req: HttpRequest, onExchange?: (e: Exchange) => void): Promise<HttpResponse> {
    this.inFlight++;
    try {
      return await this.sendCounted(req, onExchange);
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Whether another throttled answer to a request of `path`'s service is kept: 20 per service, so
   * that one service's throttling never leaves another's 429 rules without samples.
   */
  private roomForSample(path: string): boolean {
    const service = path.split('/', 3).join('/');
    // not a contract bound: throttle samples kept per service
    return this.stats.throttleSamples.filter((s) => s.path.startsWith(`${service}/`)).length < 20;
  }

  /** Whether the run is stopping and this request is not one the cleanup sends. */
  private stopping(): boolean {
    return !!this.options.stop?.aborted && (!!this.options.abortInFlight || !inCleanup());
  }

  private async sendCounted(req: HttpRequest, onExchange?: (e: Exchange) => void): Promise<HttpResponse> {
    if (this.options.readOnly && !readOperationOf(req.method, req.path))
      throw new ReadOnlyRefusal(req.method, req.path);
    const notSent = `${req.method.toUpperCase()} ${req.path}: not sent`;
    if (this.stopping()) throw new TransportError('ABORTED', `${notSent}: the run is stopping`);
    if (Date.now() < this.openUntil) {
      const url = this.url(req.path, req.query);
      const exchange = withLazyCurl({ request: { method: req.method, url, headers: {} }, error: 'UNRESPONSIVE' });
      onExchange?.(exchange);
      this.recorder?.(exchange);
      throw new TransportError(
        'UNRESPONSIVE',
        `${notSent}: the target has been unresponsive since ${new Date(this.unresponsiveSince ?? Date.now()).toISOString()}`,
        exchange,
      );
    }
    for (let attempt = 0; ; attempt++) {
      const res = await this.slots.run(async () => {
        await this.pacer.wait();
        if (this.stopping()) throw new TransportError('ABORTED', `${notSent}: the run is stopping`);
        return this.sendOnce(req, onExchange);
      }, req.priority);
      // A throttled answer (429, or another status with Retry-After) is kept as a sample of its service.
      if ((res.status === 429 || res.headers['retry-after']) && this.roomForSample(req.path))
        this.stats.throttleSamples.push({
          path: req.path,
          status: res.status,
          contentType: res.contentType,
          body: clip(res.text),
          retryAfter: res.headers['retry-after'],
        });
      if (res.status !== 429) return res;
      this.stats.throttled++;
      if (attempt >= this.options.max429Retries || this.options.stop?.aborted) return res;
      const wait = Math.min(retryAfterMs(res.headers['retry-after']), this.options.maxRetryAfterMs);
      this.stats.retriedAfter429++;
      this.pacer.backOff(wait);
      await sleepUnless(wait, this.options.stop);
      if (this.options.stop?.aborted) return res;
    }
  }

  private async sendOnce(req: HttpRequest, onExchange?: (e: Exchange) => void): Promise<HttpResponse> {
    const url = this.url(req.path, req.query);
    const headers: Record<string, string> = { accept: 'application/json, application/hal+json, */*' };
    for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    let body: string | FormData | undefined;
    let shownBody: string | undefined;
    let form: CurlRequest['form'];
    if (req.form) {
      const fd = new FormData();
      form = [];
      for (const p of req.form) {
        if (p.file) {
          const content = typeof p.file.content === 'string' ? Buffer.from(p.file.content) : p.file.content;
          const type = p.file.contentType ?? 'application/octet-stream';
          // A Blob part of a Blob is referenced, not copied.
          const blob = new Blob([content instanceof Blob ? content : (content as Uint8Array<ArrayBuffer>)], { type });
          fd.append(p.name, blob, p.file.filename);
          form.push({ name: p.name, filename: p.file.filename, size: blob.size });
        } else {
          fd.append(p.name, p.value ?? '');
          form.push({ name: p.name, value: p.value });
        }
      }
      body = fd;
    } else if (req.body !== undefined) {
      body = shownBody = req.body;
      headers['content-type'] ??= 'application/json';
    } else if (req.json !== undefined) {
      body = shownBody = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const curlReq: CurlRequest = {
      method: req.method,
      url,
      headers,
      body: shownBody !== undefined ? clip(shownBody) : undefined,
      ...(shownBody !== undefined && shownBody.length > EXCHANGE_BODY_LIMIT
        ? { bodyBytes: Buffer.byteLength(shownBody) }
        : {}),
      form,
    };
    const exchange = withLazyCurl({ request: curlReq, startedAt: performance.timeOrigin + performance.now() });
    const started = performance.now();
    // undici's headers and body timeouts bound the wait for each part; the deadline bounds a
    // body that keeps trickling in. A large upload adds its own sending time: a second per MiB
    // (a link of 8 Mbit/s), so that a slow link to a sound target is not its timeout.
    const timeoutMs = this.options.timeoutMs + uploadAllowanceMs(form, shownBody);
    const deadline = started + timeoutMs;
    this.stats.requests++;
    try {
      const res = await undiciRequest(url, {
        method: req.method.toUpperCase() as 'GET',
        headers,
        body,
        dispatcher: this.agent,
        maxRedirections: 0,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(this.options.abortInFlight && this.options.stop ? { signal: this.options.stop } : {}),
      } as Parameters<typeof undiciRequest>[1]);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        if (performance.now() > deadline) {
          res.body.destroy();
          throw Object.assign(new Error(`response not complete after ${timeoutMs} ms`), {
            code: 'UND_ERR_BODY_TIMEOUT',
          });
        }
        size += (chunk as Buffer).length;
        if (size > this.options.maxBodyBytes) {
          res.body.destroy();
          throw Object.assign(new Error(`response body larger than ${this.options.maxBodyBytes} bytes`), {
            code: 'BODY_TOO_LARGE',
          });
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const contentType = (flat['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      let json: unknown;
      let jsonError: string | undefined;
      if (text.trim()) {
        try {
          json = JSON.parse(text);
        } catch (e) {
          jsonError = (e as Error).message;
        }
      }
      registerTokensOf(req, res.statusCode, json);
      exchange.response = { status: res.statusCode, headers: flat, body: clip(text) };
      this.failureScore = Math.max(0, this.failureScore - HEALTH_RECOVERY);
      exchange.timeMs = performance.now() - started;
      onExchange?.(exchange);
      this.recorder?.(exchange);
      const response: HttpResponse = {
        status: res.statusCode,
        headers: flat,
        contentType,
        text,
        json,
        jsonError,
        durationMs: performance.now() - started,
      };
      EXCHANGE_OF.set(response, exchange);
      return response;
    } catch (err) {
      this.stats.transportErrors++;
      const code = (err as { code?: string }).code === 'BODY_TOO_LARGE' ? 'BODY_TOO_LARGE' : classify(err);
      if (this.options.breakAfter && ['TIMEOUT', 'CONNECTION', 'REFUSED'].includes(code)) {
        if (this.failureScore === 0) this.failingSince = Date.now();
        if (++this.failureScore >= this.options.breakAfter) {
          this.unresponsiveSince ??= this.failingSince;
          this.openUntil = Date.now() + OPEN_MS;
          // One more failure after the pause opens it again.
          this.failureScore = this.options.breakAfter - 1;
        }
      }
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const hint =
        code === 'TLS' ? tlsHint(cause?.code ?? (err as { code?: string }).code, this.options.target) : undefined;
      const detail = `${cause?.code ? `${(err as Error).message} (${cause.code})` : (err as Error).message}${hint ? `; ${hint}` : ''}`;
      exchange.error = `${code}: ${detail}`;
      exchange.timeMs = performance.now() - started;
      onExchange?.(exchange);
      this.recorder?.(exchange);
      throw new TransportError(
        code,
        `${req.method.toUpperCase()} ${req.path}: ${code.toLowerCase().replace('_', ' ')}: ${detail}`,
        exchange,
      );
    }
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
