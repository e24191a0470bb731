import { describe, expect, it } from 'vitest';
import type { ServiceName } from '../../../contracts/services.ts';
import type { Exchange, HttpRequest, HttpResponse } from '../http-client.ts';
import { RuleContext, type RuleTestMeta } from '../rule-test.ts';
import type { CheckedExchange } from './response-check.ts';
import { RESPONSE_CHECKS } from './response-checks.ts';

const EM = '/api/eventmanagement/v3';
const TTM = '/api/technicaltokenmanager/v3';
const LOGREF = '0d6f6f5e-7a4e-4a55-9a3b-2f1f9d0c7c11';

function x(service: ServiceName, method: string, path: string, status: number, contentType: string, body: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { service, method, path, status, contentType, text, json: body } satisfies CheckedExchange;
}

const ttmError = (code: string, logref: string) => ({ errors: [{ code, logref, message: 'm' }] });

/** For each rule of each response check: an answer that keeps it and one that breaks it. */
const CASES: Array<{ rule: string; keeps: CheckedExchange; breaks: CheckedExchange }> = [
  {
    rule: 'event-management/errors/error-body',
    keeps: x('event-management', 'GET', `${EM}/events/1`, 404, 'application/vnd.error+json', [
      { logref: LOGREF, message: 'm' },
    ]),
    breaks: x('event-management', 'GET', `${EM}/events/1`, 404, 'application/vnd.error+json', { message: 'm' }),
  },
  {
    rule: 'event-management/errors/error-content-type',
    keeps: x('event-management', 'POST', `${EM}/events`, 400, 'application/vnd.error+json', [
      { logref: LOGREF, message: 'm' },
    ]),
    breaks: x('event-management', 'POST', `${EM}/events`, 400, 'application/json', [{ logref: LOGREF, message: 'm' }]),
  },
  {
    rule: 'event-management/general/hal-json-responses',
    keeps: x('event-management', 'GET', `${EM}/`, 200, 'application/hal+json', { _links: {} }),
    breaks: x('event-management', 'GET', `${EM}/`, 200, 'application/json', { _links: {} }),
  },
  {
    rule: 'technical-token-manager/errors/body-shape',
    keeps: x(
      'technical-token-manager',
      'POST',
      `${TTM}/oauthTokens`,
      400,
      'application/json',
      ttmError('platform.core.a.b', 'l'),
    ),
    breaks: x('technical-token-manager', 'POST', `${TTM}/oauthTokens`, 400, 'application/json', { errors: [] }),
  },
  {
    rule: 'technical-token-manager/errors/code-form',
    keeps: x(
      'technical-token-manager',
      'GET',
      `${TTM}/userTenants`,
      401,
      'application/json',
      ttmError('platform.core.a.b', 'l'),
    ),
    breaks: x(
      'technical-token-manager',
      'GET',
      `${TTM}/userTenants`,
      401,
      'application/json',
      ttmError('unauthorized', 'l'),
    ),
  },
  {
    rule: 'technical-token-manager/errors/logref',
    keeps: x(
      'technical-token-manager',
      'POST',
      `${TTM}/oauthTokens`,
      400,
      'application/json',
      ttmError('platform.core.a.b', 'l'),
    ),
    breaks: x(
      'technical-token-manager',
      'POST',
      `${TTM}/oauthTokens`,
      400,
      'application/json',
      ttmError('platform.core.a.b', ' '),
    ),
  },
];

const NOTE = '/api/notification/v3';
const generic = (suffix: string) => ({ code: `platform.core.generic.${suffix}`, message: 'm' });
for (const [status, rule, own, other] of [
  [401, 'notification/errors/code-unauthorized', 'unauthorized', 'forbidden'],
  [403, 'notification/errors/code-forbidden', 'forbidden', 'unauthorized'],
  [404, 'notification/errors/code-no-match', 'noMatch', 'invalidParameter'],
  [409, 'notification/errors/code-conflict', 'conflict', 'invalidRequestBodyProperty'],
  [429, 'notification/errors/code-too-many-requests', 'tooManyRequests', 'noMatch'],
] as const)
  CASES.push({
    rule,
    keeps: x('notification', 'GET', `${NOTE}/recipient/1`, status, 'application/json', generic(own)),
    breaks: x('notification', 'GET', `${NOTE}/recipient/1`, status, 'application/json', generic(other)),
  });

const findings = (e: CheckedExchange) => RESPONSE_CHECKS.flatMap((c) => c.check(e));

describe('the response checks', () => {
  it('have a case for every rule they judge', () => {
    const judged = RESPONSE_CHECKS.flatMap((c) => c.rules).sort();
    expect(CASES.map((c) => c.rule).sort()).toEqual(judged);
  });

  it.each(CASES)(
    '$rule holds on an answer that keeps it and fails on one that breaks it',
    ({ rule, keeps, breaks }) => {
      const kept = findings(keeps).filter((f) => f.rule === rule);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.every((f) => f.ok)).toBe(true);
      const broken = findings(breaks).filter((f) => f.rule === rule);
      expect(broken.some((f) => !f.ok && f.received !== '')).toBe(true);
    },
  );

  it('judge nothing of an answer of another service, or of an operation without the documented body', () => {
    expect(findings(x('notification', 'GET', `${NOTE}/x`, 400, 'text/plain', 'no'))).toEqual([]);
    expect(
      findings(x('event-management', 'GET', `${EM}/x`, 404, 'application/vnd.error+json', generic('x'))).filter((f) =>
        f.rule.startsWith('notification/'),
      ),
    ).toEqual([]);
    expect(findings(x('technical-token-manager', 'POST', `${TTM}/oauth/token`, 400, 'text/plain', 'no'))).toEqual([]);
  });

  it('take a notification error without any generic code as the reading generic-code-present, never as a failure', () => {
    const found = findings(
      x('notification', 'DELETE', `${NOTE}/recipient/9`, 404, 'application/json', { message: 'm' }),
    );
    expect(found.filter((f) => !f.ok)).toEqual([
      expect.objectContaining({ rule: 'notification/errors/code-no-match', reading: 'generic-code-present' }),
    ]);
    const foreign = findings(
      x('notification', 'DELETE', `${NOTE}/recipient/9`, 404, 'application/json', generic('conflict')),
    );
    expect(foreign.filter((f) => !f.ok).map((f) => f.reading)).toEqual([undefined, 'generic-code-present']);
  });

  it('take an error body whose items are no objects as the body shape’s failure, never as their own error', () => {
    for (const items of [['x'], [1, null], [[]]]) {
      const found = findings(
        x('technical-token-manager', 'POST', `${TTM}/oauthTokens`, 400, 'application/json', { errors: items }),
      );
      expect(found.find((f) => f.rule === 'technical-token-manager/errors/body-shape')?.ok, JSON.stringify(items)).toBe(
        false,
      );
    }
  });
});

describe('after every request a test sends', () => {
  /** A rule test of event management that declares only `declared`, and whose requests get `answers` in turn. */
  function context(declared: string[], answers: HttpResponse[], ruleGlobs: string[] = []) {
    const meta: RuleTestMeta = {
      rules: declared,
      outcomes: {},
      service: 'event-management',
      budget: 3,
      readOnly: true,
    };
    const http = {
      send(req: HttpRequest, onExchange: (e: Exchange) => void): Promise<HttpResponse> {
        const res = answers.shift()!;
        onExchange({
          request: { method: req.method, url: `http://127.0.0.1:9${req.path}`, headers: {} },
          response: { status: res.status, headers: res.headers, body: res.text },
          curl: `curl ${req.method} ${req.path}`,
        });
        return Promise.resolve(res);
      },
    };
    const session = {
      tokens: { has: () => true, configKey: () => 'principals.full', authorization: () => Promise.resolve('Bearer t') },
      context: { ruleGlobs, config: { target: 'http://127.0.0.1:9' } },
      http,
    };
    const t = new RuleContext(session as never, 'event-management', meta, 's', { task: { name: 'x' } } as never);
    return { t, meta };
  }

  const answer = (status: number, contentType: string, body: unknown): HttpResponse => ({
    status,
    headers: { 'content-type': contentType },
    contentType,
    text: JSON.stringify(body),
    json: body,
    durationMs: 1,
  });

  it('credits the rules of the checks, declared or not, and a failure shows the answer that broke it', async () => {
    const { t, meta } = context(
      ['event-management/events/get-not-found-404'],
      [
        answer(404, 'application/vnd.error+json', { message: 'not an array' }),
        answer(404, 'application/vnd.error+json', [{ logref: LOGREF, message: 'm' }]),
      ],
    );
    await t.send({ method: 'GET', path: '/events/a' });
    await t.send({ method: 'GET', path: '/events/b' });
    const body = meta.outcomes['event-management/errors/error-body'];
    expect(body.status).toBe('failed');
    expect(body.failure?.exchange?.request.url).toMatch(/\/events\/a$/);
    expect(body.failure?.curl).toContain('/events/a');
    expect(meta.outcomes['event-management/errors/error-content-type']).toMatchObject({ status: 'passed', checks: 2 });
    expect(meta.rules).toContain('event-management/errors/error-body');
    expect(t.declares('event-management/errors/error-body')).toBe(false);
    expect(meta.outcomes['event-management/events/get-not-found-404']).toBeUndefined();
    expect(() => t.finish()).toThrow();
  });

  it('leaves a rule the run does not select', async () => {
    const { t, meta } = context(
      ['event-management/events/get-not-found-404'],
      [answer(404, 'application/json', {})],
      ['event-management/events/*'],
    );
    await t.send({ method: 'GET', path: '/events/a' });
    expect(meta.outcomes).toEqual({});
  });
});
