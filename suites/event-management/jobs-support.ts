// What the jobs spec files share.
import { accepted, holds, answered } from '../engine/checks/index.ts';
import fc from 'fast-check';
import { where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  FINAL_STATES,
  JOB_STATES,
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
  shown,
} from './em-client.ts';
import { noteCreateJobResults, postCreateJob } from './em-resources.ts';

export const rank = (state: unknown) => JOB_STATES.indexOf(state as (typeof JOB_STATES)[number]);
export const isFinal = (state: unknown) => (FINAL_STATES as readonly unknown[]).includes(state);

export function startDeleteJob(t: RuleContext, json: unknown): Promise<HttpResponse> {
  return send(t, { method: 'POST', path: '/deleteEventsJobs', json });
}

/**
 * The answer to a create job some of whose events are invalid: "more than 50 events in the payload" is
 * the only 400 the document lists, and the job reports "the input event on failure", so the job is
 * accepted and its invalid events fail in it; a service may also refuse such a payload whole (400), as
 * the table of 400s is not said to be complete: that it does not is our reading. A 5xx is never right.
 */
export function judgeMixedCreateJob(t: RuleContext, res: HttpResponse, what: string): void {
  const rule = 'event-management/jobs/create-job-202';
  holds(t, {
    rule: rule,
    ok: [202, 400].includes(res.status),
    failure: `a create job refused: ${what}`,
    expected: 'HTTP 202 (or 400)',
    received: seen(res),
  });
  holds(t, {
    reading: 'events-judged-in-job',
    rule: rule,
    ok: res.status === 202,
    failure: `the payload refused whole: ${what}`,
    expected: 'HTTP 202',
    received: () => seen(res),
  });
}

/** Runs a create job to its end; skips when it cannot (the job rules judge that elsewhere). */
export async function runCreateJob(
  t: RuleContext,
  events: unknown[],
  opts: { someInvalid?: boolean } = {},
): Promise<JobTrace> {
  const res = await postCreateJob(t, events);
  const what = `a create job of ${events.length} events`;
  if (t.declares('event-management/jobs/create-job-202') && opts.someInvalid) judgeMixedCreateJob(t, res, what);
  else if (t.declares('event-management/jobs/create-job-202'))
    accepted(t, { rule: 'event-management/jobs/create-job-202', res, what, statuses: [202] });
  if (res.status !== 202) t.skip(`a create job was refused (${seen(res, 160)}); judged by jobs/create-job-202`);
  const trace = await pollJob(senderOf(t), 'create', String(body(res).id));
  noteCreateJobResults(t, trace.final?.details);
  if (trace.undocumented)
    t.skip(
      `the create job showed state ${JSON.stringify(trace.undocumented.state)}, outside the documented; judged by jobs/initial-state-accepted`,
    );
  if (!trace.final)
    t.skip(`the create job did not reach a final state (${seen(trace.last, 160)}); judged by jobs/transitions`);
  return trace;
}

/** Runs a delete job to its end. */
export async function runDeleteJob(t: RuleContext, f: FilterExpr): Promise<JobTrace> {
  const res = await startDeleteJob(t, { filter: f });
  if (t.declares('event-management/jobs/delete-job-202'))
    accepted(t, {
      rule: 'event-management/jobs/delete-job-202',
      res,
      what: `a delete job for ${shown(f)}`,
      statuses: [202],
    });
  else if (res.status !== 202) t.skip(`a delete job was refused (${seen(res, 160)}); judged by jobs/delete-job-202`);
  const trace = await pollJob(senderOf(t), 'delete', String(body(res).id));
  if (trace.undocumented)
    t.skip(
      `the delete job showed state ${JSON.stringify(trace.undocumented.state)}, outside the documented; judged by jobs/initial-state-accepted`,
    );
  if (!trace.final)
    t.skip(`the delete job did not reach a final state (${seen(trace.last, 160)}); judged by jobs/transitions`);
  return trace;
}

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
      judgeMixedCreateJob(r.t, res, this.toString());
      if (res.status !== 202) return;
    }
    judgeNewJob(r.t, res, 'create');
    m.jobs.push({ kind: 'create', id: String(body(res).id), valid: this.valid, states: ['ACCEPTED'], judged: false });
  }
  toString = () => `create job [${this.valid.map((v) => (v ? 'ok' : 'bad')).join(',')}]`;
}

/** A job's 202: ACCEPTED, with a UUID for its ID. */
function judgeNewJob(t: RuleContext, res: HttpResponse, kind: 'create' | 'delete'): void {
  holds(t, {
    rule: 'event-management/jobs/initial-state-accepted',
    ok: body(res).state === 'ACCEPTED',
    failure: `the 202 of a ${kind} job is not ACCEPTED`,
    expected: 'state ACCEPTED',
    received: JSON.stringify(body(res)),
  });
  holds(t, {
    rule: 'event-management/jobs/job-id-uuid',
    ok: UUID.test(String(body(res).id)),
    failure: 'the job id is not a uuid',
    expected: 'a uuid',
    received: String(body(res).id),
  });
}

export class StartDeleteJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  check = () => true;
  async run(m: JobsModel, r: JobsReal) {
    // Selects nothing (n is never negative): the model's create jobs stay intact.
    const res = await startDeleteJob(r.t, { filter: where({ typeId: r.typeId, n: -1 }) });
    answered(r.t, { rule: 'event-management/jobs/delete-job-202', res, what: 'a delete job', statuses: [202] });
    judgeNewJob(r.t, res, 'delete');
    m.jobs.push({ kind: 'delete', id: String(body(res).id), states: ['ACCEPTED'], judged: false });
  }
  toString = () => 'delete job (selects nothing)';
}

/** Checks one status read of a job against what was seen before. */
export async function observeJob(r: JobsReal, job: JobEntry, res: HttpResponse): Promise<void> {
  const t = r.t;
  const rule =
    job.kind === 'create' ? 'event-management/jobs/get-create-job-200' : 'event-management/jobs/get-delete-job-200';
  holds(t, {
    rule: rule,
    ok: res.status === 200,
    failure: `GET of a ${job.kind} job not answered 200`,
    expected: 'HTTP 200',
    received: seen(res, 160),
  });
  const j = body(res);
  holds(t, {
    rule: 'event-management/jobs/job-id-uuid',
    ok: j.id === job.id,
    failure: 'the job id changed',
    expected: job.id,
    received: String(j.id),
  });
  holds(t, {
    rule: 'event-management/jobs/initial-state-accepted',
    ok: rank(j.state) >= 0,
    failure: 'a job state outside the four documented',
    expected: JOB_STATES.join(', '),
    received: String(j.state),
  });
  const last = job.states[job.states.length - 1];
  if (rank(j.state) < rank(last)) r.notes.backwards.push(`${last} -> ${j.state}`);
  if (isFinal(last) && j.state !== last) r.notes.finalChanged.push(`${last} -> ${j.state}`);
  if (isFinal(last))
    holds(t, {
      rule: 'event-management/jobs/final-state-kept',
      ok: j.state === last,
      failure: 'a job left its final state',
      expected: `state ${last} again (a job ends in FINISHED or FINISHED_WITH_ERROR)`,
      received: `${job.states.join(' > ')} > ${String(j.state)}`,
    });
  if (!isFinal(j.state) && j.details !== undefined) r.notes.detailsEarly.push(String(j.state));
  if (j.state !== last) job.states.push(String(j.state));
  if (!isFinal(j.state)) return;
  holds(t, {
    rule: 'event-management/jobs/details-in-final-states',
    ok: j.details !== undefined && j.details !== null,
    failure: `a ${j.state} job without details`,
    expected: 'details',
    received: JSON.stringify(j),
  });
  if (job.judged) return;
  job.judged = true;
  if (job.kind === 'delete') {
    holds(t, {
      rule: 'event-management/jobs/delete-details',
      ok: typeof j.details?.resultCode === 'string' && typeof j.details?.resultDescription === 'string',
      failure: 'delete job details are not resultCode and resultDescription strings',
      expected: 'details.resultCode, details.resultDescription strings',
      received: JSON.stringify(j.details),
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
    holds(t, {
      rule: 'event-management/jobs/create-job-creates-events',
      ok: got.ok,
      failure: 'an event the job reports created is not readable',
      expected: `HTTP 200 for ${it.event.id}`,
      received: seen(got.value, 160),
    });
  }
}

export class PollJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<JobsModel>) => m.jobs.length > 0;
  async run(m: JobsModel, r: JobsReal) {
    const job = m.jobs[this.pick % m.jobs.length];
    const res = await send(r.t, {
      method: 'GET',
      path: `/${job.kind === 'create' ? 'createEventsJobs' : 'deleteEventsJobs'}/${job.id}`,
    });
    await observeJob(r, job, res);
  }
  toString = () => `poll #${this.pick}`;
}

export class AwaitJob implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<JobsModel>) => m.jobs.length > 0;
  async run(m: JobsModel, r: JobsReal) {
    const job = m.jobs[this.pick % m.jobs.length];
    const trace = await pollJob(senderOf(r.t), job.kind, job.id);
    for (const s of trace.seen) await observeJob(r, job, { ...trace.last, status: s.status, json: s.job });
    holds(r.t, {
      rule:
        job.kind === 'create' ? 'event-management/jobs/get-create-job-200' : 'event-management/jobs/get-delete-job-200',
      ok: !!trace.final,
      failure: 'a job did not reach a final state',
      expected: 'FINISHED or FINISHED_WITH_ERROR',
      received: seen(trace.last, 160),
    });
  }
  toString = () => `await #${this.pick}`;
}
