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

/**
 * Where a curl's request goes: the deployment its reader names in CONFORMANCE_TARGET, never the
 * host the run was against. A curl travels (a report, a CI log, a ticket), and the credentials it
 * takes from its reader's environment must reach that reader's deployment only.
 */
export const TARGET_FROM_ENVIRONMENT =
  '"${CONFORMANCE_TARGET:?set it to the deployment to send this to, e.g. export CONFORMANCE_TARGET=https://staging.example.com}"';

/** The path and query of an absolute URL as written (no normalisation: a test may send odd paths on purpose). */
function pathOf(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  return origin ? url.slice(origin[0].length) : url;
}

/**
 * A shell-quoted curl command that reproduces a request: the target and the credentials from the
 * environment of whoever runs it, none written.
 */
export function toCurl(req: CurlRequest): string {
  const parts = [
    'curl',
    '-sS',
    '-i',
    '-X',
    req.method.toUpperCase(),
    `${TARGET_FROM_ENVIRONMENT}${shellQuote(redactText(pathOf(req.url)))}`,
  ];
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
