import { knownFailures } from './baseline.ts';
import { gatingFailures, type ConformanceReport } from './conformance-report.ts';
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

/** A few rule IDs, then how many more. */
const some = (ids: readonly string[]) =>
  `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;

/**
 * Why a run that wrote `report` exits `code` (not 0), in one line: the new failures, errors
 * outside the tests, an early end, stale baseline entries; what the baseline accepted besides.
 */
export function runExitReason(report: ConformanceReport, code: number): string {
  const newFailures = report.baseline ? report.baseline.newFailures : gatingFailures(report.rules).map((r) => r.id);
  const notExercised = report.counts.byStatus['not-exercised'];
  const parts: string[] = [];
  if (newFailures.length)
    parts.push(`${newFailures.length} rule${newFailures.length === 1 ? '' : 's'} failed (${some(newFailures)})`);
  if (report.errors.length)
    parts.push(
      `${report.errors.length} error${report.errors.length === 1 ? '' : 's'} outside the tests (the first: ${report.errors[0].slice(0, 200)})`,
    );
  if (report.stopped)
    parts.push(
      `${report.stopped.reason === 'timed-out' ? 'timed out' : 'the target stopped answering'}: ${report.stopped.detail}; ${notExercised} rules not exercised`,
    );
  else if (report.interrupted) parts.push(`the run was interrupted; ${notExercised} rules not exercised`);
  if (report.baseline?.stale.length)
    parts.push(
      `stale baseline entries, listed in ${report.baseline.file} and now passing (remove them): ${some(report.baseline.stale)}`,
    );
  if (report.baseline?.accepted.length)
    parts.push(`${knownFailures(report.baseline.accepted.length)} accepted by the baseline`);
  return `exit ${code}: ${parts.join('; ') || 'the run failed'}`;
}

/**
 * The one annotation that says why a command exits non-zero: after a run, `runExitReason`; when
 * it ends before writing a report (bad usage or configuration, an unreachable target), its error.
 */
export function exitAnnotation(command: string, why: string): string {
  return `::error title=${forWorkflowCommandProperty(`conformance ${command}`)}::${forWorkflowCommand(why)}`;
}
