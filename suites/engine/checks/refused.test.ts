import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { refused, type RefusedOptions } from './refused.ts';
import { answer, checkContext } from './check-test-context.ts';
import { missingCredentialsRejected, missingScopeRejected } from './auth-enforced.ts';

const RULE = 'event-management/jobs/not-found-404';
const READING_RULE = 'event-management/queries/page-default-and-minimum';

const context = () => checkContext([RULE, READING_RULE]);
const codes = (res: HttpResponse) => (res.json as { errors: string[] }).errors;

type Case = [string, Omit<RefusedOptions, 'rule' | 'what'> & { rule?: string }, string, string?];

describe('refused', () => {
  it.each<Case>([
    ['a 400 by default', { res: answer(400) }, 'passed'],
    ['a 404 when 400 is asked', { res: answer(404) }, 'failed'],
    ['a 404 among the statuses', { res: answer(404), statuses: [400, 404] }, 'passed'],
    ['any 4xx', { res: answer(409), anyClientError: true }, 'passed'],
    ['a 200 when any 4xx is asked', { res: answer(200), anyClientError: true }, 'failed'],
    [
      'a refusal that hands out what it withholds',
      {
        res: answer(403, { access_token: 'x' }),
        anyClientError: true,
        withheld: (r) => ((r.json as { access_token?: string }).access_token ? 'a token' : undefined),
      },
      'failed',
    ],
    [
      'a 200 judged as a reading',
      { rule: READING_RULE, res: answer(200), reading: 'out-of-bounds-param-400' },
      'warning',
    ],
    [
      'a 4xx with another status than the reading',
      { res: answer(400), statuses: [404], statusReading: 'malformed-id-404' },
      'warning',
    ],
    ['a 200 with a status reading', { res: answer(200), statuses: [404], statusReading: 'malformed-id-404' }, 'failed'],
    ['a 400 carrying the code', { res: answer(400, { errors: ['c'] }), code: 'c', codesOf: codes }, 'passed'],
    ['a 400 without the code', { res: answer(400, { errors: ['d'] }), code: 'c', codesOf: codes }, 'failed'],
  ])('%s: %s', (_, o, status) => {
    const { t, meta } = context();
    const rule = o.rule ?? RULE;
    try {
      refused(t, { ...o, rule, what: 'x' } as RefusedOptions);
    } catch {
      // A failed check ends the test.
    }
    expect(meta.outcomes[rule].status).toBe(status);
  });

  it('titles every failure alike, high unless told, and verifies the code once the status holds', () => {
    const { t, meta } = context();
    const codes: string[] = [];
    refused(t, { rule: RULE, res: answer(400), what: 'x', code: 'c', verifyCode: (_t, _r, c) => codes.push(c) });
    expect(codes).toEqual(['c']);
    expect(() => refused(t, { rule: RULE, res: answer(200), what: 'an id', severity: 'critical' })).toThrow();
    expect(meta.outcomes[RULE].failure).toMatchObject({ title: 'not refused: an id', severity: 'critical' });
    const c = context();
    expect(() => refused(c.t, { rule: RULE, res: answer(200), what: 'an id' })).toThrow();
    expect(c.meta.outcomes[RULE].failure?.severity).toBe('high');
  });

  it('judges the media type of a listed status for its own rule, going on', () => {
    const { t, meta } = context();
    const mediaType = { rule: READING_RULE, type: 'application/json' };
    refused(t, { rule: RULE, res: { ...answer(400), contentType: 'text/plain' }, what: 'x', mediaType });
    expect(meta.outcomes[READING_RULE].status).toBe('failed');
    expect(meta.outcomes[RULE].status).toBe('passed');
    const c = context();
    expect(() =>
      refused(c.t, { rule: RULE, res: { ...answer(200), contentType: 'text/plain' }, what: 'x', mediaType }),
    ).toThrow();
    expect(c.meta.outcomes[READING_RULE]).toBeUndefined();
  });

  it('judges missing credentials (401) and a missing scope (403) as critical refusals', () => {
    const a = context();
    missingCredentialsRejected(a.t, RULE, answer(401));
    expect(a.meta.outcomes[RULE].status).toBe('passed');
    expect(() => missingCredentialsRejected(a.t, RULE, answer(403))).toThrow();
    expect(a.meta.outcomes[RULE].failure).toMatchObject({
      title: 'not refused: a request without credentials',
      expected: 'HTTP 401 for a request without credentials',
      severity: 'critical',
    });
    const b = context();
    missingScopeRejected(b.t, RULE, answer(403), 'send');
    expect(b.meta.outcomes[RULE].status).toBe('passed');
    expect(() => missingScopeRejected(b.t, RULE, answer(200), 'send')).toThrow();
    expect(b.meta.outcomes[RULE].failure).toMatchObject({
      title: 'not refused: a token without scope send',
      severity: 'critical',
    });
  });
});
