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

/**
 * Credentials a curl takes from the environment rather than from the report (which holds none):
 * unset, the shell stops and says how to get one (`conformance token`).
 */
const FROM_ENVIRONMENT: Record<string, { variable: string; value: (v: string) => string | undefined; flag: string }> = {
  authorization: {
    variable: 'CONFORMANCE_TOKEN',
    value: (v) => (/^\s*bearer\s/i.test(v) ? 'Bearer ' : undefined),
    flag: '',
  },
  'x-space-auth-key': { variable: 'CONFORMANCE_SPACE_AUTH_KEY', value: () => '', flag: ' --space-auth-key' },
};

/** Where a curl's hint names the run configuration; the report puts the file the user gave in its place. */
export const CONFIG_PLACEHOLDER = '--config YOUR-RUN.json';

function fromEnvironment(name: string, value: string): string | undefined {
  const env = FROM_ENVIRONMENT[name.toLowerCase()];
  const prefix = env?.value(value);
  if (!env || prefix === undefined) return undefined;
  // Double quotes so that the shell expands the variable; `\$(` keeps the hint's command from running.
  return `"${name}: ${prefix}\${${env.variable}:?set it first: export ${env.variable}=\\$(npx conformance token ${CONFIG_PLACEHOLDER}${env.flag})}"`;
}

/** A shell-quoted curl command that reproduces a request: credentials from the environment, none written. */
export function toCurl(req: CurlRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method.toUpperCase(), shellQuote(redactText(req.url))];
  for (const [k, v] of Object.entries(redactHeaders(req.headers))) {
    if (req.form && k.toLowerCase() === 'content-type') continue;
    parts.push('-H', fromEnvironment(k, req.headers[k] ?? '') ?? shellQuote(`${k}: ${v}`));
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
