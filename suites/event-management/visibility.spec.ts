import { VISIBILITY_DEADLINE_MS, body, emTest, eventually, filter, send, seen, embedded } from './em-client.ts';
import { expect } from './em-checks.ts';
import { asRequest, createEvent, createType, putEvent, standardBody } from './em-resources.ts';

emTest(
  ['general/visibility-delay'],
  'new and changed events and event types become visible to reads (the document allows 100 ms; the suite waits up to 2 s)',
  async (t) => {
    const lags: string[] = [];
    const e = await createEvent(t, standardBody(t, { severity: 1 }));
    const seenNew = await eventually(
      () => send(t, { method: 'GET', path: `/events/${e.id}` }),
      (r) => r.status === 200,
    );
    expect(
      t,
      'general/visibility-delay',
      seenNew.ok,
      'a new event never became visible',
      `HTTP 200 within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(seenNew.value, 160),
    );
    lags.push(`new event ${seenNew.elapsedMs} ms`);
    const put = await putEvent(t, e.id, String(e.etag), { ...asRequest(e), severity: 2 });
    expect(t, 'general/visibility-delay', put.status === 200, 'the update was refused', 'HTTP 200', seen(put, 160));
    const seenChange = await eventually(
      () => send(t, { method: 'GET', path: `/events/${e.id}` }),
      (r) => body(r).severity === 2,
    );
    expect(
      t,
      'general/visibility-delay',
      seenChange.ok,
      'a changed event never showed the change',
      `severity 2 within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(seenChange.value, 160),
    );
    lags.push(`changed event ${seenChange.elapsedMs} ms`);
    const type = await createType(t);
    const path = `/eventTypes/${encodeURIComponent(type.id)}`;
    const seenType = await eventually(
      () => send(t, { method: 'GET', path }),
      (r) => r.status === 200,
    );
    expect(
      t,
      'general/visibility-delay',
      seenType.ok,
      'a new event type never became visible',
      `HTTP 200 within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(seenType.value, 160),
    );
    lags.push(`new type ${seenType.elapsedMs} ms`);
    const patched = await send(t, {
      method: 'PATCH',
      path,
      headers: { 'If-Match': String(type.etag) },
      json: { op: 'replace', path: '/ttl', value: 99 },
    });
    expect(
      t,
      'general/visibility-delay',
      patched.status === 200,
      'the PATCH was refused',
      'HTTP 200',
      seen(patched, 160),
    );
    const seenPatch = await eventually(
      () => send(t, { method: 'GET', path }),
      (r) => body(r).ttl === 99,
    );
    expect(
      t,
      'general/visibility-delay',
      seenPatch.ok,
      'a changed event type never showed the change',
      `ttl 99 within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(seenPatch.value, 160),
    );
    lags.push(`changed type ${seenPatch.elapsedMs} ms`);
    const seenList = await eventually(
      () => send(t, { method: 'GET', path: '/eventTypes', query: { filter: filter({ id: type.id }) } }),
      (r) => body(r)._embedded?.eventTypes?.[0]?.ttl === 99,
    );
    expect(
      t,
      'general/visibility-delay',
      seenList.ok,
      'a changed event type never showed the change in queries',
      `ttl 99 within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(seenList.value, 160),
    );
  },
  { budget: 40 },
);

emTest(
  ['general/eventual-consistency'],
  'a new event shows up in GET /events once processed (missing within the allowance is tolerated)',
  async (t) => {
    const e = await createEvent(t, standardBody(t));
    const res = await eventually(
      () =>
        send(t, {
          method: 'GET',
          path: '/events',
          query: { filter: filter({ entityId: e.entityId, correlationId: e.correlationId }) },
        }),
      (r) => embedded(r, 'events').some((x: any) => x.id === e.id),
    );
    expect(
      t,
      'general/eventual-consistency',
      res.ok,
      'a new event never appeared in GET /events',
      `the event within ${VISIBILITY_DEADLINE_MS} ms`,
      seen(res.value, 160),
    );
  },
  { budget: 20 },
);
