// What the jobs spec files share: starting a job and running one to its end (request builders), how
// the vocabulary judges a job, and the commands of the jobs model.
import {
  answered,
  answeredByReading,
  formatted,
  hasMembers,
  holds,
  jobProgressed,
  served,
} from '../engine/checks/index.ts';
import fc from 'fast-check';
import { where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  FINAL_STATES,
  UUID,
  body,
  entity,
  eventually,
  iso,
  pollJob,
  decodeResultEvents,
  send,
  seen,
  senderOf,
  type JobTrace,
} from './em-client.ts';
import { JOB_STATES } from './em-bounds.ts';
import { noteCreateJobResults, postCreateJob } from './em-resources.ts';

export function startDeleteJob(t: RuleContext, json: unknown): Promise<HttpResponse> {
  return send(t, { method: 'POST', path: '/deleteEventsJobs', json });
}

/** Polls a job started with answer `res` to its end; skips when it cannot (the job rules judge that elsewhere). */
export async function awaitJob(t: RuleContext, kind: 'create' | 'delete', res: HttpResponse): Promise<JobTrace> {
  if (res.status !== 202) t.skip(`a ${kind} job was refused (${seen(res, 160)}); judged by jobs/${kind}-job-202`);
  const trace = await pollJob(senderOf(t), kind, String(body(res).id));
  if (kind === 'create') noteCreateJobResults(t, trace.final?.details);
  if (trace.undocumented)
    t.skip(
      `the ${kind} job showed state ${JSON.stringify(trace.undocumented.state)}, outside the documented; judged by jobs/initial-state-accepted`,
    );
  if (!trace.final)
    t.skip(`the ${kind} job did not reach a final state (${seen(trace.last, 160)}); judged by jobs/transitions`);
  return trace;
}

/** Runs a create job of `events` to its end; skips when it cannot. */
export async function runCreateJob(t: RuleContext, events: unknown[]): Promise<JobTrace> {
  return awaitJob(t, 'create', await postCreateJob(t, events));
}

/** Runs a delete job for filter `f` to its end; skips when it cannot. */
export async function runDeleteJob(t: RuleContext, f: FilterExpr): Promise<JobTrace> {
  return awaitJob(t, 'delete', await startDeleteJob(t, { filter: f }));
}

/**
 * How `answeredByReading` judges a create job some of whose events are invalid: "more than 50
 * events in the payload" is the only 400 the document lists, and the job reports "the input event
 * on failure", so the job is accepted and its invalid events fail in it; a service may also refuse
 * such a payload whole (400), as the table of 400s is not said to be complete: that it does not is
 * our reading. A 5xx is never right.
 */
export const SOME_EVENTS_INVALID = { allowed: [202, 400], wanted: 202, reading: 'events-judged-in-job' } as const;

/** How `jobProgressed` judges the reads of a job: its rules and the documented states. */
export const JOB_PROGRESS = {
  rule: 'event-management/jobs/initial-state-accepted',
  finalRule: 'event-management/jobs/final-state-kept',
  detailsRule: 'event-management/jobs/details-in-final-states',
  states: JOB_STATES,
  final: FINAL_STATES,
} as const;

/** How `formatted` judges a job id. */
export const JOB_ID = { format: 'a uuid', is: (v: unknown) => UUID.test(String(v)) } as const;

/** How `hasMembers` judges a delete job's details. */
export const DELETE_DETAILS = { resultCode: 'string', resultDescription: 'string' } as const;

// ---------------------------------------------------------------- model
export interface JobEntry {
  kind: 'create' | 'delete';
  id: string;
  /** Expected outcome per input event of a create job: true when it must be created. */
  valid?: boolean[];
  states: string[];
  judged: boolean;
}

export interface JobsModel {
  jobs: JobEntry[];
}

export interface JobsReal {
  t: RuleContext;
  typeId: string;
  /** What was seen about transitions (the document shows none). */
  notes: { backwards: string[]; finalChanged: string[]; detailsEarly: string[]; sequences: string[] };
}

export class StartCreateJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(readonly valid: boolean[]) {}
  check = () => true;
  async run(m: JobsModel, r: JobsReal) {
    const events = this.valid.map((ok, i) =>
      ok
        ? { typeId: r.typeId, timestamp: iso(-60_000 - i * 1000), entityId: entity(r.t, i), n: i }
        : { typeId: r.typeId, timestamp: iso(-60_000), entityId: entity(r.t, i) },
    );
    const res = await postCreateJob(r.t, events);
    if (this.valid.every(Boolean))
      answered(r.t, { rule: 'event-management/jobs/create-job-202', res, what: 'a create job', statuses: [202] });
    else {
      const what = this.toString();
      answeredByReading(r.t, { rule: 'event-management/jobs/create-job-202', res, what, ...SOME_EVENTS_INVALID });
      if (res.status !== 202) return;
    }
    // A job's 202: ACCEPTED, with a UUID for its ID.
    jobProgressed(r.t, { ...JOB_PROGRESS, what: 'the 202 of a create job', before: [], job: body(res) });
    formatted(r.t, {
      rule: 'event-management/jobs/job-id-uuid',
      what: 'the job id',
      values: [body(res).id],
      ...JOB_ID,
    });
    m.jobs.push({ kind: 'create', id: String(body(res).id), valid: this.valid, states: ['ACCEPTED'], judged: false });
  }
  toString = () => `create job [${this.valid.map((v) => (v ? 'ok' : 'bad')).join(',')}]`;
}

export class StartDeleteJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  check = () => true;
  async run(m: JobsModel, r: JobsReal) {
    // Selects nothing (n is never negative): the model's create jobs stay intact.
    const res = await startDeleteJob(r.t, { filter: where({ typeId: r.typeId, n: -1 }) });
    answered(r.t, { rule: 'event-management/jobs/delete-job-202', res, what: 'a delete job', statuses: [202] });
    jobProgressed(r.t, { ...JOB_PROGRESS, what: 'the 202 of a delete job', before: [], job: body(res) });
    formatted(r.t, {
      rule: 'event-management/jobs/job-id-uuid',
      what: 'the job id',
      values: [body(res).id],
      ...JOB_ID,
    });
    m.jobs.push({ kind: 'delete', id: String(body(res).id), states: ['ACCEPTED'], judged: false });
  }
  toString = () => 'delete job (selects nothing)';
}

/** GET of a job: one read, judged against the reads before it. */
export class PollJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<JobsModel>) => m.jobs.length > 0;
  async run(m: JobsModel, r: JobsReal) {
    const job = m.jobs[this.pick % m.jobs.length];
    const res = await send(r.t, {
      method: 'GET',
      path: `/${job.kind === 'create' ? 'createEventsJobs' : 'deleteEventsJobs'}/${job.id}`,
    });
    await this.observe(r, job, res);
  }
  toString = () => `poll #${this.pick}`;

  /** One status read of a job, against what was seen before. */
  protected async observe(r: JobsReal, job: JobEntry, res: HttpResponse): Promise<void> {
    const t = r.t;
    const rule =
      job.kind === 'create' ? 'event-management/jobs/get-create-job-200' : 'event-management/jobs/get-delete-job-200';
    answered(t, { rule, res, what: `GET of a ${job.kind} job` });
    const j = body(res);
    holds(t, {
      rule: 'event-management/jobs/job-id-uuid',
      ok: j.id === job.id,
      failure: 'the job id changed',
      expected: job.id,
      received: String(j.id),
    });
    const move = jobProgressed(t, { ...JOB_PROGRESS, what: `a ${job.kind} job`, before: job.states, job: j });
    if (move.backwards) r.notes.backwards.push(`${move.from} -> ${move.to}`);
    if (move.leftFinal) r.notes.finalChanged.push(`${move.from} -> ${move.to}`);
    if (move.detailsEarly) r.notes.detailsEarly.push(move.to);
    if (move.to !== move.from) job.states.push(move.to);
    if (!move.ended || job.judged) return;
    job.judged = true;
    if (job.kind === 'delete') {
      hasMembers(t, {
        rule: 'event-management/jobs/delete-details',
        what: 'the details of a delete job',
        value: j.details,
        members: DELETE_DETAILS,
      });
      return;
    }
    const raw = JSON.stringify(j.details)?.slice(0, 300) ?? '';
    const asText = decodeResultEvents(j);
    holds(t, {
      reading: 'result-event-object',
      rule: 'event-management/jobs/create-details',
      ok: !asText,
      failure: 'a create job result gives event as JSON text',
      expected: 'event as a JSON object',
      received: raw,
    });
    noteCreateJobResults(t, j.details);
    const items = j.details?.resultDescription;
    const valid = job.valid ?? [];
    const list: any[] = Array.isArray(items) ? items : [];
    const created = list.filter((it) => String(it?.resultCode) === '201');
    const failed = list.filter((it) => String(it?.resultCode) !== '201');
    const createdNs = created.map((it) => it?.event?.n).sort();
    const wantNs = valid.flatMap((v, i) => (v ? [i] : [])).sort();
    // One item per input event, each valid one created and each invalid one an error with its event: the document.
    holds(t, {
      rule: 'event-management/jobs/create-details',
      ok:
        list.length === valid.length &&
        created.every((it) => typeof it?.event?.id === 'string') &&
        JSON.stringify(createdNs) === JSON.stringify(wantNs) &&
        failed.every((it) => typeof it?.errorMessage === 'string' && !!it?.event),
      failure: 'the create job results do not match the input',
      expected: `one item per event: ${valid.map((v) => (v ? '201 with the event' : 'an error with the input event')).join(', ')}`,
      received: String(JSON.stringify(items)).slice(0, 300),
    });
    // In input order: our reading.
    holds(t, {
      reading: 'results-in-input-order',
      rule: 'event-management/jobs/create-details',
      ok: list.every((it, i) =>
        valid[i] ? String(it?.resultCode) === '201' && it.event?.n === i : String(it?.resultCode) !== '201',
      ),
      failure: 'the create job results are not in input order',
      expected: valid.map((v) => (v ? '201' : 'error')).join(', '),
      received: () => String(JSON.stringify(items)).slice(0, 300),
    });
    for (const it of (items as any[]).filter((x) => String(x?.resultCode) === '201')) {
      const got = await eventually(
        () => send(t, { method: 'GET', path: `/events/${it.event.id}` }),
        (x) => x.status === 200,
      );
      served(t, {
        rule: 'event-management/jobs/create-job-creates-events',
        res: got.value,
        what: `an event the job reports created (${it.event.id})`,
      });
    }
  }
}

/** Polls a job to its end, judging every read on the way, as a poll of it would. */
export class AwaitJob extends PollJob {
  override async run(m: JobsModel, r: JobsReal) {
    const job = m.jobs[this.pick % m.jobs.length];
    const trace = await pollJob(senderOf(r.t), job.kind, job.id);
    for (const s of trace.seen) await this.observe(r, job, { ...trace.last, status: s.status, json: s.job });
    holds(r.t, {
      rule:
        job.kind === 'create' ? 'event-management/jobs/get-create-job-200' : 'event-management/jobs/get-delete-job-200',
      ok: !!trace.final,
      failure: 'a job did not reach a final state',
      expected: 'FINISHED or FINISHED_WITH_ERROR',
      received: seen(trace.last, 160),
    });
  }
  override toString = () => `await #${this.pick}`;
}
