import { randomUUID } from 'node:crypto';
import { holds, taken } from '../engine/checks/index.ts';
import { where } from '../engine/filter-expression.ts';
import fc from 'fast-check';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, entity, eventually, send, seen, embedded, type EmQuery } from './em-client.ts';
import { createType, field, postEvent } from './em-resources.ts';

/** One instance of a history as the model keeps it. */
interface Instance {
  id: string;
  at: number;
}

/** Histories per (correlationId, entityId) of one run. */
interface HistoryModel {
  histories: Map<string, Instance[]>;
  /** Timestamps handed out so far (distinct, so "latest" is unambiguous). */
  clock: number;
}

interface HistoryReal {
  t: RuleContext;
  typeId: string;
  correlationIds: string[];
  entities: string[];
}

const key = (c: number, e: number) => `${c}|${e}`;
const latestOf = (list: Instance[]) => list.reduce((a, b) => (b.at > a.at ? b : a));
/** The instance written last: the latest on the other reading of "latest" (see QueryLatest). */
const lastWrittenOf = (list: Instance[]) => list[list.length - 1];

async function query(r: HistoryReal, c: number, history: 'true' | 'false' | undefined) {
  const q: EmQuery = {
    size: '100',
    filter: where({ typeId: r.typeId, correlationId: r.correlationIds[c] }),
  };
  if (history) q.history = history;
  return send(r.t, { method: 'GET', path: '/events', query: q });
}

const ids = (res: Awaited<ReturnType<typeof query>>) =>
  (embedded(res, 'events') as any[]).map((e) => String(e.id)).sort();

class PostInstance implements fc.AsyncCommand<HistoryModel, HistoryReal> {
  constructor(
    readonly c: number,
    readonly e: number,
    readonly back: number,
  ) {}
  check = () => true;
  async run(m: HistoryModel, r: HistoryReal) {
    // Timestamps go back and forth: a new instance is not always the latest one.
    m.clock += 1;
    const at = Date.now() - 600_000 - this.back * 60_000 + m.clock;
    const res = await postEvent(r.t, {
      typeId: r.typeId,
      correlationId: r.correlationIds[this.c],
      entityId: r.entities[this.e],
      timestamp: new Date(at).toISOString(),
      n: m.clock,
    });
    const known = [...m.histories.values()].flat().map((i) => i.id);
    taken(r.t, {
      rule: 'event-management/events/history-new-instance',
      res,
      what: 'a new instance of a history',
      statuses: [201],
      shows: { id: (v: unknown) => typeof v === 'string' && !known.includes(v) },
      showsText: 'a new id',
    });
    const list = m.histories.get(key(this.c, this.e)) ?? [];
    list.push({ id: body(res).id, at });
    m.histories.set(key(this.c, this.e), list);
  }
  toString = () => `POST c${this.c} e${this.e} -${this.back}min`;
}

class QueryLatest implements fc.AsyncCommand<HistoryModel, HistoryReal> {
  constructor(
    readonly c: number,
    readonly explicit: boolean,
  ) {}
  check = () => true;
  async run(m: HistoryModel, r: HistoryReal) {
    const lists = [...m.histories.entries()].filter(([k]) => k.startsWith(`${this.c}|`)).map(([, list]) => list);
    const want = JSON.stringify(lists.map((l) => latestOf(l).id).sort());
    const lastWritten = JSON.stringify(lists.map((l) => lastWrittenOf(l).id).sort());
    const res = await eventually(
      () => query(r, this.c, this.explicit ? 'false' : undefined),
      (x) => x.status === 200 && [want, lastWritten].includes(JSON.stringify(ids(x))),
    );
    const what = `history=${this.explicit ? 'false' : '(default)'}`;
    // One instance of each history, the latest one: the document. That "latest" is the greatest
    // timestamp rather than the instance written last is our reading (latest-by-timestamp).
    holds(r.t, {
      rule: 'event-management/queries/history-latest-only',
      ok: res.ok,
      failure: `${what} did not return exactly one (the latest) instance of each history`,
      expected: want,
      received: () => `${JSON.stringify(ids(res.value))} — ${seen(res.value, 120)}`,
    });
    holds(r.t, {
      reading: 'latest-by-timestamp',
      rule: 'event-management/queries/history-latest-only',
      ok: JSON.stringify(ids(res.value)) === want,
      failure: `${what} returned the instance written last, not the one with the greatest timestamp`,
      expected: want,
      received: () => JSON.stringify(ids(res.value)),
    });
  }
  toString = () => `GET c${this.c} history=${this.explicit ? 'false' : 'default'}`;
}

class QueryAll implements fc.AsyncCommand<HistoryModel, HistoryReal> {
  constructor(readonly c: number) {}
  check = () => true;
  async run(m: HistoryModel, r: HistoryReal) {
    const want = [...m.histories.entries()]
      .filter(([k]) => k.startsWith(`${this.c}|`))
      .flatMap(([, list]) => list.map((i) => i.id))
      .sort();
    const res = await eventually(
      () => query(r, this.c, 'true'),
      (x) => x.status === 200 && JSON.stringify(ids(x)) === JSON.stringify(want),
    );
    holds(r.t, {
      rule: 'event-management/queries/history-all-instances',
      ok: res.ok,
      failure: 'history=true did not return every instance',
      expected: JSON.stringify(want),
      received: () => `${JSON.stringify(ids(res.value))} — ${seen(res.value, 120)}`,
    });
  }
  toString = () => `GET c${this.c} history=true`;
}

class GetEarlier implements fc.AsyncCommand<HistoryModel, HistoryReal> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<HistoryModel>) => [...m.histories.values()].some((l) => l.length > 1);
  async run(m: HistoryModel, r: HistoryReal) {
    const earlier = [...m.histories.values()].flatMap((l) => l.filter((i) => i !== latestOf(l)));
    const target = earlier[this.pick % earlier.length];
    const res = await eventually(
      () => send(r.t, { method: 'GET', path: `/events/${target.id}` }),
      (x) => x.status === 200,
    );
    holds(r.t, {
      rule: 'event-management/events/history-new-instance',
      ok: res.ok && body(res.value).id === target.id,
      failure: 'an earlier instance of a history is not readable by id',
      expected: `HTTP 200 for ${target.id}`,
      received: seen(res.value, 160),
    });
  }
  toString = () => `GET earlier #${this.pick}`;
}

emTest(
  [
    'event-management/events/history-new-instance',
    'event-management/queries/history-latest-only',
    'event-management/queries/history-all-instances',
  ],
  'event histories (model): same typeId, correlationId and entityId add instances; history=false shows the latest, history=true all',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER')] });
    const entities = [entity(t, 0), entity(t, 1)];
    const commands = fc.commands(
      [
        fc.tuple(fc.nat(1), fc.nat(1), fc.nat(5)).map(([c, e, back]) => new PostInstance(c, e, back)),
        fc.tuple(fc.nat(1), fc.boolean()).map(([c, explicit]) => new QueryLatest(c, explicit)),
        fc.nat(1).map((c) => new QueryAll(c)),
        fc.nat(10).map((n) => new GetEarlier(n)),
      ],
      { maxCommands: 8 },
    );
    await t.property(
      commands,
      async (cmds) => {
        const real: HistoryReal = { t, typeId: type.id, correlationIds: [randomUUID(), randomUUID()], entities };
        await fc.asyncModelRun(() => ({ model: { histories: new Map(), clock: 0 }, real }), cmds);
      },
      { rule: 'event-management/events/history-new-instance', runs: Math.min(t.session.context.runs, 10) },
    );
    // A fixed sequence that exercises every command: three instances of one history, the middle one newest.
    const real: HistoryReal = { t, typeId: type.id, correlationIds: [randomUUID(), randomUUID()], entities };
    const model: HistoryModel = { histories: new Map(), clock: 0 };
    for (const c of [
      new PostInstance(0, 0, 3),
      new PostInstance(0, 0, 0),
      new PostInstance(0, 0, 5),
      new PostInstance(0, 1, 1),
      new QueryLatest(0, true),
      new QueryLatest(0, false),
      new QueryAll(0),
      new GetEarlier(0),
    ]) {
      await c.run(model, real);
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 12, budgetPerRun: 10, timeout: 120_000 },
);
