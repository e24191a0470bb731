import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { writeOutputChunks } from './safe-write.ts';
import { jsonForFile, jsonTextForFile } from '../../reporters/untrusted-text.ts';
import { decodeJwt } from 'jose';
import type { Exchange } from './http-client.ts';
import { REDACTED, isCredentialName, redactHeaders, redactText, redactValue } from './redact.ts';

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the parts this project writes.
// Fields starting with `_` are the spec's custom fields.

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: { mimeType: string; text?: string; params?: Array<HarNameValue & { fileName?: string }> };
  headersSize: number;
  bodySize: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: { size: number; mimeType: string; text?: string };
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The conformance test that sent the request (absent for token fetches, cleanup and proxied traffic). */
  _testName?: string;
  /** The rules that test declares. */
  _ruleIds?: string[];
  /** When the request was sent, in epoch milliseconds with their fraction (startedDateTime keeps whole ones). */
  _startedAt?: number;
  /** A transport error instead of a response (the response then has status 0). */
  _error?: string;
  /** A body was cut at the size limit; the text ends with a marker giving its full size. */
  _truncated?: boolean;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

/** Bodies longer than this are cut in a HAR, with a marker giving the full size. */
export const HAR_BODY_LIMIT = 8192;

/** Marks a clipped body, as the HTTP client's evidence does: `…(N bytes)`. */
const CLIP_MARKER = /…\((\d+) bytes\)$/;

// Claims a bearer token's marker keeps: what scope and tenant rules need, nothing that authenticates.
const KEPT_CLAIMS = ['scope', 'scp', 'ten', 'host_tenant', 'app_name', 'app_version', 'iss', 'exp'];

/**
 * Characters of claims a bearer marker shows at most: a target's token is written into every entry
 * that carries it, so a token of megabytes would make a HAR of gigabytes. A claim that does not fit
 * is left out whole (a scope list cut short would read as scopes the token lacks), and named.
 */
export const MARKER_CLAIMS_LIMIT = 4096; // not a contract bound: the claims shown per HAR entry (a few hundred scopes fit)

const MARKER =
  /^Bearer \[REDACTED claims (\{.*\})(?: \(left out: ([a-z_]+(?:, [a-z_]+)*), (\d{1,15}) characters\))?\]$/;

/**
 * A bearer token replaced by a marker that keeps its non-secret claims, so that scope and tenant
 * rules can still be judged: `Bearer [REDACTED claims {"scope":[…],"ten":"…"}]`. Claims beyond
 * `MARKER_CLAIMS_LIMIT` characters are left out and named with their size:
 * `Bearer [REDACTED claims {"ten":"…"} (left out: scope, 5123456 characters)]`.
 */
export function bearerMarker(value: string): string {
  const marker = MARKER.exec(value.trim());
  if (marker) {
    // A marker already (traffic recorded before): bounded again, what it left out still named.
    const claims = claimsOfAuthorization(value);
    const before = marker[2]?.split(', ').filter((k) => KEPT_CLAIMS.includes(k));
    return claims ? markerOf(claims, before ?? [], Number(marker[3] ?? 0)) : `Bearer ${REDACTED}`;
  }
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(value);
  if (!m) return /^\s*Basic\s/i.test(value) ? `Basic ${REDACTED}` : REDACTED;
  try {
    return markerOf(decodeJwt(m[1]));
  } catch {
    return `Bearer ${REDACTED}`;
  }
}

/** The marker of a token's claims: those of `KEPT_CLAIMS` that fit, redacted, in their order. */
function markerOf(claims: Record<string, unknown>, leftBefore: string[] = [], sizeBefore = 0): string {
  const kept: string[] = [];
  const left: string[] = [...leftBefore];
  let leftSize = sizeBefore;
  for (const k of KEPT_CLAIMS) {
    if (claims[k] === undefined || left.includes(k)) continue;
    const raw = JSON.stringify(claims[k]) ?? '';
    // Redacted before it is measured (a secret is never cut in half), and only when it may fit.
    const text = raw.length <= MARKER_CLAIMS_LIMIT ? `${JSON.stringify(k)}:${redactText(raw)}` : '';
    if (text && `{${[...kept, text].join(',')}}`.length <= MARKER_CLAIMS_LIMIT) kept.push(text);
    else {
      left.push(k);
      leftSize += raw.length;
    }
  }
  const note = left.length ? ` (left out: ${left.join(', ')}, ${leftSize} characters)` : '';
  return `Bearer [REDACTED claims {${kept.join(',')}}${note}]`;
}

/**
 * The claims a bearer marker (or an unredacted bearer JWT) carries; undefined when there is none.
 * A claim the marker left out is absent, as when the token did not have it.
 */
export function claimsOfAuthorization(value: string | undefined): Record<string, unknown> | undefined {
  if (!value) return undefined;
  const marker = MARKER.exec(value.trim());
  if (marker) {
    try {
      const claims = JSON.parse(marker[1]) as unknown;
      return claims && typeof claims === 'object' && !Array.isArray(claims)
        ? (claims as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(value);
  if (!m) return undefined;
  try {
    return decodeJwt(m[1]);
  } catch {
    return undefined;
  }
}

/** A query parameter or form field, its value redacted when its name is a credential's. */
function param(name: string, value: string): HarNameValue {
  return { name, value: isCredentialName(name) ? REDACTED : value };
}

function nameValues(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** Redacted headers, the Authorization header as a claims marker. */
export function harHeaders(headers: Record<string, string | undefined>): HarNameValue[] {
  const out = redactHeaders(headers);
  for (const k of Object.keys(headers))
    if (k.toLowerCase() === 'authorization' && headers[k] !== undefined) out[k] = bearerMarker(headers[k]);
  return nameValues(out);
}

// Bodies are redacted before they are cut, so that no secret is left cut in half.
function clipBody(text: string): { text: string; size: number; truncated: boolean } {
  const clipped = CLIP_MARKER.exec(text);
  if (clipped) return { text: redactText(text), size: Number(clipped[1]), truncated: true };
  if (text.length > HAR_BODY_LIMIT)
    return {
      text: `${redactText(text).slice(0, HAR_BODY_LIMIT)}…(${text.length} bytes)`,
      size: text.length,
      truncated: true,
    };
  return { text: redactText(text), size: Buffer.byteLength(text), truncated: false };
}

/** Options of one entry: who sent it, and its timing. */
export interface HarEntryInfo {
  testName?: string;
  ruleIds?: readonly string[];
  startedAt?: number;
  timeMs?: number;
}

/**
 * One exchange as a redacted HAR entry. Every string of the entry, whatever field it was copied
 * into (URL, query, header names and values, `mimeType`, `redirectURL`, bodies, params), passes
 * through the redactor once it is built; Authorization becomes a marker of its claims first.
 */
export function harEntry(e: Exchange, info: HarEntryInfo = {}): HarEntry {
  return redactValue(rawHarEntry(e, info));
}

function rawHarEntry(e: Exchange, info: HarEntryInfo): HarEntry {
  const url = new URL(e.request.url);
  const reqHeaders = e.request.headers;
  let truncated = false;
  let postData: HarRequest['postData'];
  let bodySize = 0;
  if (e.request.form) {
    postData = {
      mimeType: 'multipart/form-data',
      params: e.request.form.map((p) =>
        p.filename !== undefined
          ? { name: p.name, value: `(${p.size ?? 0} bytes)`, fileName: p.filename }
          : param(p.name, p.value ?? ''),
      ),
    };
    bodySize = -1;
  } else if (e.request.body !== undefined) {
    const b = clipBody(e.request.body);
    truncated ||= b.truncated;
    postData = { mimeType: reqHeaders['content-type'] ?? 'application/json', text: b.text };
    bodySize = b.size;
  }
  const res = e.response;
  const resBody = res ? clipBody(res.body) : { text: '', size: 0, truncated: false };
  truncated ||= resBody.truncated;
  const time = Math.max(0, Math.round((info.timeMs ?? 0) * 1000) / 1000);
  const entry: HarEntry = {
    startedDateTime: new Date(info.startedAt ?? Date.now()).toISOString(),
    time,
    request: {
      method: e.request.method.toUpperCase(),
      url: url.toString(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(reqHeaders),
      queryString: [...url.searchParams].map(([name, value]) => param(name, value)),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize,
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res ? nameValues(redactHeaders(res.headers)) : [],
      content: {
        size: resBody.size,
        mimeType: res?.headers['content-type'] ?? '',
        ...(res && resBody.text ? { text: resBody.text } : {}),
      },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      bodySize: res ? resBody.size : -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  };
  if (info.startedAt !== undefined) entry._startedAt = Math.round(info.startedAt * 1000) / 1000;
  if (info.testName) entry._testName = info.testName;
  if (info.ruleIds) entry._ruleIds = [...info.ruleIds];
  if (e.error) entry._error = e.error;
  if (truncated) entry._truncated = true;
  return entry;
}

/** A HAR log around entries, in the order they were sent. */
export function harLog(entries: HarEntry[], creatorVersion: string, comment?: string): Har {
  entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return {
    log: {
      version: '1.2',
      creator: { name: 'platform-conformance', version: creatorVersion },
      entries,
      ...(comment ? { comment } : {}),
    },
  };
}

/**
 * Appends a run's entries, one JSON line each, to a file the command line turns into
 * `exchanges.har`; entries are buffered a few at a time so recording costs little per request.
 */
export class HarRecorder {
  private buffer: string[] = [];

  constructor(readonly file: string) {}

  record(e: Exchange): void {
    this.recordEntry(
      harEntry(e, { testName: e.tag?.test, ruleIds: e.tag?.rules, startedAt: e.startedAt, timeMs: e.timeMs }),
    );
  }

  recordEntry(entry: HarEntry): void {
    this.buffer.push(JSON.stringify(entry));
    if (this.buffer.length >= 64) this.flush(); // not a contract bound: entries buffered before a write
  }

  flush(): void {
    if (!this.buffer.length) return;
    appendFileSync(this.file, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
  }
}

/** Turns a recorder's JSON-lines file into `harFile` (HAR 1.2) and removes it; returns the entry count. */
export function assembleHar(linesFile: string, harFile: string, creatorVersion: string): number {
  // Each line is JSON.stringify of an entry: kept as text and written as it is, in time order, so
  // that the HAR of a long run is never held whole, nor as objects, in memory.
  const entries: Array<{ at: string; text: string }> = [];
  if (existsSync(linesFile)) {
    for (const line of readFileSync(linesFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push({ at: String((JSON.parse(line) as HarEntry).startedDateTime), text: line });
      } catch {
        // a line cut short by an interrupted run
      }
    }
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  const head = jsonForFile(harLog([], creatorVersion)).replace(/"entries":\[\]\}\}$/, '"entries":[');
  function* chunks(): Generator<string> {
    yield head;
    for (let i = 0; i < entries.length; i++) yield `${i ? ',' : ''}${jsonTextForFile(entries[i].text)}`;
    yield ']}}\n';
  }
  writeOutputChunks(harFile, chunks());
  rmSync(linesFile, { force: true });
  return entries.length;
}
