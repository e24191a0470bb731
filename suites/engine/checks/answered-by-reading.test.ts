import { describe, expect, it } from 'vitest';
import { answeredByReading, CLIENT_ERRORS } from './answered-by-reading.ts';
import { answer } from './check-test-context.ts';
import { outcomeOf } from './check-outcome.ts';

const RULE = 'notification/recipients/get-by-id';
const o = { rule: RULE, what: 'id "abc"', reading: 'non-integer-id-400', allowed: CLIENT_ERRORS, wanted: 400 };

describe('answeredByReading', () => {
  it.each([
    ['the status our reading wants', 400, 'passed', false],
    ['another status the document allows: a warning', 404, 'warning', false],
    ['a status the document does not allow ends the test', 500, 'failed', true],
    ['a success the document does not allow', 200, 'failed', true],
  ] as const)('%s', (_, status, want, ended) => {
    expect(outcomeOf([RULE], (t) => answeredByReading(t, { ...o, res: answer(status) }))).toMatchObject({
      status: want,
      ended,
    });
  });

  it('hands the code to the service’s check when given', () => {
    const seen: string[] = [];
    outcomeOf([RULE], (t) =>
      answeredByReading(t, {
        ...o,
        res: answer(400),
        code: 'invalidParameter',
        verifyCode: (_t, _r, c) => seen.push(c),
      }),
    );
    expect(seen).toEqual(['invalidParameter']);
  });

  it('titles the document failure and the reading apart', () => {
    expect(outcomeOf([RULE], (t) => answeredByReading(t, { ...o, res: answer(500) })).failure?.title).toBe(
      'id "abc": answered outside what the document allows',
    );
    expect(outcomeOf([RULE], (t) => answeredByReading(t, { ...o, res: answer(404) })).failure?.title).toBe(
      'id "abc" not answered 400',
    );
  });
});
