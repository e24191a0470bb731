import { redactHeaders, redactText } from './redact.ts';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Multipart parts, shown as `-F` arguments. */
  form?: Array<{ name: string; value?: string; filename?: string; size?: number }>;
}

/** POSIX shell single-quoting. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const MAX_BODY_IN_CURL = 4096;

/** A shell-quoted curl command that reproduces a request, with credentials redacted. */
export function toCurl(req: CurlRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method.toUpperCase(), shellQuote(redactText(req.url))];
  for (const [k, v] of Object.entries(redactHeaders(req.headers))) {
    if (req.form && k.toLowerCase() === 'content-type') continue;
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (req.form) {
    for (const p of req.form) {
      parts.push('-F', shellQuote(p.filename ? `${p.name}=@${p.filename}` : `${p.name}=${redactText(p.value ?? '')}`));
    }
  } else if (req.body !== undefined && req.body !== '') {
    const body =
      req.body.length > MAX_BODY_IN_CURL
        ? `${req.body.slice(0, MAX_BODY_IN_CURL)}…(${req.body.length} bytes)`
        : req.body;
    parts.push('--data-raw', shellQuote(redactText(body)));
  }
  return parts.join(' ');
}
