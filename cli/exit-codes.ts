/**
 * Exit codes of `conformance run` (README, "Exit codes"). When several apply, a failed rule (1)
 * wins over the early ends (5, then 4), and those over a stale baseline (6).
 */
export const EXIT = {
  passed: 0,
  failed: 1,
  usage: 2,
  unreachable: 3,
  timedOut: 4,
  unresponsive: 5,
  staleBaseline: 6,
  /** An error of the tool itself (a defect): the message and its stack on stderr. */
  internal: 70,
  sigint: 130,
  sigterm: 143,
} as const;

/**
 * The exits that end a command before any report is written, each annotated in GitHub Actions by
 * the command itself (`cli/main.ts`): the Action adds no annotation of its own for them.
 */
export const EXITS_WITHOUT_REPORT: readonly number[] = [EXIT.usage, EXIT.unreachable, EXIT.internal];
