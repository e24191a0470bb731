import { describe, expect, it } from 'vitest';
import { answer } from './check-test-context.ts';
import { findingsOf } from './findings-of.ts';
import { holds } from './holds.ts';
import { refused } from './refused.ts';

const RULE = 'event-management/etags/update-event-if-match-required';

describe('findingsOf', () => {
  it('collects every judgement of the words, in order, and ends nothing', () => {
    const found = findingsOf((t) => {
      refused(t, { rule: RULE, res: answer(200, {}), what: 'a write with no If-Match' });
      refused(t, { rule: RULE, res: answer(400, []), what: 'a write with If-Match x' });
    });
    expect(found).toEqual([
      {
        rule: RULE,
        ok: false,
        title: 'not refused: a write with no If-Match',
        expected: 'HTTP 400 for a write with no If-Match',
        received: 'HTTP 200 application/json {}',
        severity: 'high',
      },
      {
        rule: RULE,
        ok: true,
        title: 'not refused: a write with If-Match x',
        expected: 'HTTP 400 for a write with If-Match x',
        received: '',
        severity: 'high',
      },
    ]);
  });

  it('keeps the reading a judgement rests on', () => {
    const [f] = findingsOf((t) =>
      holds(t, { rule: RULE, ok: false, failure: 'f', expected: 'e', received: 'r', reading: 'some-reading' }),
    );
    expect(f).toMatchObject({ ok: false, reading: 'some-reading', received: 'r' });
  });

  it('keeps the severity the word gives its failure', () => {
    const [f] = findingsOf((t) => refused(t, { rule: RULE, res: answer(200, {}), what: 'w', severity: 'critical' }));
    expect(f).toMatchObject({ ok: false, severity: 'critical' });
  });
});
