import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { SERVICE_INFO } from '../../contracts/services.ts';
import type { HttpRequest, HttpResponse } from '../engine/http-client.ts';
import { probeThrottle, THROTTLE_PROBE, unmetThrottleReason } from '../engine/throttle-probe.ts';
import { genericCode, genericCodesIn, hasCode, holds, refused, served, withCode } from '../engine/checks/index.ts';
import { UNKNOWN_ID, notificationTest as test, seen, send } from './notification-client.ts';

const BASE = SERVICE_INFO.notification.basePath;

test(
  ['notification/general/base-path', 'notification/general/major-version-in-path', 'notification/errors/code-no-match'],
  'the operations are served under /api/notification/v3, and a path naming none answers 404',
  async (t) => {
    for (const path of [
      '/recipient/addresstype',
      '/communicationchannel/',
      '/paramtype/',
      '/communicationcategories/',
    ]) {
      const res = await send(t, { method: 'GET', path });
      for (const rule of ['notification/general/base-path', 'notification/general/major-version-in-path']) {
        served(t, {
          rule: rule,
          res,
          what: `GET ${BASE}${path}`,
        });
      }
    }
    for (const path of [`/${t.prefix}nosuchoperation`, '/recipient/addresstype/extra/segments', '/publisher']) {
      const res = await send(t, { method: 'GET', path });
      refused(t, {
        rule: 'notification/general/base-path',
        res,
        what: `GET ${BASE}${path}, which names no operation`,
        ...withCode('noMatch'),
        statuses: [404],
      });
    }
  },
  { readOnly: true, budget: 7 },
);

test(
  ['notification/general/json-bodies', 'notification/errors/code-invalid-request-body-property'],
  'JSON operations answer application/json and refuse a body that is not well-formed JSON with 400',
  async (t) => {
    for (const path of [
      '/communicationcategories/',
      '/communicationcategories/bouncedEmailIds',
      '/recipient/addresstype',
      '/paramtype/',
    ]) {
      const res = await send(t, { method: 'GET', path });
      holds(t, {
        rule: 'notification/general/json-bodies',
        ok: res.status === 200 && res.contentType === 'application/json' && res.json !== undefined,
        failure: `GET ${path} not answered as JSON`,
        expected: 'HTTP 200 application/json with a JSON body',
        received: `${res.contentType || '(no content type)'} ${seen(res, 100)}`,
      });
    }
    for (const [path, method] of [
      ['/recipient/', 'POST'],
      ['/communicationcategories/', 'POST'],
      ['/audit/searchauditstatus', 'POST'],
    ] as const) {
      const res = await send(t, { method, path, body: '{"recipientname": "Anna", ' });
      refused(t, {
        rule: 'notification/general/json-bodies',
        res,
        what: `${method} ${path} with a body cut off mid-JSON`,
        ...withCode('invalidRequestBodyProperty'),
      });
      // The error body's shape is "not shown": that it comes as application/json is our reading.
      holds(t, {
        rule: 'notification/general/json-bodies',
        ok: res.contentType === 'application/json',
        failure: 'error not answered as application/json',
        expected: 'application/json',
        received: res.contentType || '(none)',
        reading: 'error-body-json',
      });
    }
  },
  { budget: 7 },
);

interface Malformed {
  kind: string;
  /** Must be refused (4xx); the others only must not fail the server. */
  strict: boolean;
  /** The body is not well-formed JSON (general/json-bodies: 400). */
  notJson?: boolean;
  /** No sentence makes the input malformed: no 5xx is our reading `reading`. */
  reading?: string;
  apply: (req: HttpRequest) => HttpRequest;
}

/** Ways to break a request body; `strict` ones must be refused (4xx), the others only must not fail the server. */
const MALFORMED: Malformed[] = [
  {
    kind: 'broken JSON',
    strict: true,
    notJson: true,
    apply: (r) => ({ ...r, body: '{"name": [1, 2', json: undefined }),
  },
  { kind: 'a JSON array body', strict: true, apply: (r) => ({ ...r, body: '[1,2,3]', json: undefined }) },
  { kind: 'a JSON string body', strict: true, apply: (r) => ({ ...r, body: '"text"', json: undefined }) },
  { kind: 'a JSON null body', strict: true, apply: (r) => ({ ...r, body: 'null', json: undefined }) },
  {
    kind: 'an XML body',
    strict: true,
    apply: (r) => ({ ...r, body: '<x>1</x>', json: undefined, headers: { 'content-type': 'application/xml' } }),
  },
  {
    kind: 'a body in an unknown media type',
    strict: true,
    apply: (r) => ({
      ...r,
      body: 'a=1&b=2',
      json: undefined,
      headers: { 'content-type': 'application/x-cfz-unknown' },
    }),
  },
  {
    kind: 'a broken multipart body',
    strict: true,
    apply: (r) => ({
      ...r,
      body: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated',
      json: undefined,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    }),
  },
  {
    kind: 'strings of 100000 characters',
    strict: false,
    // No field length nor message size is shown ("maximum message size: not shown"), and 500
    // internalServerError "may occur on any operation": a storage limit failing the server is allowed.
    reading: 'oversized-string-no-5xx',
    apply: (r) => ({
      ...r,
      json: Object.fromEntries(Object.keys((r.json as object) ?? { name: 1 }).map((k) => [k, 'x'.repeat(100_000)])),
    }),
  },
  {
    kind: 'every property of the wrong type',
    strict: false,
    apply: (r) => ({
      ...r,
      json: Object.fromEntries(Object.keys((r.json as object) ?? { name: 1 }).map((k) => [k, { wrong: [true] }])),
    }),
  },
];

/**
 * JSON operations with a representative body. Wrongly accepted input sends nothing (no recipients,
 * unknown IDs); the creating operations get only bodies that can create nothing.
 */
const JSON_OPERATIONS: Array<HttpRequest & { creates?: boolean }> = [
  { method: 'POST', path: '/recipient/', json: { recipientname: 'Anna', recipientdetail: [] }, creates: true },
  { method: 'PUT', path: '/recipient/', json: { recipientid: UNKNOWN_ID, recipientname: 'Anna' } },
  { method: 'POST', path: '/recipient/search', json: { name: 'Anna' } },
  { method: 'POST', path: '/recipient/recipientgroup', json: { groupName: 'g', recipientIds: [] }, creates: true },
  { method: 'PUT', path: '/recipient/recipientgroup', json: { groupId: UNKNOWN_ID } },
  {
    method: 'POST',
    path: '/communicationcategories/',
    json: { from: 'app', msgCategoryName: 'c', priority: 3, subject: 's' },
    creates: true,
  },
  { method: 'PUT', path: `/communicationcategories/${UNKNOWN_ID}`, json: { subject: 's' } },
  {
    method: 'POST',
    path: '/communicationcategories/unsubscribe/recipients',
    json: { msgCategoryId: UNKNOWN_ID, recipients: [] },
  },
  {
    method: 'POST',
    path: '/audit/searchauditstatus',
    json: { startTimeRange: '2000-01-01 00:00:00', endTimeRange: '2000-01-02 00:00:00' },
  },
  { method: 'POST', path: '/publisher/messages', json: { messageCategoryId: UNKNOWN_ID, body: {} } },
  {
    method: 'DELETE',
    path: '/communicationcategories/bouncedEmailIds',
    json: { emailList: ['cfz.nobody@example.com'] },
  },
];

test(
  ['notification/errors/bad-input-not-5xx', 'notification/general/json-bodies'],
  'malformed input of any kind is answered 4xx, never 5xx (property)',
  async (t) => {
    const multipart: HttpRequest[] = [
      { method: 'POST', path: '/template/' },
      { method: 'PUT', path: `/template/${UNKNOWN_ID}` },
      { method: 'POST', path: '/certificatestore/' },
      { method: 'POST', path: '/broadcastEmails', query: { broadcastType: 'tenantAdminsOnly' } },
    ];
    const strict = MALFORMED.filter((m) => m.strict);
    // Kinds are drawn by name, so that a counterexample is a plain value.
    const kind = (name: string) => MALFORMED.find((m) => m.kind === name)!;
    const cases = fc.oneof(
      fc.tuple(
        fc.constantFrom(...JSON_OPERATIONS.filter((o) => !o.creates)),
        fc.constantFrom(...MALFORMED.map((m) => m.kind)),
      ),
      fc.tuple(
        fc.constantFrom(...JSON_OPERATIONS.filter((o) => o.creates), ...multipart),
        fc.constantFrom(...strict.map((m) => m.kind)),
      ),
    );
    const judge = async (op: HttpRequest & { creates?: boolean }, m: Malformed) => {
      const { creates: _creates, ...plain } = op;
      const req = m.apply(plain);
      const res = await send(t, req);
      const ok = m.strict ? res.status >= 400 && res.status < 500 : res.status < 500;
      holds(t, {
        rule: 'notification/errors/bad-input-not-5xx',
        ok,
        failure: `${op.method} ${op.path} with ${m.kind} ${m.strict ? 'not refused' : 'failed the server'}`,
        expected: m.strict ? 'a 4xx status' : 'no 5xx status',
        received: () => seen(res, 160),
        ...(m.reading ? { reading: m.reading } : {}),
      });
      if (m.notJson && op.json !== undefined) {
        refused(t, {
          rule: 'notification/general/json-bodies',
          res,
          what: `${op.method} ${op.path} with ${m.kind}`,
        });
      }
    };
    // Every kind once on a JSON and on a multipart operation, then operations and kinds drawn together.
    for (const m of MALFORMED) await judge(JSON_OPERATIONS[1], m);
    for (const m of strict) await judge(multipart[0], m);
    await t.property(cases, async ([op, name]) => judge(op, kind(name)), {
      rule: 'notification/errors/bad-input-not-5xx',
      runs: Math.min(t.session.context.runs, 20),
    });
  },
  { budget: 16, budgetPerRun: 1 },
);

/** The content type and top-level fields of an answer, or the start of its text. */
function bodyShape(res: HttpResponse): string {
  return res.json && typeof res.json === 'object'
    ? `${res.contentType} with fields ${Object.keys(res.json).join(', ')}`
    : `${res.contentType || 'no content type'}: ${res.text.slice(0, 80)}`;
}

test(
  ['notification/errors/body-shape', 'notification/errors/code-no-content'],
  'the shape of the generic error bodies, and the statuses of list reads',
  async (t) => {
    const notFound = await send(t, { method: 'GET', path: `/recipient/${UNKNOWN_ID}` });
    t.observe(
      'notification/errors/body-shape',
      `404: ${bodyShape(notFound)}${hasCode(notFound, 'noMatch') ? ' (code noMatch present)' : ''}`,
    );
    const lists = [
      '/communicationcategories/',
      '/communicationcategories/bouncedEmailIds',
      '/certificatestore/',
      '/template/templatelistdetails',
    ];
    const statuses: string[] = [];
    for (const path of lists) statuses.push(`${path} ${(await send(t, { method: 'GET', path })).status}`);
    t.observe(
      'notification/errors/code-no-content',
      `GET of lists: ${statuses.join(', ')}${statuses.some((s) => s.endsWith(' 204')) ? ' (a 204 where 200 was documented)' : ' (no 204 outside the documented ones)'}`,
    );
  },
  { readOnly: true, budget: 5 },
);

test(
  ['notification/errors/other-status-body'],
  'what undocumented methods answer (PATCH and POST /paramtype/)',
  async (t) => {
    // Not read-only: a deployment could accept either request and change its parameter types.
    const other = await send(t, { method: 'PATCH', path: '/paramtype/' });
    const head = await send(t, { method: 'POST', path: '/paramtype/', json: {} });
    t.observe(
      'notification/errors/other-status-body',
      `PATCH /paramtype/: HTTP ${other.status}, ${bodyShape(other)}; POST /paramtype/: HTTP ${head.status}, ${bodyShape(head)}`,
    );
  },
  { budget: 2 },
);

test(
  ['notification/limits/throttling-429', 'notification/errors/code-too-many-requests', 'notification/limits/not-shown'],
  'requests beyond the throttle are answered 429 with tooManyRequests',
  async (t) => {
    // A short burst: the engine absorbs 429s (waiting as Retry-After says) and keeps samples of them.
    // With --probe-throttling the bursts are sent as the `throttled` principal when there is one,
    // until the target throttles one or the probe's bound is reached (THROTTLE_PROBE).
    const as = t.session.context.probeThrottling && t.session.tokens.has('throttled') ? 'throttled' : undefined;
    const throttled = () => t.session.http.stats.throttleSamples.filter((s) => s.path.startsWith(`${BASE}/`));
    // Probing, one request and an idle second come first: a throttle must serve a client again once
    // it has waited, also when its burst starts after a pause.
    if (as) {
      await send(t, { method: 'GET', path: '/paramtype/' }, as);
      await sleep(1_100);
    }
    const read = () => send(t, { method: 'GET', path: '/paramtype/' }, as);
    const probed = as
      ? await probeThrottle(read, () => throttled().length > 0)
      : { responses: await Promise.all(Array.from({ length: 40 }, read)), met: false, elapsedMs: 0 };
    const burst = probed.responses;
    const odd = burst.filter((r) => r.status !== 200 && r.status !== 429);
    const samples = throttled();
    t.observe(
      'notification/limits/not-shown',
      `${burst.length} requests in ${as ? 'the probe' : 'a burst'}: ${samples.length ? `${samples.length} throttled answers seen in the run` : 'none throttled'}; other statuses: ${odd.map((r) => r.status).join(', ') || 'none'}`,
    );
    // Only a refusal is judged here: a burst that nothing throttled says nothing of the 429 rule.
    if (odd.length)
      holds(t, {
        rule: 'notification/limits/throttling-429',
        ok: false,
        failure: 'a burst of requests answered with another status than 200 or 429',
        expected: 'HTTP 200, or 429 when throttled',
        received: seen(odd[0]),
      });
    if (!samples.length)
      t.skip(
        as
          ? unmetThrottleReason('notification', probed)
          : 'the target throttled no notification request during the run (configure principals.throttled, a client it throttles, to probe it)',
      );
    holds(t, {
      rule: 'notification/limits/throttling-429',
      ok: samples.every((s) => s.status === 429),
      failure: 'throttling not answered 429',
      expected: 'HTTP 429',
      received: JSON.stringify(samples.map((s) => s.status)),
    });
    // The Errors table pairs 429 with tooManyRequests; that a 429 carries the code at all is our reading.
    const foreign = samples.filter((s) => genericCodesIn(s.body).some((c) => c !== 'tooManyRequests'));
    holds(t, {
      rule: 'notification/errors/code-too-many-requests',
      ok: foreign.length === 0,
      failure: '429 with a generic code the Errors table lists for another status',
      expected: 'no generic code other than platform.core.generic.tooManyRequests in a 429 body',
      received: foreign[0]?.body.slice(0, 200) ?? '',
    });
    const bad = samples.filter((s) => !s.body.includes('platform.core.generic.tooManyRequests'));
    holds(t, {
      rule: 'notification/errors/code-too-many-requests',
      ok: bad.length === 0,
      failure: '429 without the code platform.core.generic.tooManyRequests',
      expected: 'the code in every 429 body',
      received: bad[0]?.body.slice(0, 200) ?? '',
      reading: 'generic-code-present',
    });
    const res = await send(t, { method: 'GET', path: '/paramtype/' }, as);
    served(t, {
      rule: 'notification/limits/throttling-429',
      res,
      what: 'a request after throttling',
    });
    genericCode(t, res, 'tooManyRequests');
  },
  { readOnly: true, budget: 2 + Math.max(40, THROTTLE_PROBE.maxRequests) },
);
