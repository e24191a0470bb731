/** Headers whose values are credentials and never leave the process unredacted. */
export const SECRET_HEADERS = ['authorization', 'x-space-auth-key', 'cookie', 'set-cookie', 'proxy-authorization'];

export const REDACTED = '[REDACTED]';

// A JWT, or any piece of one: a base64url JSON object (`eyJ…`) and whatever segments follow,
// so that a token cut short by a message's length limit is still hidden.
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
const BASIC_OR_BEARER = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{6,}/gi;
// Credential fields inside quoted JSON (response bodies kept as evidence), even when cut short.
const CREDENTIAL_FIELD =
  /("(?:access_token|refresh_token|id_token|token|client_secret|clientSecret|password|secret)"\s*:\s*")[^"]*("?)/gi;

const knownSecrets = new Set<string>();

/** Registers a value (client secret, token) that must never be printed. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) knownSecrets.add(value);
}

/** Replaces every registered secret, anything shaped like a JWT and Basic/Bearer credentials. */
export function redactText(text: string): string {
  // A check's Expected/Received may be JSON.stringify of nothing (undefined), whatever its type says.
  let out = typeof text === 'string' ? text : String(text);
  for (const s of knownSecrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out
    .replace(CREDENTIAL_FIELD, (_m, head: string, tail: string) => `${head}${REDACTED}${tail}`)
    .replace(JWT_SHAPE, REDACTED)
    .replace(BASIC_OR_BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

/** A copy of `headers` with credential headers redacted. */
export function redactHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.includes(k.toLowerCase()) ? REDACTED : redactText(v);
  }
  return out;
}

/** Deep copy of a JSON-like value with every string redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        SECRET_HEADERS.includes(k.toLowerCase()) || /secret|password|access_token/i.test(k) ? REDACTED : redactValue(v);
    }
    return out as T;
  }
  return value;
}
