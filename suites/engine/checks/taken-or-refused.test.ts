import { describe, expect, it } from 'vitest';
import { takenOrRefused } from './taken-or-refused.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/severity-range';
const READING_RULE = 'event-management/events/code-length';

describe('takenOrRefused', () => {
  it.each([
    ['a valid value taken passes', true, answer(201, { severity: 5 }), {}, 'passed', false],
    ['a valid value refused fails', true, answer(400, {}), {}, 'failed', true],
    [
      'a valid value on a reading refused warns',
      true,
      answer(400, {}),
      { reading: 'characters-code-points' },
      'warning',
      false,
    ],
    ['an invalid value refused passes', false, answer(400, {}), {}, 'passed', false],
    ['an invalid value taken fails', false, answer(201, {}), {}, 'failed', true],
    ['a taken value stored otherwise fails', true, answer(201, { severity: 6 }), { stored: true }, 'failed', true],
  ] as const)('%s', (_, valid, res, mode, status, throws) => {
    const rule = 'reading' in mode ? READING_RULE : RULE;
    const { t, meta } = checkContext([RULE, READING_RULE]);
    const stored =
      'stored' in mode ? { sent: { severity: 5 }, record: res.json as object, what: 'severity' } : undefined;
    const reading = 'reading' in mode ? mode.reading : undefined;
    const run = () => takenOrRefused(t, { rule, res, what: 'a value', valid, reading, stored });
    if (throws) expect(run).toThrow();
    else run();
    expect(meta.outcomes[rule].status).toBe(status);
  });
});
