import { randomUUID } from 'node:crypto';
import { and, eq, isIn, ne, where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import {
  body,
  emTest,
  entity,
  fixtures,
  iso,
  pollJob,
  send,
  seen,
  senderOf,
  inexpressible,
  writtenFilter,
} from './em-client.ts';
import { JOB_STATES } from './em-bounds.ts';
import { refused, answered, hasMembers, holds } from '../engine/checks/index.ts';
import { createType, marker } from './em-resources.ts';
import { DELETE_DETAILS, startDeleteJob } from './jobs-support.ts';

emTest(
  [
    'event-management/jobs/delete-filter-invalid-json-400',
    'event-management/jobs/delete-filter-no-type-id-400',
    'event-management/jobs/delete-filter-type-id-equality',
    'event-management/jobs/delete-job-deletes-matches',
  ],
  'a delete job whose filter is missing, not valid JSON, without typeId, or with a typeId expression that is not one plain equality answers 400',
  async (t) => {
    const typeId = `${t.prefix}nosuchtype`;
    const bodies: Array<[string, string, unknown]> = [
      ['event-management/jobs/delete-job-deletes-matches', 'a delete job without filter', {}],
      // "deleteEventsJob has filter (required JSON object)": a null body has none.
      ['event-management/jobs/delete-job-deletes-matches', 'a delete job whose body is null', null],
      [
        'event-management/jobs/delete-filter-invalid-json-400',
        'a filter string that is not JSON',
        { filter: '{"typeId": ' },
      ],
      ['event-management/jobs/delete-filter-invalid-json-400', 'a filter that is a number', { filter: 42 }],
      [
        'event-management/jobs/delete-filter-no-type-id-400',
        'a filter without typeId',
        { filter: where({ source: marker(t) }) },
      ],
      // The conjunction of nothing: an empty filter in any dialect.
      ['event-management/jobs/delete-filter-no-type-id-400', 'an empty filter', { filter: and() }],
    ];
    for (const [rule, what, json] of bodies) refused(t, { rule, res: await startDeleteJob(t, json), what });
    for (const [f, what] of [
      [ne('typeId', typeId), 'a negated typeId'],
      [isIn('typeId', [typeId]), 'typeId with in'],
      [and(eq('typeId', typeId), and(eq('typeId', fixtures(t).standardEventTypeId))), 'two typeId expressions'],
    ] as Array<[FilterExpr, string]>) {
      const cannot = await inexpressible(t, f);
      if (cannot) t.notExercised('event-management/jobs/delete-filter-type-id-equality', `${what}: ${cannot}`);
      else
        refused(t, {
          rule: 'event-management/jobs/delete-filter-type-id-equality',
          res: await startDeleteJob(t, { filter: f }),
          what,
        });
    }
    // The same filter as its JSON text ("filter (required JSON object)" of a "string, JSON-encoded" query filter).
    const asString = await startDeleteJob(t, { filter: JSON.stringify(await writtenFilter(t, eq('typeId', typeId))) });
    answered(t, {
      rule: 'event-management/jobs/delete-filter-invalid-json-400',
      res: asString,
      what: 'a filter given as a JSON string',
      statuses: [202],
      soft: true,
    });
  },
  { budget: 11 },
);

// "JobResource: id (uuid, read-only), state (ACCEPTED default, IN_PROGRESS, FINISHED, FINISHED_WITH_ERROR)"
// and "DeleteJobResource: JobResource plus details (resultCode string, resultDescription string: number
// of events deleted or the error)": a delete job whose typeId names no type (a valid filter) still
// shows one of the four states at every read, and ends with details.
emTest(
  [
    'event-management/jobs/delete-job-202',
    'event-management/jobs/initial-state-accepted',
    'event-management/jobs/delete-details',
  ],
  'a delete job on a type that does not exist shows a documented state at every read and ends with details',
  async (t) => {
    const res = await startDeleteJob(t, {
      filter: where({ typeId: `${t.prefix}nosuchtype${randomUUID().slice(0, 8)}` }),
    });
    holds(t, {
      rule: 'event-management/jobs/delete-job-202',
      ok: res.status < 500,
      failure: 'a delete job on an unknown type answered a server error',
      expected: 'HTTP 202 (or a 4xx refusal)',
      received: seen(res, 160),
      soft: true,
    });
    if (res.status !== 202)
      t.skip(`the delete job on an unknown type was not accepted (${seen(res, 160)}): nothing to poll`);
    const trace = await pollJob(senderOf(t), 'delete', String(body(res).id));
    for (const { status, job } of trace.seen) {
      if (status !== 200) continue;
      holds(t, {
        rule: 'event-management/jobs/initial-state-accepted',
        ok: (JOB_STATES as readonly unknown[]).includes(job.state),
        failure: 'a delete job on an unknown type showed a state outside the four documented',
        expected: JOB_STATES.join(', '),
        received: JSON.stringify(job),
        soft: true,
      });
    }
    if (!trace.final) {
      t.notExercised('event-management/jobs/delete-details', `the job did not end (${seen(trace.last, 160)})`);
      return;
    }
    hasMembers(t, {
      rule: 'event-management/jobs/delete-details',
      what: 'the details of a final delete job on an unknown type',
      value: trace.final.details,
      members: DELETE_DETAILS,
      soft: true,
    });
  },
  { budget: 40 },
);

emTest(
  ['event-management/jobs/not-found-404'],
  'GET of an unknown job, of a job under the other kind, or of an id that is not a uuid answers 404',
  async (t) => {
    for (const kind of ['createEventsJobs', 'deleteEventsJobs'])
      for (const [id, statusReading] of [
        [randomUUID(), undefined],
        ['not-a-uuid', 'malformed-id-404'],
      ] as const)
        refused(t, {
          rule: 'event-management/jobs/not-found-404',
          res: await send(t, { method: 'GET', path: `/${kind}/${id}` }),
          what: `GET /${kind}/${statusReading ? id : '{unknown}'}`,
          statuses: [404],
          statusReading,
        });
    const job = await startDeleteJob(t, { filter: eq('typeId', `${t.prefix}nosuchtype`) });
    if (job.status === 202) {
      refused(t, {
        rule: 'event-management/jobs/not-found-404',
        res: await send(t, { method: 'GET', path: `/createEventsJobs/${body(job).id}` }),
        what: 'a delete job read as a create job',
        statuses: [404],
      });
      // A job is its tenant's: for another tenant it is not found (a 4xx; 404 rather than 403 is our reading).
      if (t.session.tokens.has('otherTenant'))
        refused(t, {
          rule: 'event-management/jobs/not-found-404',
          res: await send(t, { method: 'GET', path: `/deleteEventsJobs/${body(job).id}`, as: 'otherTenant' }),
          what: 'a delete job of another tenant',
          statuses: [404],
          statusReading: 'foreign-record-404',
        });
    }
  },
  { budget: 7 },
);

emTest(
  ['event-management/jobs/client-id-ignored'],
  'a job id sent in the body of POST /createEventsJobs or /deleteEventsJobs does not become the job id',
  async (t) => {
    const type = await createType(t);
    const createId = randomUUID();
    const deleteId = randomUUID();
    const cases: Array<[string, () => Promise<HttpResponse>, string]> = [
      [
        'POST /createEventsJobs',
        () =>
          send(t, {
            method: 'POST',
            path: '/createEventsJobs',
            json: { id: createId, events: [{ typeId: type.id, timestamp: iso(-60_000), entityId: entity(t) }] },
          }),
        createId,
      ],
      ['POST /deleteEventsJobs', () => startDeleteJob(t, { id: deleteId, filter: eq('typeId', type.id) }), deleteId],
    ];
    for (const [what, post, sent] of cases) {
      const res = await post();
      holds(t, {
        rule: 'event-management/jobs/client-id-ignored',
        ok: res.status === 400 || (res.status === 202 && body(res).id !== sent),
        failure: `${what} took the id sent in the body`,
        expected: `HTTP 400, or 202 with an id other than ${sent}`,
        received: seen(res, 200),
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 3 },
);
