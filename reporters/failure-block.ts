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

/**
 * The parts of one failure's block, in the one order every writer shows them (Schemathesis'
 * failure block): Expected, Received, the shrunk counterexample, seed and path, "Reproduce with:"
 * the curl, a note when the curl alone cannot recreate what it names, and the command that
 * replays it. Writers escape each part for where they write it.
 */
export function failureBlock(
  f: Pick<RuleFailure, 'expected' | 'received' | 'counterexample' | 'seed' | 'path' | 'curl' | 'created'> & {
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
  if (f.replay && f.created) parts.push({ label: 'Note', text: createdNote(f.created) });
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
