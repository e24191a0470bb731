import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { after, before, isIn, where, type FilterExpr } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import {
  body,
  emTest,
  entity,
  eventually,
  fixtures,
  iso,
  pollJob,
  send,
  seen,
  senderOf,
  timestamps,
  embedded,
  shown,
  EVENTS_QUERY_SIZE,
} from './em-client.ts';
import { refused, answered, answeredByReading, holds, served } from '../engine/checks/index.ts';
import { betweenRange } from './queries-events-support.ts';
import { createEventsInBulk, createType, field, postCreateJob, standardBody } from './em-resources.ts';
import {
  awaitJob,
  runDeleteJob,
  SOME_EVENTS_INVALID,
  StartCreateJob,
  StartDeleteJob,
  PollJob,
  AwaitJob,
  type JobsModel,
  type JobsReal,
} from './jobs-support.ts';
import { JOB_EVENTS_MAX } from './em-bounds.ts';

emTest(
  [
    'event-management/jobs/create-job-202',
    'event-management/jobs/delete-job-202',
    'event-management/jobs/initial-state-accepted',
    'event-management/jobs/job-id-uuid',
    'event-management/jobs/get-create-job-200',
    'event-management/jobs/get-delete-job-200',
    'event-management/jobs/details-in-final-states',
    'event-management/jobs/create-details',
    'event-management/jobs/create-job-creates-events',
    'event-management/jobs/delete-details',
    'event-management/jobs/transitions',
    'event-management/jobs/final-state-kept',
  ],
  'jobs (model): 202 ACCEPTED, then states polled move only forward to a final state with details, which it keeps; create job results match the input',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER', { filterable: true, required: true })] });
    const notes: JobsReal['notes'] = { backwards: [], finalChanged: [], detailsEarly: [], sequences: [] };
    let jobs = 0;
    const commands = fc.commands(
      [
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }).map((v) => new StartCreateJob(v)),
        fc.constant(new StartDeleteJob()),
        fc.nat(5).map((n) => new PollJob(n)),
        fc.nat(5).map((n) => new AwaitJob(n)),
      ],
      { maxCommands: 6 },
    );
    const finish = async (model: JobsModel, real: JobsReal) => {
      // Each job is awaited to its final state and read once more: an ended job keeps its state.
      for (const i of model.jobs.keys()) {
        await new AwaitJob(i).run(model, real);
        await new PollJob(i).run(model, real);
      }
      for (const job of model.jobs) notes.sequences.push(job.states.join('>'));
      jobs += model.jobs.length;
    };
    await t.property(
      commands,
      async (cmds) => {
        const model: JobsModel = { jobs: [] };
        const real: JobsReal = { t, typeId: type.id, notes };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await finish(model, real);
      },
      { rule: 'event-management/jobs/create-details', runs: Math.min(t.session.context.runs, 6) },
    );
    const model: JobsModel = { jobs: [] };
    const real: JobsReal = { t, typeId: type.id, notes };
    for (const c of [new StartCreateJob([true, false, true]), new StartDeleteJob(), new PollJob(0), new PollJob(1)])
      await c.run(model, real);
    await finish(model, real);
    const distinct = [...new Set(notes.sequences)];
    t.observe(
      'event-management/jobs/transitions',
      `${jobs} jobs polled to the end; state sequences seen: ${distinct.join(', ')}; backwards moves: ${notes.backwards.length ? notes.backwards.join(', ') : 'none'}; final states that changed: ${notes.finalChanged.length ? notes.finalChanged.join(', ') : 'none'}; details before a final state: ${notes.detailsEarly.length ? notes.detailsEarly.join(', ') : 'never'}`,
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 20, budgetPerRun: 31, timeout: 120_000 },
);

// ---------------------------------------------------------------- create jobs

emTest(
  [
    'event-management/jobs/create-max-50',
    'event-management/jobs/create-more-than-50-400',
    'event-management/jobs/create-events-required',
    'event-management/jobs/create-details',
  ],
  `a create job takes 1 to ${JOB_EVENTS_MAX} events; ${JOB_EVENTS_MAX + 1}, none, or events that are not an array answer 400`,
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER')] });
    const ts = timestamps(JOB_EVENTS_MAX + 1);
    const events = (k: number) =>
      Array.from({ length: k }, (_, i) => ({ typeId: type.id, timestamp: ts[i], entityId: entity(t, i), n: i }));
    const bodies: Array<[string, string, unknown]> = [
      [
        'event-management/jobs/create-more-than-50-400',
        `a create job of ${JOB_EVENTS_MAX + 1} events`,
        { events: events(JOB_EVENTS_MAX + 1) },
      ],
      ['event-management/jobs/create-events-required', 'a create job without events', {}],
      ['event-management/jobs/create-events-required', 'a create job whose events is a string', { events: 'events' }],
      // "createEventsJob has events (required array of custom events)": a null body has none.
      ['event-management/jobs/create-events-required', 'a create job whose body is null', null],
    ];
    for (const [rule, what, json] of bodies)
      refused(t, { rule, res: await send(t, { method: 'POST', path: '/createEventsJobs', json }), what });
    const res = await postCreateJob(t, events(JOB_EVENTS_MAX));
    answered(t, {
      rule: 'event-management/jobs/create-max-50',
      res,
      what: `a create job of ${JOB_EVENTS_MAX} events`,
      statuses: [202],
    });
    const trace = await pollJob(senderOf(t), 'create', String(body(res).id));
    if (trace.undocumented)
      t.skip(
        `the create job showed state ${JSON.stringify(trace.undocumented.state)}, outside the documented; judged by jobs/initial-state-accepted`,
      );
    const items = trace.final?.details?.resultDescription;
    const got = () => (JSON.stringify(trace.final ?? trace.last.json) ?? trace.last.text).slice(0, 300);
    holds(t, {
      rule: 'event-management/jobs/create-details',
      ok:
        Array.isArray(items) &&
        items.length === JOB_EVENTS_MAX &&
        items.every((it: any) => String(it?.resultCode) === '201') &&
        new Set(items.map((it: any) => it?.event?.n)).size === JOB_EVENTS_MAX,
      failure: `the ${JOB_EVENTS_MAX} events are not all reported created`,
      expected: `${JOB_EVENTS_MAX} items with resultCode "201", one per input event`,
      received: got,
    });
    holds(t, {
      reading: 'results-in-input-order',
      rule: 'event-management/jobs/create-details',
      ok: (items as any[]).every((it: any, i: number) => it?.event?.n === i),
      failure: 'the 50 results are not in input order',
      expected: 'item i for input event i',
      received: got,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 21 },
);

emTest(
  [
    'event-management/jobs/create-job-202',
    'event-management/jobs/create-job-creates-events',
    'event-management/events/standard-without-type-id',
    'event-management/events/custom-matches-type',
    'event-management/events/custom-field-value-types',
    'event-management/events/entity-id-or-timestamp-missing-400',
    'event-management/events/required-field-missing-400',
  ],
  'a create job applies the event rules to each event: invalid ones fail alone, valid ones are created (standard without typeId, custom with their values)',
  async (t) => {
    const type = await createType(t, {
      fields: [field('need', 'STRING', { required: true }), field('when', 'TIMESTAMP')],
    });
    const when = '2026-03-04T05:06:07.089Z';
    const inputs = [
      standardBody(t, { code: 'JOB' }),
      { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t), need: 'x', when },
      { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t), need: 'x', stray: 1 },
      { typeId: type.id, entityId: entity(t), need: 'x' },
      { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t) },
      // A null value: the payload stays 1 to 50 events ("POST /createEventsJobs | 400: more than 50
      // events in the payload" is its only 400), so the job is accepted and this event fails alone.
      { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t), need: null },
      standardBody(t, { code: 'JOB2' }),
    ];
    const res = await postCreateJob(t, inputs);
    const what = `a create job of ${inputs.length} events`;
    answeredByReading(t, { rule: 'event-management/jobs/create-job-202', res, what, ...SOME_EVENTS_INVALID });
    const trace = await awaitJob(t, 'create', res);
    const items = (trace.final?.details?.resultDescription ?? []) as any[];
    const code = (i: number) => String(items[i]?.resultCode);
    // Every event without typeId, the first and the last of the payload.
    for (const i of [0, 6])
      holds(t, {
        rule: 'event-management/events/standard-without-type-id',
        ok: code(i) === '201' && items[i]?.event?.typeId === fixtures(t).standardEventTypeId,
        failure: `event ${i} of the job, without typeId, not created as a standard event`,
        expected: `resultCode "201", typeId ${fixtures(t).standardEventTypeId}`,
        received: JSON.stringify(items[i]),
      });
    holds(t, {
      rule: 'event-management/events/custom-field-value-types',
      // A TIMESTAMP value is judged as the instant it names (as for POST /events), not its spelling.
      ok: code(1) === '201' && Date.parse(String(items[1]?.event?.when)) === Date.parse(when),
      failure: 'a custom event not created with its values unchanged',
      expected: `resultCode "201", when ${when}`,
      received: JSON.stringify(items[1]),
    });
    holds(t, {
      reading: 'undefined-field-refused',
      rule: 'event-management/events/custom-matches-type',
      ok: code(2) !== '201',
      failure: 'an event with a field its type does not define created',
      expected: 'an error for that event',
      received: () => JSON.stringify(items[2]),
    });
    for (const [i, rule, what] of [
      [3, 'event-management/events/entity-id-or-timestamp-missing-400', 'an event without timestamp'],
      [4, 'event-management/events/required-field-missing-400', 'an event without its required field'],
      // "required field missing" and "incompatible value for a custom field" are both 400 conditions of
      // POST /events, so a required field given as null is refused whichever of the two it is (PUT
      // lists "required field set to null" among its 400s in so many words).
      [5, 'event-management/events/required-field-missing-400', 'an event whose required field is null'],
    ] as const)
      holds(t, {
        rule: rule,
        ok: code(i) === '400',
        failure: `${what} not refused with 400`,
        expected: 'resultCode "400"',
        received: JSON.stringify(items[i]),
      });
    // The per-item results do not say that the job goes on after a failed event: that the last, valid,
    // event is still created is our reading.
    holds(t, {
      reading: 'invalid-event-alone',
      rule: 'event-management/jobs/create-job-creates-events',
      ok: code(6) === '201' && items.length === inputs.length,
      failure: 'invalid events stopped the valid ones',
      expected: 'the last (valid) event created',
      received: () => JSON.stringify(items[6]),
    });
    for (const i of [0, 1, 6].filter((n) => code(n) === '201')) {
      const got = await eventually(
        () => send(t, { method: 'GET', path: `/events/${items[i]?.event?.id}` }),
        (x) => x.status === 200,
      );
      served(t, {
        rule: 'event-management/jobs/create-job-creates-events',
        res: got.value,
        what: `an event the job reports created (${items[i]?.event?.id})`,
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 14 },
);

// ---------------------------------------------------------------- delete jobs

emTest(
  [
    'event-management/jobs/delete-job-deletes-matches',
    'event-management/jobs/delete-details',
    'event-management/jobs/delete-filter-timestamp',
  ],
  'a delete job deletes exactly the events its filter selects (also by timestamp before, after, between, then all that is left, then none) and counts them',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER', { filterable: true })] });
    const empty = await createType(t, { fields: [field('n', 'INTEGER', { filterable: true })] });
    const ts = timestamps(8, 60_000, -30 * 60_000);
    const created = await createEventsInBulk(
      t,
      ts.map((timestamp, n) => ({ typeId: type.id, timestamp, entityId: entity(t, n), n })),
    );
    const ids = created.map((e) => String(e.id));
    const present = async () => {
      const res = await send(t, {
        method: 'GET',
        path: '/events',
        query: { filter: where({ typeId: type.id }, after('timestamp', iso(-86_400_000))), size: EVENTS_QUERY_SIZE },
      });
      return (embedded(res, 'events') as any[]).map((e) => String(e.id)).sort();
    };
    await eventually(present, (p) => p.length === 8);
    const off = (ts: string) => new Date(Date.parse(ts) - 30_000).toISOString();
    const steps: Array<[FilterExpr, number[], string]> = [
      [isIn('n', [0, 1]), [0, 1], 'event-management/jobs/delete-job-deletes-matches'],
      [after('timestamp', ts[3]), [2], 'event-management/jobs/delete-filter-timestamp'],
      [before('timestamp', ts[6]), [7], 'event-management/jobs/delete-filter-timestamp'],
      [
        // Bounds between the events' timestamps, so that whether an end is inclusive does not matter.
        await betweenRange(t, type.id, off(ts[5]), off(ts[3]), (res, what) =>
          answered(t, {
            rule: 'event-management/jobs/delete-filter-timestamp',
            res,
            what,
            reading: 'between-interval-text',
          }),
        ),
        [4, 5],
        'event-management/jobs/delete-filter-timestamp',
      ],
      // The rest of the type's events, then a job that finds nothing left.
      [isIn('n', [3, 6]), [3, 6], 'event-management/jobs/delete-job-deletes-matches'],
      [isIn('n', [3, 6]), [], 'event-management/jobs/delete-job-deletes-matches'],
    ];
    const gone = new Set<number>();
    for (const [f, deleted, rule] of steps) {
      // typeId last: a filter is a JSON object, whose members have no order.
      const trace = await runDeleteJob(t, where(f, { typeId: type.id }));
      holds(t, {
        rule: rule,
        ok: trace.final?.state === 'FINISHED',
        failure: `a delete job for ${shown(f)} did not finish`,
        expected: 'FINISHED',
        received: JSON.stringify(trace.final),
      });
      for (const n of deleted) gone.add(n);
      const want = ids.filter((_, n) => !gone.has(n)).sort();
      const res = await eventually(present, (p) => JSON.stringify(p) === JSON.stringify(want));
      holds(t, {
        rule: rule,
        ok: res.ok,
        failure: `the delete job for ${shown(f)} did not delete exactly its events`,
        expected: `remaining n: ${[...Array(8).keys()].filter((n) => !gone.has(n)).join(', ')}`,
        received: () => `remaining: ${res.value.map((id) => ids.indexOf(id)).join(', ')}`,
      });
      const description = String(trace.final?.details?.resultDescription).trim();
      holds(t, {
        rule: 'event-management/jobs/delete-details',
        // A minus sign before the digits makes another number.
        ok: new RegExp(`(^|[^\\d-])${deleted.length}(\\D|$)`).test(description),
        failure: 'resultDescription does not give the number of deleted events',
        expected: `a text giving the number ${deleted.length}`,
        received: JSON.stringify(trace.final?.details),
      });
      holds(t, {
        reading: 'result-description-count',
        rule: 'event-management/jobs/delete-details',
        ok: description === String(deleted.length),
        failure: 'resultDescription is not the bare count of the deleted events',
        expected: String(deleted.length),
        received: JSON.stringify(trace.final?.details),
      });
    }
    const byId = await send(t, { method: 'GET', path: `/events/${ids[0]}` });
    holds(t, {
      rule: 'event-management/jobs/delete-job-deletes-matches',
      ok: byId.status === 404,
      failure: 'a deleted event is still served by id',
      expected: 'HTTP 404',
      received: seen(byId, 160),
    });
    // A type without events: the job finds nothing to delete and finishes (tried again while the new type may not show yet).
    const none = await eventually(
      () => runDeleteJob(t, where(isIn('n', [0, 1]), { typeId: empty.id })),
      (trace) => trace.final?.state === 'FINISHED',
    );
    holds(t, {
      rule: 'event-management/jobs/delete-job-deletes-matches',
      ok: none.ok,
      failure: 'a delete job over a type without events did not finish',
      expected: 'FINISHED',
      received: JSON.stringify(none.value.final),
    });
    holds(t, {
      rule: 'event-management/jobs/delete-details',
      ok: /(^|[^\d-])0(\D|$)/.test(String(none.value.final?.details?.resultDescription).trim()),
      failure: 'resultDescription of a job that deleted nothing does not give 0',
      expected: 'a text giving the number 0',
      received: JSON.stringify(none.value.final?.details),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 60 },
);

emTest(
  ['event-management/jobs/delete-latest-deletes-history', 'event-management/jobs/delete-job-deletes-matches'],
  'deleting an earlier instance of a history deletes that instance alone; deleting the latest deletes the whole history',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER', { filterable: true })] });
    const correlationId = randomUUID();
    const ts = timestamps(4, 60_000);
    // n 0 is the newest and written last: the latest instance on either reading of "latest" (greatest
    // timestamp, or written last); the other history of the same type stays. The oldest instance (n 3)
    // is deleted first, so the history the latest then takes along is one that already lost an instance.
    const created = await createEventsInBulk(t, [
      ...ts.map((timestamp, n) => ({ typeId: type.id, correlationId, entityId: entity(t), timestamp, n })).reverse(),
      { typeId: type.id, correlationId: randomUUID(), entityId: entity(t), timestamp: ts[0], n: 10 },
    ]);
    const all = () =>
      send(t, {
        method: 'GET',
        path: '/events',
        query: { history: 'true', size: EVENTS_QUERY_SIZE, filter: where({ typeId: type.id }) },
      });
    const left = (r: HttpResponse) => (embedded(r, 'events') as any[]).map((e) => Number(e.n)).sort((a, b) => a - b);
    await eventually(all, (r) => embedded(r, 'events').length === 5);
    await runDeleteJob(t, where({ typeId: type.id, n: 3 }));
    // The latest instance stays, so the history stays: only the instance the filter selects goes.
    const first = await eventually(all, (r) => r.status === 200 && !left(r).includes(3));
    holds(t, {
      rule: 'event-management/jobs/delete-job-deletes-matches',
      ok: first.ok && JSON.stringify(left(first.value)) === JSON.stringify([0, 1, 2, 10]),
      failure: 'deleting an earlier instance of a history did not delete exactly that instance',
      expected: 'n 0, 1, 2 and 10 left',
      received: seen(first.value, 200),
    });
    await runDeleteJob(t, where({ typeId: type.id, n: 0 }));
    const res = await eventually(all, (r) => embedded(r, 'events').length === 1);
    holds(t, {
      rule: 'event-management/jobs/delete-latest-deletes-history',
      ok: res.ok && body(res.value)._embedded.events[0].n === 10,
      failure: 'earlier instances survive the deletion of the latest',
      expected: 'only the other history left',
      received: seen(res.value, 200),
    });
    const earlier = await send(t, { method: 'GET', path: `/events/${created[0].id}` });
    holds(t, {
      rule: 'event-management/jobs/delete-latest-deletes-history',
      ok: earlier.status === 404,
      failure: 'an earlier instance is still served by id',
      expected: 'HTTP 404',
      received: seen(earlier, 160),
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 16 },
);
