import { redactText } from '../suites/engine/redact.ts';

/**
 * The one place that neutralises text other people control (a target's answers, a HAR, a report
 * or a bundle someone handed over) for where it is written: a terminal or a CI log, an HTML page,
 * Markdown, XML or a GitHub workflow command. Every writer calls it at the point of writing; the
 * console guard (`guardStream`) is the second line, for anything a writer forgot.
 */

// C0 controls but tab and newline, DEL, C1 controls, and the Unicode characters that reorder or
// hide text on screen (bidirectional overrides and isolates, line and paragraph separators).
// eslint-disable-next-line no-control-regex
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character but newline and tab shown as `\xNN`. */
function controlsShown(text: unknown): string {
  return asText(text).replace(TERMINAL_UNSAFE, visible);
}

// GitHub's runner reads a workflow command in any line of a step's output: the legacy `##[name]`
// anywhere in the line, `::name::` at its start once leading white space is trimmed. A target's
// text gets a backslash in each, `##\[` and `:\:`, which the runner does not read and a person
// still does. (The run also stops the runner's commands while it prints: github-reporter.ts.)
const LEGACY_COMMAND = /##\[/g;
const LINE_START_COMMAND = /(^|\n)([^\S\n]*)::/g;

/** `s` with no workflow command GitHub's runner would read: `##[` shown as `##\[` anywhere, `::` at a line's start as `:\:`. */
function commandsInert(s: string): string {
  return s.replace(LEGACY_COMMAND, '##\\[').replace(LINE_START_COMMAND, '$1$2:\\:');
}

/**
 * `text` with every control character but newline and tab shown as `\xNN`, and no workflow command
 * a CI runner would read (`##\[`, a line's leading `:\:`): safe to print on any terminal or CI log.
 */
export function forTerminal(text: unknown): string {
  return commandsInert(controlsShown(text));
}

/** Any value as text: strings as they are, other values as JSON (what a report or HAR holds). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Like `forTerminal`, and newlines and tabs shown too: for a value that must stay on one line. */
export function forTerminalLine(text: unknown): string {
  return forTerminal(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` as HTML text or an attribute value: markup shown as text, control characters shown as `\xNN`. */
export function forHtml(text: unknown): string {
  return controlsShown(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/**
 * Text in an XML 1.0 document (JUnit): escaped, the characters XML forbids even escaped shown as
 * `\xNN`, and workflow commands broken as for a terminal (CI steps that read JUnit print its
 * failure messages to their log).
 */
export function forXml(text: unknown): string {
  return forHtml(forTerminal(text)).replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g,
    visible,
  );
}

// Characters that make inline Markdown syntax, HTML or a GitHub mention (the value never starts a
// line, so the line-start syntax of headings and lists cannot be made from it).
const MARKDOWN_SPECIAL = /[\\`*_[\]|<>&~@#]/g;

/**
 * `text` as inline Markdown (a table cell, a list item): markup and HTML inert, control
 * characters shown, on one line, at most `max` characters.
 */
export function forMarkdown(text: unknown, max = Infinity): string {
  // `#` and `[` are escaped below, so a legacy workflow command is broken too.
  let s = controlsShown(text).replace(/\s+/g, ' ');
  if (s.length > max) s = `${s.slice(0, max)}…`;
  return s.replace(MARKDOWN_SPECIAL, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '|' ? '\\|' : `\\${c}`,
  );
}

/** `text` as a Markdown code span: shown literally, whatever backticks or markup it holds. */
export function markdownCode(text: unknown, max = Infinity): string {
  // A summary.md printed to a CI log must not carry a workflow command inside its code spans.
  let s = forTerminal(text).replace(/\s+/g, ' ').trim();
  if (s.length > max) s = `${s.slice(0, max)}…`;
  // A code span cannot hold `|` inside a table cell unescaped, nor HTML; `&lt;` is not decoded in code.
  s = s.replace(/\|/g, '¦').replace(/</g, '‹').replace(/>/g, '›');
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s || ' '}${pad}${fence}`;
}

/**
 * `text` as the message of one of the tool's own GitHub workflow commands (`::error …::message`):
 * shown as for a terminal (a carriage return as `\x0d`), then `%` and line feeds escaped as the
 * runner unescapes them, so the command stays one line.
 */
export function forWorkflowCommand(text: unknown): string {
  return forTerminal(text).replace(/%/g, '%25').replace(/\n/g, '%0A');
}

/** `text` as a property value of a workflow command (`title=…`): the message's escapes, and `:` and `,`, which end a property. */
export function forWorkflowCommandProperty(text: unknown): string {
  return forWorkflowCommand(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

type Writable = { write: (chunk: string | Uint8Array, ...rest: never[]) => boolean };

const guarded = new WeakSet<object>();

/**
 * Makes `stream` show every control character written to it (but newline and tab) as `\xNN`, and
 * Makes `stream` show every control character written to it (but newline and tab) as `\xNN`, every
 * workflow command as `##\[` or `:\:`, and every secret the run registered as `[REDACTED]`,
 * whatever wrote it (an internal error's message and stack included): the console's last line of
 * defence against a target's escape sequences and CI commands and against a secret in a message.
 * (The tool's own colour and commands go past it through `Terminal`.)
 */
export function guardStream(stream: Writable): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  (stream as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk;
    return write(typeof text === 'string' ? forTerminal(redactText(text)) : text, ...rest);
  };
}

// JSON.stringify escapes C0 controls but leaves DEL, C1 controls and the reordering characters raw.
const JSON_UNSAFE = /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** JSON text of `value` in which every character a terminal could act on is a `\uXXXX` escape (same value). */
export function jsonForFile(value: unknown, space?: number): string {
  return jsonTextForFile(JSON.stringify(value, null, space));
}

/** `jsonForFile` of JSON text already made (by `JSON.stringify`): the same escapes. */
export function jsonTextForFile(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
