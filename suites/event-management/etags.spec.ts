import fc from 'fast-check';
import { where } from '../engine/filter-expression.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, entity, eventually, fixtures, iso, send, seen, embedded } from './em-client.ts';
import { etagOf, expect, reading, verify } from './em-checks.ts';
import { asRequest, createEvent, createType, field, postEvent, putEvent, standardBody } from './em-resources.ts';

// ---------------------------------------------------------------- events

/**
 * A request without the required If-Match (or with one naming no etag) is refused, which the
 * document settles (the header is required); that the refusal is 400 is our reading
 * (if-match-missing-400): 428, or 412 (409 on DELETE) for a value that cannot match, read it too.
 */
function ifMatchRefused(t: RuleContext, rule: string, res: HttpResponse, what: string): void {
  expect(t, rule, res.status >= 400 && res.status < 500, `${what} not refused`, 'a 4xx refusal', seen(res, 160));
  reading(t, 'if-match-missing-400', rule, res.status === 400, `${what} not answered 400`, 'HTTP 400', () =>
    seen(res, 160),
  );
}

interface EventModel {
  etag: number;
  /** Etags the event had before (stale now). */
  stale: number[];
}

interface EventReal {
  t: RuleContext;
  id: string;
  request: Record<string, unknown>;
}

/** Reads the event until its etag is the model's (a change may take 100 ms to show). */
async function readEvent(m: EventModel, r: EventReal): Promise<HttpResponse> {
  const res = (
    await eventually(
      () => send(r.t, { method: 'GET', path: `/events/${r.id}` }),
      (x) => x.status === 200 && body(x).etag === m.etag,
    )
  ).value;
  expect(
    r.t,
    'event-management/events/etag-counter',
    res.status === 200 && body(res).etag === m.etag,
    'the etag changed without a successful PUT (or the event is gone)',
    `etag ${m.etag}`,
    seen(res, 160),
  );
  return res;
}

class GetEvent implements fc.AsyncCommand<EventModel, EventReal> {
  check = () => true;
  async run(m: EventModel, r: EventReal) {
    const res = await readEvent(m, r);
    expect(
      r.t,
      'event-management/etags/event-etag-header',
      etagOf(res) === m.etag,
      'GET ETag header does not identify the current etag',
      `ETag "${m.etag}"`,
      res.headers.etag ?? '(none)',
    );
  }
  toString = () => 'GET';
}

class GetEventIfNoneMatchCurrent implements fc.AsyncCommand<EventModel, EventReal> {
  check = () => true;
  async run(m: EventModel, r: EventReal) {
    const current = await readEvent(m, r);
    const res = await send(r.t, {
      method: 'GET',
      path: `/events/${r.id}`,
      headers: { 'If-None-Match': current.headers.etag ?? String(m.etag) },
    });
    expect(
      r.t,
      'event-management/etags/get-event-304',
      res.status === 304 && res.text === '',
      'a matching If-None-Match not answered 304 without a body',
      'HTTP 304, no body',
      seen(res, 160),
    );
  }
  toString = () => 'GET If-None-Match current';
}

class GetEventIfNoneMatchStale implements fc.AsyncCommand<EventModel, EventReal> {
  check = (m: Readonly<EventModel>) => m.stale.length > 0;
  async run(m: EventModel, r: EventReal) {
    await readEvent(m, r);
    const old = m.stale[m.stale.length - 1];
    const res = await send(r.t, { method: 'GET', path: `/events/${r.id}`, headers: { 'If-None-Match': String(old) } });
    expect(
      r.t,
      'event-management/etags/get-event-304',
      res.status === 200 && body(res).etag === m.etag,
      'an outdated If-None-Match not answered 200 with the event',
      `HTTP 200 with etag ${m.etag}`,
      seen(res, 160),
    );
  }
  toString = () => 'GET If-None-Match stale';
}

class PutCurrent implements fc.AsyncCommand<EventModel, EventReal> {
  constructor(readonly severity: number) {}
  check = () => true;
  async run(m: EventModel, r: EventReal) {
    const res = await putEvent(r.t, r.id, String(m.etag), { ...r.request, severity: this.severity });
    expect(
      r.t,
      'event-management/events/update-200',
      res.status === 200,
      'PUT with the current etag refused',
      'HTTP 200',
      seen(res, 160),
    );
    const etag = body(res).etag;
    expect(
      r.t,
      'event-management/events/etag-counter',
      Number.isInteger(etag) && etag > m.etag,
      'a successful PUT did not increase the etag',
      `an integer above ${m.etag}`,
      String(etag),
    );
    expect(
      r.t,
      'event-management/etags/event-etag-header',
      etagOf(res) === etag,
      'PUT ETag header does not identify the new etag',
      `ETag "${etag}"`,
      res.headers.etag ?? '(none)',
    );
    m.stale.push(m.etag);
    m.etag = etag;
  }
  toString = () => `PUT current severity=${this.severity}`;
}

class PutStale implements fc.AsyncCommand<EventModel, EventReal> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<EventModel>) => m.stale.length > 0;
  async run(m: EventModel, r: EventReal) {
    const old = m.stale[this.pick % m.stale.length];
    const res = await putEvent(r.t, r.id, String(old), { ...r.request, severity: 99 });
    expect(
      r.t,
      'event-management/etags/update-event-stale-412',
      res.status === 412,
      'PUT with a stale If-Match not answered 412',
      'HTTP 412',
      seen(res, 160),
    );
  }
  toString = () => `PUT stale #${this.pick}`;
}

class PutUnknownEtag implements fc.AsyncCommand<EventModel, EventReal> {
  constructor(readonly ahead: number) {}
  check = () => true;
  async run(m: EventModel, r: EventReal) {
    const res = await putEvent(r.t, r.id, String(m.etag + this.ahead), { ...r.request, severity: 98 });
    expect(
      r.t,
      'event-management/etags/update-event-stale-412',
      res.status === 412,
      'PUT with an If-Match the event never had not answered 412',
      'HTTP 412',
      seen(res, 160),
    );
  }
  toString = () => `PUT etag+${this.ahead}`;
}

class PutWithoutIfMatch implements fc.AsyncCommand<EventModel, EventReal> {
  constructor(readonly header: string | undefined) {}
  check = () => true;
  async run(m: EventModel, r: EventReal) {
    const res = await putEvent(r.t, r.id, this.header, { ...r.request, severity: 97 });
    ifMatchRefused(
      r.t,
      'event-management/etags/update-event-if-match-required',
      res,
      `PUT ${this.header === undefined ? 'without If-Match' : `with If-Match ${this.header}`}`,
    );
  }
  toString = () => (this.header === undefined ? 'PUT without If-Match' : `PUT If-Match ${this.header}`);
}

emTest(
  [
    'event-management/etags/event-etag-header',
    'event-management/etags/get-event-304',
    'event-management/etags/update-event-stale-412',
    'event-management/etags/update-event-if-match-required',
    'event-management/events/etag-counter',
    'event-management/events/update-200',
  ],
  'event ETags (model): a PUT with the current etag changes it, nothing else does; stale or missing If-Match is refused; If-None-Match answers 304',
  async (t) => {
    const commands = fc.commands(
      [
        fc.constant(new GetEvent()),
        fc.constant(new GetEventIfNoneMatchCurrent()),
        fc.constant(new GetEventIfNoneMatchStale()),
        fc.integer({ min: 1, max: 99 }).map((s) => new PutCurrent(s)),
        fc.nat(5).map((n) => new PutStale(n)),
        fc.integer({ min: 1, max: 1000 }).map((n) => new PutUnknownEtag(n)),
        fc.constantFrom(undefined, 'abc', '"x"').map((h) => new PutWithoutIfMatch(h)),
      ],
      { maxCommands: 7 },
    );
    await t.property(
      commands,
      async (cmds) => {
        const e = await createEvent(t, standardBody(t, { severity: 1 }));
        const real: EventReal = { t, id: e.id, request: asRequest(e) };
        const model: EventModel = { etag: e.etag, stale: [] };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await readEvent(model, real);
      },
      { rule: 'event-management/events/etag-counter', runs: Math.min(t.session.context.runs, 8) },
    );
    // Every command at least once, whatever the property drew.
    const e = await createEvent(t, standardBody(t, { severity: 1 }));
    const real: EventReal = { t, id: e.id, request: asRequest(e) };
    const model: EventModel = { etag: e.etag, stale: [] };
    for (const c of [
      new GetEvent(),
      new GetEventIfNoneMatchCurrent(),
      new PutCurrent(5),
      new PutStale(0),
      new PutUnknownEtag(3),
      new PutWithoutIfMatch(undefined),
      new PutWithoutIfMatch('abc'),
      new GetEventIfNoneMatchStale(),
    ]) {
      await c.run(model, real);
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 15, budgetPerRun: 10, timeout: 120_000 },
);

// ---------------------------------------------------------------- event types

interface TypeModel {
  etag: number;
  ttl: number;
}

interface TypeReal {
  t: RuleContext;
  id: string;
}

const typePath = (r: TypeReal) => `/eventTypes/${encodeURIComponent(r.id)}`;

async function readType(m: TypeModel, r: TypeReal): Promise<HttpResponse> {
  const res = (
    await eventually(
      () => send(r.t, { method: 'GET', path: typePath(r) }),
      (x) => x.status === 200 && body(x).etag === m.etag,
    )
  ).value;
  expect(
    r.t,
    'event-management/etags/event-type-etag-counter',
    res.status === 200 && body(res).etag === m.etag && body(res).ttl === m.ttl,
    'the type changed without a successful PATCH (or is gone)',
    `etag ${m.etag}, ttl ${m.ttl}`,
    seen(res, 160),
  );
  return res;
}

class GetType implements fc.AsyncCommand<TypeModel, TypeReal> {
  check = () => true;
  async run(m: TypeModel, r: TypeReal) {
    const res = await readType(m, r);
    expect(
      r.t,
      'event-management/etags/event-type-etag-header',
      etagOf(res) === m.etag,
      'GET ETag header does not identify the type etag',
      `ETag "${m.etag}"`,
      res.headers.etag ?? '(none)',
    );
  }
  toString = () => 'GET type';
}

class GetTypeIfNoneMatch implements fc.AsyncCommand<TypeModel, TypeReal> {
  check = () => true;
  async run(m: TypeModel, r: TypeReal) {
    const current = await readType(m, r);
    const res = await send(r.t, {
      method: 'GET',
      path: typePath(r),
      headers: { 'If-None-Match': current.headers.etag ?? String(m.etag) },
    });
    expect(
      r.t,
      'event-management/etags/get-event-type-304',
      res.status === 304 && res.text === '',
      'a matching If-None-Match not answered 304 without a body',
      'HTTP 304, no body',
      seen(res, 160),
    );
  }
  toString = () => 'GET type If-None-Match current';
}

class PatchCurrent implements fc.AsyncCommand<TypeModel, TypeReal> {
  constructor(readonly ttl: number) {}
  check = () => true;
  async run(m: TypeModel, r: TypeReal) {
    const res = await send(r.t, {
      method: 'PATCH',
      path: typePath(r),
      headers: { 'If-Match': String(m.etag) },
      json: { op: 'replace', path: '/ttl', value: this.ttl },
    });
    expect(
      r.t,
      'event-management/event-types/patch-200',
      res.status === 200 && body(res).ttl === this.ttl,
      'PATCH of ttl with the current etag refused',
      `HTTP 200 with ttl ${this.ttl}`,
      seen(res, 160),
    );
    const etag = body(res).etag;
    expect(
      r.t,
      'event-management/etags/event-type-etag-counter',
      Number.isInteger(etag) && etag > m.etag,
      'a successful PATCH did not increase the etag',
      `an integer above ${m.etag}`,
      String(etag),
    );
    expect(
      r.t,
      'event-management/etags/event-type-etag-header',
      etagOf(res) === etag,
      'PATCH ETag header does not identify the new etag',
      `ETag "${etag}"`,
      res.headers.etag ?? '(none)',
    );
    m.etag = etag;
    m.ttl = this.ttl;
  }
  toString = () => `PATCH ttl=${this.ttl}`;
}

class PatchStale implements fc.AsyncCommand<TypeModel, TypeReal> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<TypeModel>) => m.etag + this.offset >= 0;
  async run(m: TypeModel, r: TypeReal) {
    const res = await send(r.t, {
      method: 'PATCH',
      path: typePath(r),
      headers: { 'If-Match': String(m.etag + this.offset) },
      json: { op: 'replace', path: '/ttl', value: 77 },
    });
    expect(
      r.t,
      'event-management/etags/patch-event-type-stale-412',
      res.status === 412,
      'PATCH with a differing If-Match not answered 412',
      'HTTP 412',
      seen(res, 160),
    );
  }
  toString = () => `PATCH etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}

class PatchWithoutIfMatch implements fc.AsyncCommand<TypeModel, TypeReal> {
  constructor(readonly header: string | undefined) {}
  check = () => true;
  async run(m: TypeModel, r: TypeReal) {
    const res = await send(r.t, {
      method: 'PATCH',
      path: typePath(r),
      headers: this.header === undefined ? {} : { 'If-Match': this.header },
      json: { op: 'replace', path: '/ttl', value: 78 },
    });
    ifMatchRefused(
      r.t,
      'event-management/etags/patch-event-type-if-match-required',
      res,
      `PATCH ${this.header === undefined ? 'without If-Match' : `with If-Match ${this.header}`}`,
    );
  }
  toString = () => (this.header === undefined ? 'PATCH without If-Match' : `PATCH If-Match ${this.header}`);
}

class DeleteStale implements fc.AsyncCommand<TypeModel, TypeReal> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<TypeModel>) => m.etag + this.offset >= 0;
  async run(m: TypeModel, r: TypeReal) {
    const res = await send(r.t, {
      method: 'DELETE',
      path: typePath(r),
      headers: { 'If-Match': String(m.etag + this.offset) },
    });
    expect(
      r.t,
      'event-management/etags/delete-event-type-stale-409',
      res.status === 409,
      'DELETE with a differing If-Match not answered 409',
      'HTTP 409',
      seen(res, 160),
    );
  }
  toString = () => `DELETE etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}

class DeleteWithoutIfMatch implements fc.AsyncCommand<TypeModel, TypeReal> {
  constructor(readonly header: string | undefined) {}
  check = () => true;
  async run(m: TypeModel, r: TypeReal) {
    const res = await send(r.t, {
      method: 'DELETE',
      path: typePath(r),
      headers: this.header === undefined ? {} : { 'If-Match': this.header },
    });
    ifMatchRefused(
      r.t,
      'event-management/etags/delete-event-type-if-match-required',
      res,
      `DELETE ${this.header === undefined ? 'without If-Match' : `with If-Match ${this.header}`}`,
    );
  }
  toString = () => (this.header === undefined ? 'DELETE without If-Match' : `DELETE If-Match ${this.header}`);
}

const nonZero = fc.oneof(fc.integer({ min: -3, max: -1 }), fc.integer({ min: 1, max: 500 }));

emTest(
  [
    'event-management/etags/event-type-etag-header',
    'event-management/etags/get-event-type-304',
    'event-management/etags/patch-event-type-stale-412',
    'event-management/etags/patch-event-type-if-match-required',
    'event-management/etags/delete-event-type-stale-409',
    'event-management/etags/delete-event-type-if-match-required',
    'event-management/etags/event-type-etag-counter',
    'event-management/event-types/patch-200',
  ],
  'event type ETags (model): PATCH with the current etag changes it, nothing else does; a differing If-Match is 412 on PATCH and 409 on DELETE; none is 400',
  async (t) => {
    const commands = fc.commands(
      [
        fc.constant(new GetType()),
        fc.constant(new GetTypeIfNoneMatch()),
        fc.integer({ min: 1, max: 1825 }).map((n) => new PatchCurrent(n)),
        nonZero.map((n) => new PatchStale(n)),
        fc.constantFrom(undefined, 'abc').map((h) => new PatchWithoutIfMatch(h)),
        nonZero.map((n) => new DeleteStale(n)),
        fc.constantFrom(undefined, 'abc').map((h) => new DeleteWithoutIfMatch(h)),
      ],
      { maxCommands: 7 },
    );
    await t.property(
      commands,
      async (cmds) => {
        const type = await createType(t);
        const real: TypeReal = { t, id: type.id };
        const model: TypeModel = { etag: type.etag, ttl: type.ttl };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await readType(model, real);
      },
      { rule: 'event-management/etags/event-type-etag-counter', runs: Math.min(t.session.context.runs, 6) },
    );
    const type = await createType(t);
    const real: TypeReal = { t, id: type.id };
    const model: TypeModel = { etag: type.etag, ttl: type.ttl };
    for (const c of [
      new GetType(),
      new GetTypeIfNoneMatch(),
      new PatchCurrent(40),
      new PatchStale(-1),
      new PatchStale(5),
      new PatchWithoutIfMatch(undefined),
      new PatchWithoutIfMatch('abc'),
      new DeleteStale(-1),
      new DeleteStale(3),
      new DeleteWithoutIfMatch(undefined),
      new DeleteWithoutIfMatch('abc'),
      new GetType(),
    ]) {
      await c.run(model, real);
    }
  },
  { budget: 20, budgetPerRun: 12, timeout: 120_000 },
);

// "304 Not Modified answers a conditional GET whose If-None-Match matches." What matches is HTTP's:
// the field value * matches any current representation of the target (RFC 9110, 13.1.2).
emTest(
  ['event-management/etags/get-event-type-304'],
  'GET /eventTypes/{id} with If-None-Match: * answers 304 (any current representation matches)',
  async (t) => {
    const id = fixtures(t).standardEventTypeId;
    const res = await send(t, {
      method: 'GET',
      path: `/eventTypes/${encodeURIComponent(id)}`,
      headers: { 'If-None-Match': '*' },
    });
    expect(
      t,
      'event-management/etags/get-event-type-304',
      res.status === 304 && res.text === '',
      'If-None-Match: * not answered 304 without a body',
      'HTTP 304, no body',
      seen(res),
    );
  },
  { readOnly: true, budget: 1 },
);

// "304 Not Modified answers a conditional GET whose If-None-Match matches." In HTTP the field is a
// list of entity tags, compared weakly (RFC 9110, 13.1.2): a list holding the current tag matches,
// wherever the tag stands in it, and so does the weak form W/"…" of a strong tag.
emTest(
  ['event-management/etags/get-event-type-304'],
  'GET /eventTypes/{id} with an If-None-Match list holding the current ETag (after another tag), or its weak form, answers 304',
  async (t) => {
    const path = `/eventTypes/${encodeURIComponent(fixtures(t).standardEventTypeId)}`;
    const current = (await send(t, { method: 'GET', path })).headers.etag;
    if (!current) t.skip('GET of the type answered no ETag; judged by etags/event-type-etag-header');
    const cases: Array<[string, string]> = [[`"conformance-other", ${current}`, 'a list with the current ETag second']];
    if (current.startsWith('"')) cases.push([`W/${current}`, 'the weak form of the current ETag']);
    for (const [header, what] of cases) {
      const res = await send(t, { method: 'GET', path, headers: { 'If-None-Match': header } });
      verify(
        t,
        'event-management/etags/get-event-type-304',
        res.status === 304 && res.text === '',
        `If-None-Match with ${what} not answered 304 without a body`,
        `HTTP 304, no body, for If-None-Match: ${header}`,
        seen(res),
      );
    }
  },
  { readOnly: true, budget: 3 },
);

// ---------------------------------------------------------------- queries

emTest(
  ['event-management/etags/query-etag-header', 'event-management/etags/query-events-304'],
  'GET /events answers an ETag; If-None-Match of an unchanged result is 304; a new event changes the ETag',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER', { filterable: true })] });
    await createEvent(t, { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t), n: 1 });
    const query = { filter: where({ typeId: type.id }) };
    const first = (
      await eventually(
        () => send(t, { method: 'GET', path: '/events', query }),
        (r) => embedded(r, 'events').length === 1,
      )
    ).value;
    const tag1 = first.headers.etag;
    expect(
      t,
      'event-management/etags/query-etag-header',
      first.status === 200 && !!tag1,
      'GET /events answered no ETag',
      'an ETag header',
      seen(first, 120),
    );
    const again = await send(t, { method: 'GET', path: '/events', query, headers: { 'If-None-Match': tag1 } });
    expect(
      t,
      'event-management/etags/query-events-304',
      again.status === 304 && again.text === '',
      'If-None-Match of an unchanged result not answered 304 without a body',
      'HTTP 304, no body',
      seen(again, 160),
    );
    await postEvent(t, { typeId: type.id, timestamp: iso(-30_000), entityId: entity(t), n: 2 });
    const changed = await eventually(
      () => send(t, { method: 'GET', path: '/events', query, headers: { 'If-None-Match': tag1 } }),
      (r) => r.status === 200 && embedded(r, 'events').length === 2,
    );
    expect(
      t,
      'event-management/etags/query-etag-header',
      changed.ok && !!changed.value.headers.etag && changed.value.headers.etag !== tag1,
      'the query ETag did not change with the result',
      `HTTP 200 with an ETag other than ${tag1}`,
      seen(changed.value, 160),
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 8 },
);

emTest(
  ['event-management/etags/query-etag-header', 'event-management/etags/query-event-types-304'],
  'GET /eventTypes answers an ETag; If-None-Match of an unchanged result is 304; a change of a listed type changes it',
  async (t) => {
    const type = await createType(t);
    const query = { filter: where({ id: type.id }) };
    const first = (
      await eventually(
        () => send(t, { method: 'GET', path: '/eventTypes', query }),
        (r) => embedded(r, 'eventTypes').length === 1,
      )
    ).value;
    const tag1 = first.headers.etag;
    expect(
      t,
      'event-management/etags/query-etag-header',
      first.status === 200 && !!tag1,
      'GET /eventTypes answered no ETag',
      'an ETag header',
      seen(first, 120),
    );
    const again = await send(t, { method: 'GET', path: '/eventTypes', query, headers: { 'If-None-Match': tag1 } });
    expect(
      t,
      'event-management/etags/query-event-types-304',
      again.status === 304 && again.text === '',
      'If-None-Match of an unchanged result not answered 304 without a body',
      'HTTP 304, no body',
      seen(again, 160),
    );
    await send(t, {
      method: 'PATCH',
      path: `/eventTypes/${encodeURIComponent(type.id)}`,
      headers: { 'If-Match': String(type.etag) },
      json: { op: 'replace', path: '/ttl', value: 36 },
    });
    const changed = await eventually(
      () => send(t, { method: 'GET', path: '/eventTypes', query, headers: { 'If-None-Match': tag1 } }),
      (r) => r.status === 200 && body(r)._embedded?.eventTypes?.[0]?.ttl === 36,
    );
    expect(
      t,
      'event-management/etags/query-etag-header',
      changed.ok && !!changed.value.headers.etag && changed.value.headers.etag !== tag1,
      'the query ETag did not change with the result',
      `HTTP 200 with an ETag other than ${tag1}`,
      seen(changed.value, 160),
    );
  },
  { budget: 8 },
);
