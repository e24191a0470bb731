import type { ConformanceReport } from './conformance-report.ts';
import { failureBlock, failureBlockLines } from './failure-block.ts';

/** Annotations shown at most: GitHub shows 10 errors per step anyway; the rest are in the summary. */
export const MAX_ANNOTATIONS = 50;

// Terminal control characters (C0 but tab and line breaks, DEL, C1): the target's answers reach
// the log through the annotations, and must not drive the reader's terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A workflow command's message, escaped as GitHub's runner unescapes it: %, CR, LF. */
export function escapeData(text: string): string {
  return text.replace(CONTROL, '').replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: the message's escapes, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One `::error` workflow command per failed rule (titled with the rule ID; the message says what
 * was expected and received), at most MAX_ANNOTATIONS, then one line saying how many more.
 * Accepted (baselined) failures are not annotated: they do not fail the run.
 */
export function annotations(report: ConformanceReport): string[] {
  const accepted = new Set(report.baseline?.accepted ?? []);
  const failed = report.rules.filter((r) => r.status === 'failed' && !accepted.has(r.id));
  const lines = failed.slice(0, MAX_ANNOTATIONS).map((r) => {
    const f = r.failure;
    const message = [
      f
        ? [
            f.title,
            ...failureBlockLines(
              // The curl is in the report the annotation's run links to; the replay line stays.
              failureBlock(f, { receivedMax: 500 }).filter((p) => p.label !== 'Reproduce with'),
              '',
            ),
          ].join('\n')
        : '',
      `${r.level}: ${r.quote}`,
    ]
      .filter(Boolean)
      .join('\n');
    return `::error title=${escapeProperty(r.id)}::${escapeData(message)}`;
  });
  if (failed.length > MAX_ANNOTATIONS)
    lines.push(
      `::error title=${escapeProperty('more failed rules')}::${failed.length - MAX_ANNOTATIONS} more in the report`,
    );
  return lines;
}
