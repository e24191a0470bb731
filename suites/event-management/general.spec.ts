import { where } from '../engine/filter-expression.ts';
import { answered, hasRequiredMembers, refused, holds } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import {
  SERVICE,
  BASE_PATH,
  body,
  emTest,
  entity,
  eventually,
  iso,
  pollJob,
  send,
  seen,
  senderOf,
  onceVisible,
} from './em-client.ts';
import { createEvent, createType, field, typeDeleted, postCreateJob, postEvent, standardBody } from './em-resources.ts';
import { EVENTS_PAGE } from './em-bounds.ts';

const isAbsolute = (href: unknown) => typeof href === 'string' && /^https?:\/\/[^/]+\//.test(href);

emTest(
  [
    'event-management/info/billboard',
    'event-management/info/links',
    'event-management/info/templated-filter-links',
    'event-management/general/base-path',
  ],
  'GET / answers the billboard with absolute, templated links under the base path',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/' });
    answered(t, { rule: 'event-management/info/billboard', res, what: 'the billboard' });
    // The document lists the links bare ("self.href; events, …") and serves application/hal+json,
    // where links live under _links: either placement is one the documents allow.
    const top = body(res);
    const b = !top.self && top._links && typeof top._links === 'object' ? top._links : top;
    const names = ['events', 'eventTypes', 'deleteEventsJobs', 'createEventsJobs'];
    // The contract's uri format cannot hold the URI templates the document asks for; the shape is checked here.
    hasRequiredMembers(t, {
      rule: 'event-management/info/billboard',
      service: SERVICE,
      schema: '#/components/schemas/InfoResponse',
      value: b,
      what: 'the InfoResponse links',
      shape: 'object',
      answer: () => seen(res),
    });
    const bad = names.filter((n) => !isAbsolute(b[n]?.href) || typeof b[n]?.templated !== 'boolean');
    holds(t, {
      rule: 'event-management/info/links',
      ok: isAbsolute(b.self?.href) && bad.length === 0,
      failure: 'billboard links incomplete',
      expected:
        'self.href and events, eventTypes, deleteEventsJobs, createEventsJobs with an absolute href and a boolean templated',
      received: () =>
        `wrong: ${[...(isAbsolute(b.self?.href) ? [] : ['self']), ...bad].join(', ')} — ${JSON.stringify(b).slice(0, 300)}`,
      soft: true,
    });
    for (const n of ['events', 'eventTypes']) {
      const link = b[n] ?? {};
      holds(t, {
        rule: 'event-management/info/templated-filter-links',
        ok: link.templated === true && /\{\?[^}]*\bfilter\b[^}]*\}/.test(String(link.href)),
        failure: `${n} link is not a URI template with an optional filter`,
        expected: `${n}: templated true, href with {?filter}`,
        received: JSON.stringify(link),
        soft: true,
      });
    }
    const hrefs = ['self', ...names].map((n) => String(b[n]?.href ?? ''));
    const outside = hrefs.filter((h) => !h.includes(`${BASE_PATH}/`));
    holds(t, {
      rule: 'event-management/general/base-path',
      ok: outside.length === 0,
      failure: 'billboard links outside the base path',
      expected: `every href under ${BASE_PATH}/`,
      received: outside.join(', '),
      soft: true,
    });
  },
  { readOnly: true, budget: 1 },
);

emTest(
  [
    'event-management/general/base-path',
    'event-management/general/major-version-path',
    'event-management/auth/oauth2-schemes',
  ],
  'every documented operation is served under /api/eventmanagement/v3 to a bearer token',
  async (t) => {
    const sendT = senderOf(t);
    const step = (what: string, res: HttpResponse, statuses: number[]) => {
      holds(t, {
        rule: 'event-management/auth/oauth2-schemes',
        ok: res.status !== 401,
        failure: `${what}: the bearer token was refused`,
        expected: 'the bearer access token in Authorization accepted',
        received: seen(res),
      });
      answered(t, { rule: 'event-management/general/base-path', res, what: `${what} under ${BASE_PATH}`, statuses });
      for (const href of [res.headers.location, body(res)._links?.self?.href].filter(
        (h): h is string => typeof h === 'string',
      )) {
        holds(t, {
          rule: 'event-management/general/major-version-path',
          ok: new URL(href, 'http://x').pathname.startsWith(`${BASE_PATH}/`),
          failure: `${what}: link outside /v3`,
          expected: `a link under ${BASE_PATH}/`,
          received: href,
          soft: true,
        });
      }
    };
    step('GET /', await send(t, { method: 'GET', path: '/' }), [200]);
    // updatable given: its default is not shown (the document contradicts itself).
    const type = await createType(t, { fields: [field('level', 'INTEGER', { filterable: true, updatable: true })] });
    const typePath = `/eventTypes/${encodeURIComponent(type.id)}`;
    step('GET /eventTypes/{id}', await onceVisible(() => sendT({ method: 'GET', path: typePath })), [200]);
    const patched = await send(t, {
      method: 'PATCH',
      path: typePath,
      headers: { 'If-Match': String(type.etag) },
      json: { op: 'add', path: '/fields', value: { name: 'note', type: 'STRING' } },
    });
    step('PATCH /eventTypes/{id}', patched, [200]);
    step(
      'GET /eventTypes',
      await send(t, { method: 'GET', path: '/eventTypes', query: { filter: where({ id: type.id }) } }),
      [200],
    );
    const ev = await createEvent(t, { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t), level: 1 });
    const evPath = `/events/${ev.id}`;
    const got = await onceVisible(() => sendT({ method: 'GET', path: evPath }));
    step('GET /events/{id}', got, [200]);
    step(
      'PUT /events/{id}',
      await send(t, {
        method: 'PUT',
        path: evPath,
        headers: { 'If-Match': String(ev.etag) },
        json: {
          typeId: type.id,
          correlationId: ev.correlationId,
          timestamp: ev.timestamp,
          entityId: ev.entityId,
          level: 2,
        },
      }),
      [200],
    );
    step(
      'GET /events',
      await send(t, { method: 'GET', path: '/events', query: { filter: where({ typeId: type.id }) } }),
      [200],
    );
    const cj = await postCreateJob(t, [{ typeId: type.id, timestamp: iso(-90_000), entityId: entity(t), level: 3 }]);
    step('POST /createEventsJobs', cj, [202]);
    const cjTrace = await pollJob(sendT, 'create', String(body(cj).id));
    step('GET /createEventsJobs/{id}', cjTrace.last, [200]);
    const dj = await send(t, {
      method: 'POST',
      path: '/deleteEventsJobs',
      json: { filter: where({ typeId: type.id }) },
    });
    step('POST /deleteEventsJobs', dj, [202]);
    const djTrace = await pollJob(sendT, 'delete', String(body(dj).id));
    step('GET /deleteEventsJobs/{id}', djTrace.last, [200]);
    const del = await eventually(
      async () => {
        const current = await sendT({ method: 'GET', path: typePath });
        return sendT({ method: 'DELETE', path: typePath, headers: { 'If-Match': String(body(current).etag) } });
      },
      (r) => r.status === 204,
    );
    step('DELETE /eventTypes/{id}', del.value, [204]);
    typeDeleted(type.id);
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 40 },
);

emTest(
  ['event-management/general/json-request-bodies'],
  'a request body that is not valid JSON is answered 400 with the error body by every operation that takes one',
  async (t) => {
    const type = await createType(t);
    const ev = await createEvent(t, standardBody(t));
    const broken = '{"timestamp": "2026-01-01T00:00:00Z", "entityId": ';
    const targets: Array<[string, string, Record<string, string>]> = [
      ['POST', '/events', {}],
      ['PUT', `/events/${ev.id}`, { 'If-Match': String(ev.etag) }],
      ['POST', '/eventTypes', {}],
      ['PATCH', `/eventTypes/${encodeURIComponent(type.id)}`, { 'If-Match': String(type.etag) }],
      ['POST', '/deleteEventsJobs', {}],
      ['POST', '/createEventsJobs', {}],
    ];
    for (const [method, path, headers] of targets) {
      const res = await send(t, {
        method,
        path,
        body: broken,
        headers: { 'content-type': 'application/json', ...headers },
      });
      refused(t, {
        rule: 'event-management/general/json-request-bodies',
        res,
        what: `${method} ${path.replace(/\/[^/]+$/, '/{id}')} with a truncated JSON body`,
      });
    }
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 10 },
);

emTest(
  ['event-management/errors/error-codes'],
  'what an error body carries besides logref and message (machine-readable codes are not documented)',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/events', query: { size: EVENTS_PAGE.max + 1 } });
    const items = Array.isArray(res.json) ? (res.json as Array<Record<string, unknown>>) : [];
    const keys = [...new Set(items.flatMap((i) => (i && typeof i === 'object' ? Object.keys(i) : [])))];
    t.observe(
      'event-management/errors/error-codes',
      `GET /events?size=501: HTTP ${res.status}; error item keys: ${keys.join(', ') || '(none)'}${keys.some((k) => /code/i.test(k)) ? '' : '; no code field'}`,
    );
  },
  { readOnly: true, budget: 1 },
);

emTest(
  ['event-management/errors/rate-limits'],
  'how the service answers when it throttles (rate limits are not documented)',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/', query: {} });
    const samples = t.session.http.stats.throttleSamples.filter((s) => s.path.startsWith(BASE_PATH));
    t.observe(
      'event-management/errors/rate-limits',
      `GET / answered HTTP ${res.status}; ${samples.length} throttled answers of this service seen in the run so far${samples.length ? ` (statuses ${[...new Set(samples.map((s) => s.status))].join(', ')})` : ''}`,
    );
  },
  { readOnly: true, budget: 1 },
);

emTest(
  ['event-management/errors/notifications'],
  'outgoing notifications to subscribers are not observable (not documented)',
  async (t) => {
    const res = await postEvent(t, standardBody(t));
    const hints = Object.keys(res.headers).filter((h) => /notif|subscri|webhook/i.test(h));
    t.observe(
      'event-management/errors/notifications',
      `POST /events answered HTTP ${res.status}; notification-related headers: ${hints.join(', ') || 'none'}; nothing else about notifications is visible to a client`,
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 1 },
);
