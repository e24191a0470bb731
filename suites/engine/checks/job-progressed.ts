import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge } from './judge.ts';

/** What `jobProgressed` judges: one read of a job-like resource, against the states read before it. */
export type JobProgressedOptions = {
  /**
   * The rule its states rest on: every read shows one of `states`, the first read `states[0]`
   * (not judged without it: recorded traffic does not show which read was the first).
   */
  rule?: string;
  /** The rule that a final state is final: read again, it is the same. */
  finalRule: string;
  /** The rule that a final state carries the job's `details`, where the resource has them. */
  detailsRule?: string;
  /** The job, as failures name it (`a create job`). */
  what: string;
  /** The documented states, in the order a job moves through them, and those that end it. */
  states: readonly string[];
  final: readonly string[];
  /** The distinct states read before, in order (none: this is the first read). */
  before: readonly string[];
  /** The job as read now. */
  job: { state?: unknown; details?: unknown };
  /** High unless told. */
  severity?: Severity;
};

/** How a read moved the job: what the document shows no rule for is told, for the test to observe. */
export interface JobMove {
  /** The state read before this one (undefined on the first read), and this one. */
  from: string | undefined;
  to: string;
  /** A state earlier in `states` than the one before. */
  backwards: boolean;
  /** A final state left for another. */
  leftFinal: boolean;
  /** Details before a final state. */
  detailsEarly: boolean;
  /** The job has ended. */
  ended: boolean;
}

/**
 * A job's states move through the documented ones: the first read shows the first state, every
 * read a documented one, a final state is read again unchanged and carries its details.
 */
export function jobProgressed(t: RuleContext, o: JobProgressedOptions): JobMove {
  const severity = o.severity ?? 'high';
  const to = String(o.job.state);
  const from = o.before.length ? o.before[o.before.length - 1] : undefined;
  const first = from === undefined;
  const rank = (s: string | undefined) => o.states.indexOf(s as string);
  const ended = o.final.includes(to);
  if (o.rule !== undefined)
    judge(
      t,
      o.rule,
      first ? to === o.states[0] : rank(to) >= 0,
      {
        title: first ? `${o.what} does not start ${o.states[0]}` : `${o.what} in a state outside the documented`,
        severity,
        expected: first ? `state ${o.states[0]}` : o.states.join(', '),
        received: JSON.stringify(o.job),
      },
      {},
    );
  const leftFinal = from !== undefined && o.final.includes(from) && to !== from;
  if (from !== undefined && o.final.includes(from))
    judge(
      t,
      o.finalRule,
      !leftFinal,
      {
        title: `${o.what} left its final state`,
        severity,
        expected: `state ${from} again (a job ends in ${o.final.join(' or ')})`,
        received: `${o.before.join(' > ')} > ${to}`,
      },
      {},
    );
  if (ended && o.detailsRule !== undefined)
    judge(
      t,
      o.detailsRule,
      o.job.details !== undefined && o.job.details !== null,
      { title: `${o.what} ${to} without details`, severity, expected: 'details', received: JSON.stringify(o.job) },
      {},
    );
  return {
    from,
    to,
    backwards: rank(to) < rank(from),
    leftFinal,
    detailsEarly: !ended && o.job.details !== undefined,
    ended,
  };
}
