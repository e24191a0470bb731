import { BroadcastChannel } from 'node:worker_threads';

/** Headers whose values are credentials and never leave the process unredacted. */
export const SECRET_HEADERS = ['authorization', 'x-space-auth-key', 'cookie', 'set-cookie', 'proxy-authorization'];

export const REDACTED = '[REDACTED]';

// A JWT, or any piece of one: a base64url JSON object (`eyJ…`) and whatever segments follow,
// so that a token cut short by a message's length limit is still hidden.
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
// A Basic or Bearer credential (RFC 7235 token68). Only a credential-shaped value is taken (see
// `credentialShaped`), so that prose such as "JWT bearer technical token" is left as written;
// the exact credentials of a run are the registered secrets.
const BASIC_OR_BEARER = /\b(Basic|Bearer)(\s+)([A-Za-z0-9+/=._~-]{8,})/gi;
// Credential fields inside quoted JSON (response bodies kept as evidence), even when cut short.
const CREDENTIAL_FIELD =
  /("(?:access_token|refresh_token|id_token|token|client_secret|clientSecret|password|secret)"\s*:\s*")[^"]*("?)/gi;

/** A value that looks like a credential rather than a word: it has a digit, or is long and of mixed case. */
function credentialShaped(v: string): boolean {
  return /\d/.test(v) || (v.length >= 20 && /[a-z]/.test(v) && /[A-Z]/.test(v));
}

const knownSecrets = new Set<string>();
/** One alternation of every registered secret, longest first; rebuilt when one is added. */
let secretPattern: RegExp | undefined;

// The suites run in a worker thread, the reports are written by the main thread: each secret
// registered in one thread reaches the others, so that whichever thread writes redacts it.
const CHANNEL = 'platform-conformance:secrets';
let channel: BroadcastChannel | undefined;
function sharedChannel(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e) => {
      const data = (e as { data?: unknown }).data;
      if (Array.isArray(data)) for (const v of data) if (typeof v === 'string') addSecret(v);
    };
    // Listening must not keep a process or a worker alive.
    (channel as unknown as { unref?: () => void }).unref?.();
  }
  return channel;
}
sharedChannel();

function addSecret(value: string): boolean {
  if (knownSecrets.has(value)) return false;
  knownSecrets.add(value);
  secretPattern = undefined;
  return true;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Registers a value (client secret, token) that must never be printed, in every form it may be echoed in. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4) return;
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
  const added = forms.filter((f) => addSecret(f));
  if (added.length) sharedChannel().postMessage(added);
}

/**
 * Registers a client's credentials: its secret, and `clientId:clientSecret` in base64 (the
 * X-SPACE-AUTH-KEY) padded, unpadded and url-safe, since a target may echo it in any of them.
 */
export function registerCredentials(clientId: string, clientSecret: string): void {
  registerSecret(clientSecret);
  const pair = Buffer.from(`${clientId}:${clientSecret}`);
  const b64 = pair.toString('base64');
  registerSecret(b64);
  registerSecret(b64.replace(/=+$/, ''));
  registerSecret(pair.toString('base64url'));
}

/** Replaces every registered secret, anything shaped like a JWT and credential-shaped Basic/Bearer values. */
export function redactText(text: string): string {
  // A check's Expected/Received may be JSON.stringify of nothing (undefined), whatever its type says.
  let out = typeof text === 'string' ? text : String(text);
  if (knownSecrets.size) {
    secretPattern ??= new RegExp(
      [...knownSecrets]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    out = out.replace(secretPattern, REDACTED);
  }
  return out
    .replace(CREDENTIAL_FIELD, (_m, head: string, tail: string) => `${head}${REDACTED}${tail}`)
    .replace(JWT_SHAPE, REDACTED)
    .replace(BASIC_OR_BEARER, (m, scheme: string, space: string, value: string) =>
      credentialShaped(value) ? `${scheme}${space}${REDACTED}` : m,
    );
}

/** A copy of `headers` with credential headers redacted (names too, should a target put a secret in one). */
export function redactHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[redactText(k)] = SECRET_HEADERS.includes(k.toLowerCase()) ? REDACTED : redactText(v);
  }
  return out;
}

/** Deep copy of a JSON-like value with every string, and every key, redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[redactText(k)] =
        SECRET_HEADERS.includes(k.toLowerCase()) || /secret|password|access_token/i.test(k) ? REDACTED : redactValue(v);
    }
    return out as T;
  }
  return value;
}
