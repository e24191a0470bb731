import type { RuleFailure } from '../suites/engine/rule-test.ts';

/** One part of a failure block: a label and its text. */
export interface BlockPart {
  label: 'Expected' | 'Received' | 'Counterexample' | 'Seed' | 'Reproduce with' | 'Note' | 'Replay';
  text: string;
}

export interface FailureBlockOptions {
  /** Received is cut to this many characters (the report keeps it whole). */
  receivedMax?: number;
}

/**
 * Why a failure's curl alone does not reproduce it: the request names a resource the run created,
 * which its cleanup deletes (the curl then meets a resource that does not exist); replay creates it again.
 */
export function createdNote(created: NonNullable<RuleFailure['created']>): string {
  return `the request names ${created.kind} ${created.id}, which the run created and its cleanup deletes: the curl alone cannot recreate it; the replay command does`;
}

/** Why a failure has no curl (`failure.noCurl`), and, where there is one, that the replay command reproduces it. */
export function noCurlNote(noCurl: string, replay: boolean): string {
  return `no curl: ${noCurl}${replay ? '; the replay command sends the request as it was' : ''}`;
}

/**
 * The notes of a failure: why it has no curl, or why its curl alone does not reproduce it (a
 * resource the run created, which the replay command creates again). Every writer shows these.
 */
export function failureNotes(f: Pick<RuleFailure, 'curl' | 'noCurl' | 'created'> & { replay?: string }): string[] {
  if (f.noCurl) return [noCurlNote(f.noCurl, !!f.replay)];
  return f.replay && f.created && f.curl ? [createdNote(f.created)] : [];
}

/**
 * The parts of one failure's block, in the one order every writer shows them (Schemathesis'
 * failure block): Expected, Received, the shrunk counterexample, seed and path, "Reproduce with:"
 * the curl, a note when there is none or it alone cannot recreate what it names, and the
 * command that replays it. Writers escape each part for where they write it.
 */
export function failureBlock(
  f: Pick<RuleFailure, 'expected' | 'received' | 'counterexample' | 'seed' | 'path' | 'curl' | 'noCurl' | 'created'> & {
    replay?: string;
  },
  opts: FailureBlockOptions = {},
): BlockPart[] {
  const received = String(f.received);
  const parts: BlockPart[] = [
    { label: 'Expected', text: String(f.expected) },
    {
      label: 'Received',
      text:
        opts.receivedMax !== undefined && received.length > opts.receivedMax
          ? `${received.slice(0, opts.receivedMax)}…`
          : received,
    },
  ];
  if (f.counterexample !== undefined) parts.push({ label: 'Counterexample', text: JSON.stringify(f.counterexample) });
  if (f.seed !== undefined) parts.push({ label: 'Seed', text: `${f.seed}${f.path ? ` path ${f.path}` : ''}` });
  if (f.curl) parts.push({ label: 'Reproduce with', text: f.curl });
  for (const note of failureNotes(f)) parts.push({ label: 'Note', text: note });
  if (f.replay) parts.push({ label: 'Replay', text: f.replay });
  return parts;
}

/**
 * The block as text lines: `Label: text`, the curl on the line under its label; each line indented
 * by `indent`, every text through `escape` whole (a line break the text carries is the escape's to
 * show: it never starts a line of its own, where a target could write "Conformance PASSED").
 */
export function failureBlockLines(
  parts: readonly BlockPart[],
  indent: string,
  escape: (s: string) => string = (s) => s,
): string[] {
  return parts.flatMap((p) =>
    p.label === 'Reproduce with'
      ? [`${indent}${p.label}:`, `${indent}  ${escape(p.text)}`]
      : [`${indent}${p.label}: ${escape(p.text)}`],
  );
}
