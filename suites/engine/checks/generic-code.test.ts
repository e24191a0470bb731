import { describe, expect, it } from 'vitest';
import { genericCode } from './generic-code.ts';
import { type HttpResponse } from '../http-client.ts';
import { outcomeOf } from './check-outcome.ts';

const NO_MATCH = 'notification/errors/code-no-match';
const INVALID = 'notification/errors/code-invalid-parameter';

const body = (status: number, text: string) =>
  ({ status, headers: {}, contentType: 'application/json', text }) as HttpResponse;

describe('genericCode', () => {
  it.each([
    ['a 404 carrying noMatch', NO_MATCH, body(404, '{"code":"platform.core.generic.noMatch"}'), 'noMatch', 'passed'],
    ['a 404 without a code: the reading generic-code-present', NO_MATCH, body(404, '{}'), 'noMatch', 'warning'],
    [
      'a 404 carrying a code of another status',
      NO_MATCH,
      body(404, 'platform.core.generic.noMatch platform.core.generic.forbidden'),
      'noMatch',
      'failed',
    ],
    [
      'a 400 carrying its code',
      INVALID,
      body(400, 'platform.core.generic.invalidParameter'),
      'invalidParameter',
      'passed',
    ],
    [
      'a 400 carrying another 400 code: the reading code-per-condition',
      INVALID,
      body(400, 'platform.core.generic.missingParameter'),
      'invalidParameter',
      'warning',
    ],
    ['a 400 carrying a 404 code', INVALID, body(400, 'platform.core.generic.noMatch'), 'invalidParameter', 'failed'],
  ] as const)('%s', (_, rule, res, code, want) => {
    const r = outcomeOf([rule], (t) => genericCode(t, res, code));
    expect(r).toMatchObject({ status: want, ended: false });
  });

  it('judges nothing where the test does not declare the code rule, or the status is not the code’s', () => {
    expect(outcomeOf([INVALID], (t) => genericCode(t, body(404, '{}'), 'noMatch')).status).toBeUndefined();
    expect(outcomeOf([NO_MATCH], (t) => genericCode(t, body(400, '{}'), 'noMatch')).status).toBeUndefined();
  });
});
