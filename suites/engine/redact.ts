import { BroadcastChannel } from 'node:worker_threads';
import { loadRules } from '../../contracts/catalog.ts';
import { SERVICES } from '../../contracts/services.ts';
import { MIN_SECRET_LENGTH, SecretMatcher } from './secret-matcher.ts';

/**
 * The names credentials travel under, the one list every redaction by name reads: headers, fields
 * of JSON bodies (kept as text or as values), query parameters (in a URL, a HAR's `queryString`),
 * form fields (an urlencoded body, multipart params) and the keys of a report's values. A name
 * matches whatever its case and whether its words are joined by `-`, `_` or nothing
 * (`client_secret`, `clientSecret`, `Client-Secret`); an entry `*word*` matches any name holding
 * the word (`newPassword`, `x-client-secret`).
 */
const CREDENTIAL_NAMES = [
  'authorization',
  'proxy-authorization',
  'x-space-auth-key',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  '*secret*',
  '*password*',
  '*access_token*',
];

/** The names of `CREDENTIAL_NAMES` as one alternation (no group of its own). */
const CREDENTIAL_NAME = CREDENTIAL_NAMES.map((entry) => {
  const words = entry
    .replace(/\*/g, '')
    .split(/[-_]/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const name = words.join('[-_]?');
  return entry.startsWith('*') ? `[\\w.-]*${name}[\\w.-]*` : name;
}).join('|');

const CREDENTIAL_NAME_WHOLE = new RegExp(`^(?:${CREDENTIAL_NAME})$`, 'i');

/** Whether a header, field, parameter or key of this name holds a credential (`CREDENTIAL_NAMES`). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME_WHOLE.test(name);
}

export const REDACTED = '[REDACTED]';

// A JWT, or any piece of one: a base64url JSON object (`eyJ…`) and whatever segments follow,
// so that a token cut short by a message's length limit is still hidden.
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
// A Basic or Bearer credential (RFC 7235 token68). Only a credential-shaped value is taken (see
// `credentialShaped`), so that prose such as "JWT bearer technical token" is left as written;
// the exact credentials of a run are the registered secrets.
const BASIC_OR_BEARER = /\b(Basic|Bearer)(\s+)([A-Za-z0-9+/=._~-]{8,})/gi;
// Credential fields inside quoted JSON (response bodies kept as evidence), even when cut short; a
// value cut short ends at its line (the console is redacted as a whole, a line at a time).
const CREDENTIAL_FIELD = new RegExp(`("(?:${CREDENTIAL_NAME})"\\s*:\\s*")[^"\\n]*("?)`, 'gi');
// Credential parameters of a query string or an urlencoded form body (`?client_secret=…&`,
// `password=…` at the start of a body or a line), in a URL, a body or any text quoting them.
const CREDENTIAL_PARAM = new RegExp(`((?:^|(?<=[?&;\\s"'(<]))(?:${CREDENTIAL_NAME})=)[^&#\\s"'<>]+`, 'gim');

/** A value that looks like a credential rather than a word: it has a digit, or is long and of mixed case. */
function credentialShaped(v: string): boolean {
  // not a contract bound: the length of a credential-shaped value
  return /\d/.test(v) || (v.length >= 20 && /[a-z]/.test(v) && /[A-Z]/.test(v));
}

const secrets = new SecretMatcher();

// The suites run in a worker thread, the reports are written by the main thread: each secret
// registered in one thread reaches the others, so that whichever thread writes redacts it.
const CHANNEL = 'platform-conformance:secrets';
let channel: BroadcastChannel | undefined;
function sharedChannel(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e) => {
      const data = (e as { data?: unknown }).data;
      if (Array.isArray(data)) for (const v of data) if (typeof v === 'string') secrets.add(v);
    };
    // Listening must not keep a process or a worker alive.
    (channel as unknown as { unref?: () => void }).unref?.();
  }
  return channel;
}
sharedChannel();

function addForms(value: string): void {
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
  const added = forms.filter((f) => secrets.add(f));
  if (added.length) sharedChannel().postMessage(added);
}

/**
 * Registers a value of the configuration (client secret, static token) or one derived from it,
 * in every form it may be echoed in. Never throws, whatever its length.
 */
export function registerSecret(value: string | undefined): void {
  if (typeof value !== 'string' || !value) return;
  addForms(value);
}

/**
 * Registers a client's credentials: its secret, and `clientId:clientSecret` in base64 (the
 * X-SPACE-AUTH-KEY) padded, unpadded and url-safe, since a target may echo it in any of them.
 * Every key the suite builds from a secret (a wrong one included) is registered this way before
 * it is sent.
 */
export function registerCredentials(clientId: string, clientSecret: string): void {
  registerSecret(clientSecret);
  const pair = Buffer.from(`${clientId}:${clientSecret}`);
  const b64 = pair.toString('base64');
  registerSecret(b64);
  registerSecret(b64.replace(/=+$/, ''));
  registerSecret(pair.toString('base64url'));
}

/** Shortest token taken from a target as a secret: shorter ones are words, not credentials. */
const MIN_ISSUED_TOKEN = 16; // not a contract bound: the shortest issued token taken for a secret
/**
 * Tokens from a target kept at most, so that a target cannot make the set of secrets grow without
 * bound; the configuration's secrets (a bounded set) are always kept.
 */
export const MAX_ISSUED_TOKENS = 4096;
let issued = 0;

let vocabulary: string | undefined;
/** The words a report is made of: rule IDs, services, the documents' quotes and our statements. */
function ownVocabulary(): string {
  if (vocabulary === undefined) {
    try {
      const rules = loadRules();
      vocabulary = [
        ...SERVICES,
        ...rules.flatMap((r) => [
          r.id,
          r.source.quote,
          r.source.section,
          r.statement,
          r.note ?? '',
          ...(r.readings ?? []).flatMap((x) => [x.id, x.reading]),
        ]),
      ].join('\n');
    } catch {
      vocabulary = SERVICES.join('\n');
    }
  }
  return vocabulary;
}

/**
 * Whether redacting a value as a secret would erase words of the report's own (a rule ID, a
 * service, a quote, a statement) from every report: it is long enough to be redacted and occurs in them.
 */
export function hidesOwnWords(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && ownVocabulary().includes(value);
}

/**
 * Registers a token the suite obtained from the token manager. A target chooses its tokens: one
 * that is short, or that is one of the report's own words, is not taken for a secret (it would
 * hide rule IDs, services or the documents' quotes everywhere); a header carrying it is redacted
 * by name all the same.
 */
export function registerIssuedToken(value: unknown): void {
  if (typeof value !== 'string' || value.length < MIN_ISSUED_TOKEN) return;
  if (issued >= MAX_ISSUED_TOKENS || hidesOwnWords(value)) return;
  issued++;
  addForms(value);
}

/** The token fields of a token endpoint's answer (RFC 6749 §5.1), at its top level and in a list of them. */
const TOKEN_FIELDS = ['access_token', 'refresh_token', 'id_token'];

/**
 * Registers the tokens of an answer of the token manager's token operations (`POST /oauth/token`:
 * the fields at the top level; `POST /oauthTokens`: those of each `oauthTokens[].token`).
 */
export function registerIssuedTokens(json: unknown): void {
  const bodies: unknown[] = [json];
  const list = (json as { oauthTokens?: unknown } | undefined)?.oauthTokens;
  if (Array.isArray(list)) for (const item of list.slice(0, 1000)) bodies.push((item as { token?: unknown })?.token);
  for (const body of bodies) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) continue;
    for (const f of TOKEN_FIELDS) registerIssuedToken((body as Record<string, unknown>)[f]);
  }
}

/** Whether `value` is registered as a secret (for tests). */
export function isRegisteredSecret(value: string): boolean {
  return secrets.has(value);
}

/** Replaces every registered secret, anything shaped like a JWT and credential-shaped Basic/Bearer values. Never throws. */
export function redactText(text: string): string {
  // A check's Expected/Received may be JSON.stringify of nothing (undefined), whatever its type says.
  let out = typeof text === 'string' ? text : String(text);
  const ranges = secrets.ranges(out);
  if (ranges.length) {
    const parts: string[] = [];
    let at = 0;
    for (const [start, end] of ranges) {
      parts.push(out.slice(at, start), REDACTED);
      at = end;
    }
    parts.push(out.slice(at));
    out = parts.join('');
  }
  return out
    .replace(CREDENTIAL_FIELD, (_m, head: string, tail: string) => `${head}${REDACTED}${tail}`)
    .replace(CREDENTIAL_PARAM, (_m, head: string) => `${head}${REDACTED}`)
    .replace(JWT_SHAPE, REDACTED)
    .replace(BASIC_OR_BEARER, (m, scheme: string, space: string, value: string) =>
      credentialShaped(value) ? `${scheme}${space}${REDACTED}` : m,
    );
}

/**
 * A copy of `headers` with credential headers redacted, and every other value and every name passed
 * through the redactor (a name is what a target sent, should it put a secret in one).
 */
export function redactHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[redactText(k)] = isCredentialName(k) ? REDACTED : redactText(v);
  }
  return out;
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * Deep copy of a JSON-like value with every string redacted. Keys are never changed (a report's
 * keys are the tool's own words), but for a `headers` record, whose names a target sent
 * (`redactHeaders`); the value of a key that names a credential is redacted whole.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isCredentialName(k)
        ? REDACTED
        : k === 'headers' && isStringRecord(v)
          ? redactHeaders(v)
          : redactValue(v);
    }
    return out as T;
  }
  return value;
}
