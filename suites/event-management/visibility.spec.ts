import { where } from '../engine/filter-expression.ts';
import { holds, answered, listed } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { VISIBILITY_DEADLINE_MS, body, emTest, eventually, send, seen, embedded } from './em-client.ts';
import { createEvent, standardBody } from './em-resources.ts';
import { RESOURCES } from './em-descriptions.ts';
import { VISIBILITY_DELAY_MS } from './em-bounds.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The document's allowance: "may take 100 ms to become visible". */
const VISIBILITY_MS = VISIBILITY_DELAY_MS;

/** The severity or ttl a change sets: any other than the one a record was created with. */
const CHANGED = 99; // not a contract bound: any value other than the one created

/**
 * Times a write to the moment its answer arrived, so that visibility is measured from there; the
 * write's own round trip is added to the allowance (the service's 100 ms start before its answer
 * reaches the suite, by at most that round trip).
 */
async function timed<T>(write: () => Promise<T>): Promise<{ value: T; answeredAt: number; rttMs: number }> {
  const started = Date.now();
  const value = await write();
  const answeredAt = Date.now();
  return { value, answeredAt, rttMs: answeredAt - started };
}

/**
 * Polls a read every 10 ms from the write's answer on: visible when a read shows the write; a
 * read that started after the allowance (100 ms plus the write's round trip) and still misses it
 * fails the rule. The time it took in the end is measured (up to the suite's 2 s deadline) for
 * the report.
 */
async function judgeVisibility(
  t: RuleContext,
  what: string,
  write: { answeredAt: number; rttMs: number },
  probe: () => Promise<HttpResponse>,
  done: (r: HttpResponse) => boolean,
  lags: string[],
): Promise<void> {
  const allowance = VISIBILITY_MS + write.rttMs;
  for (;;) {
    const startedAt = Date.now() - write.answeredAt;
    const r = await probe();
    if (done(r)) {
      lags.push(`${what}: visible to a read started ${startedAt} ms after the answer (allowance ${allowance} ms)`);
      holds(t, {
        rule: 'event-management/general/visibility-delay',
        ok: true,
        failure: `${what} not visible`,
        expected: 'visible',
        received: lags.join('; '),
      });
      return;
    }
    if (startedAt >= allowance) {
      const later = await eventually(probe, done);
      const total = Date.now() - write.answeredAt;
      holds(t, {
        rule: 'event-management/general/visibility-delay',
        ok: false,
        failure: `${what} not visible within ${VISIBILITY_MS} ms`,
        expected: `visible to reads started ${allowance} ms after the write was answered (${VISIBILITY_MS} ms, plus ${write.rttMs} ms for the write's round trip)`,
        received: `a read started ${startedAt} ms after the answer missed it; ${later.ok ? `visible after about ${total} ms` : `still not visible after ${total} ms`}: ${seen(later.value, 160)}`,
      });
    }
    await sleep(10);
  }
}

emTest(
  ['event-management/general/visibility-delay'],
  `new and changed events and event types become visible to reads within ${VISIBILITY_MS} ms of the answer (plus its round trip)`,
  async (t) => {
    const lags: string[] = [];
    for (const r of RESOURCES) {
      const made = await timed(() => r.post(t));
      const x = body(made.value);
      const get = () => send(t, { method: 'GET', path: r.path(String(x.id)) });
      await judgeVisibility(t, `a new ${r.noun}`, made, get, (res) => res.status === 200, lags);
      const changed = await timed(() => r.change(t, x, undefined, CHANGED));
      answered(t, {
        rule: 'event-management/general/visibility-delay',
        res: changed.value,
        what: `the change of a ${r.noun}`,
      });
      const shows = (y: Record<string, unknown> | undefined) => y?.[r.changes] === CHANGED;
      await judgeVisibility(t, `a changed ${r.noun}`, changed, get, (res) => shows(body(res)), lags);
      const query = () => send(t, { method: 'GET', path: r.collection, query: { filter: r.only(x) } });
      await judgeVisibility(
        t,
        `a changed ${r.noun} in queries`,
        changed,
        query,
        (res) => shows(embedded(res, r.listKey)[0]),
        lags,
      );
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 120 },
);

emTest(
  ['event-management/general/eventual-consistency'],
  'a new event shows up in GET /events once processed (missing within the allowance is tolerated)',
  async (t) => {
    const e = await createEvent(t, standardBody(t));
    const res = await eventually(
      () =>
        send(t, {
          method: 'GET',
          path: '/events',
          query: { filter: where({ entityId: e.entityId, correlationId: e.correlationId }) },
        }),
      (r) => embedded(r, 'events').some((x: any) => x.id === e.id),
    );
    listed(t, {
      rule: 'event-management/general/eventual-consistency',
      res: res.value,
      items: [e.id],
      holds: (r, id) => embedded(r, 'events').some((x: any) => x.id === id),
      anyStatus: true,
      what: `a new event in GET /events within ${VISIBILITY_DEADLINE_MS} ms`,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 20 },
);
