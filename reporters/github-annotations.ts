import type { ConformanceReport } from './conformance-report.ts';
import { failureBlock, failureBlockLines } from './failure-block.ts';
import { forWorkflowCommand, forWorkflowCommandProperty } from './untrusted-text.ts';

/** Annotations shown at most: GitHub shows 10 errors per step anyway; the rest are in the summary. */
export const MAX_ANNOTATIONS = 50;

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
    return `::error title=${forWorkflowCommandProperty(r.id)}::${forWorkflowCommand(message)}`;
  });
  if (failed.length > MAX_ANNOTATIONS)
    lines.push(
      `::error title=${forWorkflowCommandProperty('more failed rules')}::${failed.length - MAX_ANNOTATIONS} more in the report`,
    );
  return lines;
}
