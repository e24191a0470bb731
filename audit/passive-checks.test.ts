import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import { harEntry, type HarEntry } from '../suites/engine/har.ts';
import { judgeHar } from './judge-har.ts';
import { PASSIVE_CHECKS, passiveRuleIds } from './passive-checks.ts';
import { harStructureErrors } from './read-har.ts';

const ORIGIN = 'http://127.0.0.1:9';
const EM = '/api/eventmanagement/v3';
const NO = '/api/notification/v3';

/** A bearer marker as a run's HAR holds it, with these scopes. */
function bearer(scopes: string[]): string {
  return `Bearer [REDACTED claims ${JSON.stringify({ scope: scopes, ten: 'home' })}]`;
}
const ALL_EM = [
  'em.c',
  'em.r',
  'em.u',
  'em.d',
  'em.et.c',
  'em.et.r',
  'em.et.u',
  'em.et.d',
  'em.dej.c',
  'em.dej.r',
  'em.cej.c',
  'em.cej.r',
];

let clock = Date.parse('2026-01-01T00:00:00Z');

function entry(
  method: string,
  path: string,
  req: { headers?: Record<string, string>; body?: unknown } = {},
  res: { status: number; headers?: Record<string, string>; body?: unknown } = { status: 200 },
): HarEntry {
  clock += 10;
  const body = res.body === undefined ? '' : typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  return harEntry(
    {
      request: {
        method,
        url: `${ORIGIN}${path}`,
        headers: req.headers ?? {},
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      },
      response: { status: res.status, headers: res.headers ?? {}, body },
      curl: '',
    },
    { startedAt: clock, timeMs: 2 },
  );
}

const har = (entries: HarEntry[]) => ({
  log: { version: '1.2' as const, creator: { name: 't', version: '0' }, entries },
});

const HAL = { 'content-type': 'application/hal+json' };
const ERR = { 'content-type': 'application/vnd.error+json' };
const errorBody = [{ logref: '6f1c6d1e-7d57-4b6e-9a57-3c0f7d1e2a11', message: 'x' }];
const event = (etag: number) => ({
  id: 'e1',
  typeId: 't',
  correlationId: 'c',
  timestamp: '2026-01-01T00:00:00Z',
  entityId: 'x',
  etag,
  _links: {},
});

describe('the catalog and the passive checks', () => {
  it('marks passive exactly the rules some passive check judges, all of them testable and not UNSPECIFIED', () => {
    const rules = loadRules();
    const marked = rules
      .filter((r) => r.passive)
      .map((r) => r.id)
      .sort();
    expect(marked).toEqual([...passiveRuleIds()].sort());
    for (const id of passiveRuleIds()) {
      const rule = rules.find((r) => r.id === id);
      expect(rule, id).toBeDefined();
      expect(rule!.level, id).not.toBe('UNSPECIFIED');
      expect(rule!.testable, id).not.toBe(false);
    }
    expect(new Set(PASSIVE_CHECKS.map((c) => c.name)).size).toBe(PASSIVE_CHECKS.length);
  });
});

describe('passive judgement of recorded traffic', () => {
  it('judges a stale If-Match: 412 passes, 200 fails, and an etag that does not grow on a successful PUT fails', () => {
    const auth = { authorization: bearer(ALL_EM) };
    const good = judgeHar(
      har([
        entry(
          'GET',
          `${EM}/events/e1`,
          { headers: auth },
          { status: 200, headers: { ...HAL, etag: '"2"' }, body: event(2) },
        ),
        entry(
          'PUT',
          `${EM}/events/e1`,
          { headers: { ...auth, 'if-match': '1' } },
          { status: 412, headers: ERR, body: errorBody },
        ),
        entry(
          'PUT',
          `${EM}/events/e1`,
          { headers: { ...auth, 'if-match': '2' } },
          { status: 200, headers: { ...HAL, etag: '"3"' }, body: event(3) },
        ),
      ]),
    ).outcomes;
    expect(good['event-management/etags/update-event-stale-412'].status).toBe('passed');
    expect(good['event-management/events/etag-counter'].status).toBe('passed');
    const bad = judgeHar(
      har([
        entry(
          'GET',
          `${EM}/events/e1`,
          { headers: auth },
          { status: 200, headers: { ...HAL, etag: '"2"' }, body: event(2) },
        ),
        entry(
          'PUT',
          `${EM}/events/e1`,
          { headers: { ...auth, 'if-match': '1' } },
          { status: 200, headers: HAL, body: event(2) },
        ),
      ]),
    ).outcomes;
    expect(bad['event-management/etags/update-event-stale-412'].status).toBe('failed');
    expect(bad['event-management/events/etag-counter'].status).toBe('failed');
    expect(bad['event-management/etags/update-event-stale-412'].failure?.title).toMatch(
      /not refused: If-Match 1, other than the current etag/,
    );
  });

  it('does not judge a write that overlaps another write of the same resource', () => {
    const auth = { authorization: bearer(ALL_EM) };
    const a = entry('GET', `${EM}/events/e1`, { headers: auth }, { status: 200, headers: HAL, body: event(2) });
    const w1 = entry(
      'PUT',
      `${EM}/events/e1`,
      { headers: { ...auth, 'if-match': '2' } },
      { status: 200, headers: HAL, body: event(3) },
    );
    const w2 = {
      ...entry(
        'PUT',
        `${EM}/events/e1`,
        { headers: { ...auth, 'if-match': '2' } },
        { status: 412, headers: ERR, body: errorBody },
      ),
    };
    w2.startedDateTime = w1.startedDateTime;
    w2._startedAt = w1._startedAt;
    const o = judgeHar(har([a, w1, w2])).outcomes;
    expect(o['event-management/etags/update-event-stale-412'].status).toBe('not-exercised');
  });

  it('judges 403 from the scopes of the bearer marker, and 401 without a token', () => {
    const noRead = { authorization: bearer(ALL_EM.filter((s) => s !== 'em.r')) };
    const pass = judgeHar(
      har([
        entry('GET', `${EM}/events/e1`, { headers: noRead }, { status: 403, headers: ERR, body: errorBody }),
        entry('GET', `${EM}/events`, {}, { status: 401, headers: ERR, body: errorBody }),
      ]),
    ).outcomes;
    expect(pass['event-management/auth/scopes-get-event'].status).toBe('passed');
    expect(pass['event-management/auth/unauthorized-401'].status).toBe('passed');
    expect(pass['event-management/auth/scopes-query-events'].status).toBe('not-exercised');
    const fail = judgeHar(
      har([
        entry('GET', `${EM}/events/e1`, { headers: noRead }, { status: 200, headers: HAL, body: event(1) }),
        entry('GET', `${NO}/communicationcategories`, {}, { status: 200, body: [] }),
      ]),
    ).outcomes;
    expect(fail['event-management/auth/scopes-get-event'].status).toBe('failed');
    expect(fail['notification/auth/token-required'].status).toBe('failed');
    // A failure is as grave as the word that judged it says, as in a run: an answer served
    // without credentials or scope is critical, a job read back in another state high.
    expect(fail['event-management/auth/scopes-get-event'].failure?.severity).toBe('critical');
    expect(fail['notification/auth/token-required'].failure?.severity).toBe('critical');
  });

  it('judges on a reading where the suites do: an open point never fails the audit', () => {
    const all = judgeHar(
      har([
        // POST /events lists em.c and em.et.r: that one missing is refused rests on listed-scope-needed.
        entry(
          'POST',
          `${EM}/events`,
          { headers: { authorization: bearer(ALL_EM.filter((s) => s !== 'em.c')) }, body: {} },
          { status: 201, headers: HAL, body: event(1) },
        ),
        // A malformed If-Match answered 412: a 4xx, 400 only by the reading if-match-missing-400.
        entry(
          'PUT',
          `${EM}/events/e1`,
          { headers: { authorization: bearer(ALL_EM), 'if-match': 'x' } },
          { status: 412, headers: ERR, body: errorBody },
        ),
        // Authorization: Basic instead of X-SPACE-AUTH-KEY is an open point the suites only observe.
        entry(
          'POST',
          '/api/technicaltokenmanager/v3/oauth/token',
          { headers: { authorization: 'Basic [REDACTED]' }, body: {} },
          { status: 200, headers: { 'content-type': 'application/json' }, body: { access_token: 'x' } },
        ),
      ]),
    ).outcomes;
    expect(all['event-management/auth/scopes-create-event'].status).toBe('warning');
    expect(all['event-management/auth/forbidden-403']?.status ?? 'not-exercised').not.toBe('failed');
    expect(all['event-management/etags/update-event-if-match-required'].status).toBe('warning');
    expect(all['technical-token-manager/auth/space-auth-key-required']?.status ?? 'not-exercised').not.toBe('failed');
    const single = judgeHar(
      har([
        entry(
          'GET',
          `${EM}/events/e1`,
          { headers: { authorization: bearer(ALL_EM.filter((s) => s !== 'em.r')) } },
          { status: 200, headers: HAL, body: event(1) },
        ),
        entry(
          'PUT',
          `${EM}/events/e1`,
          { headers: { authorization: bearer(ALL_EM) } },
          { status: 200, headers: HAL, body: event(2) },
        ),
        entry(
          'POST',
          '/api/technicaltokenmanager/v3/oauth/token',
          { body: {} },
          { status: 200, body: { access_token: 'x' } },
        ),
      ]),
    ).outcomes;
    expect(single['event-management/auth/scopes-get-event'].status).toBe('failed');
    expect(single['event-management/auth/forbidden-403'].status).toBe('failed');
    expect(single['event-management/etags/update-event-if-match-required'].status).toBe('failed');
    expect(single['technical-token-manager/auth/space-auth-key-required'].status).toBe('failed');
  });

  it('judges job states across polls: an ended job that is read again in another state fails', () => {
    const auth = { authorization: bearer(ALL_EM) };
    const poll = (state: string) =>
      entry(
        'GET',
        `${EM}/createEventsJobs/j1`,
        { headers: auth },
        {
          status: 200,
          headers: HAL,
          body: { id: 'j1', state, ...(state.startsWith('FINISHED') ? { details: {} } : {}) },
        },
      );
    expect(
      judgeHar(har([poll('IN_PROGRESS'), poll('FINISHED'), poll('FINISHED')])).outcomes[
        'event-management/jobs/final-state-kept'
      ].status,
    ).toBe('passed');
    expect(
      judgeHar(har([poll('FINISHED'), poll('IN_PROGRESS')])).outcomes['event-management/jobs/final-state-kept'].status,
    ).toBe('failed');
    expect(
      judgeHar(har([poll('FINISHED'), poll('IN_PROGRESS')])).outcomes['event-management/jobs/final-state-kept'].failure
        ?.severity,
    ).toBe('high');
  });

  it('judges error bodies and content types, and leaves a body cut at the size limit unjudged', () => {
    const auth = { authorization: bearer(ALL_EM) };
    const o = judgeHar(
      har([
        entry(
          'GET',
          `${EM}/events/nope`,
          { headers: auth },
          { status: 404, headers: { 'content-type': 'application/json' }, body: { error: 'x' } },
        ),
      ]),
    ).outcomes;
    expect(o['event-management/errors/error-body'].status).toBe('failed');
    expect(o['event-management/errors/error-content-type'].status).toBe('failed');
    const cut = judgeHar(
      har([
        entry('GET', `${EM}/events/nope`, { headers: auth }, { status: 404, headers: ERR, body: 'x'.repeat(20_000) }),
      ]),
    ).outcomes;
    expect(cut['event-management/errors/error-body'].status).toBe('not-exercised');
  });

  it("judges a notification generic code as the suite does: another status's code fails, no code is the reading", () => {
    const json = { 'content-type': 'application/json' };
    const judge = (body: unknown) =>
      judgeHar(har([entry('GET', `${NO}/recipient/9`, {}, { status: 404, headers: json, body })])).outcomes[
        'notification/errors/code-no-match'
      ];
    expect(judge({ code: 'platform.core.generic.noMatch' }).status).toBe('passed');
    expect(judge({ code: 'platform.core.generic.conflict' }).status).toBe('failed');
    expect(judge({ message: 'no such recipient' })).toMatchObject({
      status: 'warning',
      warning: { reading: 'generic-code-present' },
    });
  });
});

describe('HAR entries', () => {
  it('are HAR 1.2, keep no token, and keep the token claims as a marker', () => {
    const jwt = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ scope: ['em.r'], ten: 'home', sub: 'client' })).toString('base64url')}.c2lnbmF0dXJlc2lnbmF0dXJl`;
    const e = harEntry(
      {
        request: {
          method: 'POST',
          url: `${ORIGIN}${EM}/events?a=1`,
          headers: { authorization: `Bearer ${jwt}`, 'x-space-auth-key': 'Basic Y2xpZW50OnNlY3JldA==' },
          body: 'y'.repeat(9000),
        },
        response: {
          status: 201,
          headers: { 'content-type': 'application/hal+json' },
          body: '{"access_token":"abc.def"}',
        },
        curl: '',
      },
      { testName: 'a test', ruleIds: ['event-management/events/x'], startedAt: 0, timeMs: 1.5 },
    );
    expect(harStructureErrors(har([e]))).toEqual([]);
    const text = JSON.stringify(e);
    expect(text).not.toContain(jwt.split('.')[1]);
    expect(text).not.toContain('Y2xpZW50OnNlY3JldA');
    expect(text).not.toContain('abc.def');
    expect(e.request.headers.find((h) => h.name === 'authorization')?.value).toBe(
      'Bearer [REDACTED claims {"scope":["em.r"],"ten":"home"}]',
    );
    expect(e._truncated).toBe(true);
    expect(e.request.postData?.text).toMatch(/…\(9000 bytes\)$/);
    expect(e._testName).toBe('a test');
    expect(e._ruleIds).toEqual(['event-management/events/x']);
    expect(harStructureErrors({ log: { version: '1.2', entries: [{}] } }).length).toBeGreaterThan(0);
  });
});
