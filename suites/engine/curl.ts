import { isCredentialName, redactText } from './redact.ts';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The body's whole size in bytes, when `body` holds only its start (the evidence limit cut it). */
  bodyBytes?: number;
  /** Multipart parts, shown as `-F` arguments. */
  form?: Array<{ name: string; value?: string; filename?: string; size?: number }>;
}

/**
 * A request as a curl command, or why no curl reproduces it (`noCurl`: what of the request a
 * command line cannot carry; the replay command sends it as it was).
 */
export type Curl = { command: string; noCurl?: undefined } | { command?: undefined; noCurl: string };

/** POSIX shell single-quoting. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the reader of a curl gets a credential the run sent: what `conformance token` prints for the
 * principal (`key`: with `--space-auth-key`), the header value being that text (`Bearer ` before
 * a token).
 */
export interface CredentialSource {
  /** As `conformance token --principal` takes it (`full`, `otherTenant`, `without:SCOPE`, …). */
  principal: string;
  kind: 'token' | 'key';
}

const SOURCES = new Map<string, CredentialSource>();
/** Credentials noted at most (a run sends a few tokens per principal; a renewal adds one). */
const MAX_SOURCES = 10_000; // not a contract bound: credentials a curl can name by principal

/**
 * Notes that a header value the run sends is the credential `conformance token` prints for a
 * principal, so that a curl carrying it names that principal to its reader. The first principal
 * noted for a value keeps it. A credential noted nowhere (one a test made: a tampered token, a
 * key with a wrong secret; or a token for a user tenant of its choosing) is never shown as one.
 */
export function noteCredentialSource(headerValue: string, source: CredentialSource): void {
  if (headerValue && !SOURCES.has(headerValue) && SOURCES.size < MAX_SOURCES) SOURCES.set(headerValue, source);
}

/** Where a curl's hint names the run configuration; the report puts the file the user gave in its place. */
export const CONFIG_PLACEHOLDER = '--config YOUR-RUN.json';

/** A principal's name as the hint may carry it inside a double-quoted word (none that the shell would expand). */
const PLAIN_NAME = /^[\w:.@%+=,/-]+$/;

/**
 * The environment variable that holds a principal's credential for a curl: its own per principal,
 * so that a shell holding the main principal's token stops at a curl of another and says which.
 */
export function credentialVariable(source: CredentialSource): string {
  const base = source.kind === 'token' ? 'CONFORMANCE_TOKEN' : 'CONFORMANCE_SPACE_AUTH_KEY';
  return source.principal === 'full' ? base : `${base}_${source.principal.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/**
 * A credential header that takes its value from the environment of whoever runs the curl: unset,
 * the shell stops and says how to get it (`conformance token`, naming the principal).
 */
function fromEnvironment(name: string, source: CredentialSource): string | undefined {
  if (!PLAIN_NAME.test(name) || !PLAIN_NAME.test(source.principal)) return undefined;
  const variable = credentialVariable(source);
  const prefix = source.kind === 'token' ? 'Bearer ' : '';
  const flags = `${source.principal === 'full' ? '' : ` --principal ${source.principal}`}${source.kind === 'key' ? ' --space-auth-key' : ''}`;
  // Double quotes so that the shell expands the variable; `\$(` keeps the hint's command from running.
  return `"${name}: ${prefix}\${${variable}:?set it first: export ${variable}=\\$(npx conformance token ${CONFIG_PLACEHOLDER}${flags})}"`;
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

/** Why a curl cannot carry a credential header the run sent as it was. */
function credentialNotCarried(name: string): string {
  return `its ${redactText(name)} header carried a credential that "conformance token" does not print (one the test made, such as a malformed or tampered token or a key with a wrong secret, or one obtained for another user tenant or client), and a report never shows a credential`;
}

/** Why a curl cannot carry a request whose text redaction changes: it would send something else. */
const REDACTED_PART = 'a part of its request holds what a report never shows (a secret, or a value shaped like one)';

/**
 * The curl command that reproduces a request: the target and the principal's credentials from the
 * environment of whoever runs it, none written. When a curl cannot send the request as it was (a
 * body the evidence limit cut; a credential header no principal of the run holds, which no report
 * shows whatever it is; a part redaction would change), there is none: `noCurl` says why, and a
 * runnable curl never sends something else in its place.
 */
export function curlOf(req: CurlRequest): Curl {
  if (req.bodyBytes !== undefined)
    return {
      noCurl: `its body is ${req.bodyBytes} bytes, more than a report keeps of a request: a curl would send only a part`,
    };
  const parts = [
    'curl',
    '-sS',
    '-i',
    '-X',
    req.method.toUpperCase(),
    `${TARGET_FROM_ENVIRONMENT}${shellQuote(pathOf(req.url))}`,
  ];
  /** Whether redaction leaves a text as it is: else the curl would send another request. */
  const shown = (text: string) => redactText(text) === text;
  if (!shown(pathOf(req.url))) return { noCurl: REDACTED_PART };
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || (req.form && k.toLowerCase() === 'content-type')) continue;
    if (isCredentialName(k)) {
      // Only a principal's own credential, taken from its reader's environment; any other (made by
      // the test, malformed or tampered) is never written, whatever redaction would leave of it.
      const word = SOURCES.has(v) ? fromEnvironment(k, SOURCES.get(v)!) : undefined;
      if (word === undefined) return { noCurl: credentialNotCarried(k) };
      parts.push('-H', word);
      continue;
    }
    if (!shown(k) || !shown(v)) return { noCurl: REDACTED_PART };
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (req.form) {
    for (const p of req.form) {
      if (!shown(p.name) || !shown(p.value ?? '')) return { noCurl: REDACTED_PART };
      parts.push('-F', shellQuote(p.filename ? `${p.name}=@${p.filename}` : `${p.name}=${p.value ?? ''}`));
    }
  } else if (req.body !== undefined && req.body !== '') {
    if (!shown(req.body)) return { noCurl: REDACTED_PART };
    parts.push('--data-raw', shellQuote(req.body));
  }
  return { command: parts.join(' ') };
}

/** The curl command of a request, or undefined when none reproduces it (`curlOf` says why). */
export function toCurl(req: CurlRequest): string | undefined {
  return curlOf(req).command;
}
