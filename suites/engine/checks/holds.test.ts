import { describe, expect, it } from 'vitest';
import { holds } from './holds.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';
const READING_RULE = 'event-management/event-types/inheritance-depth-4';

describe('holds', () => {
  it.each([
    ['a true condition', true, {}, 'passed', true, false],
    ['a false condition ends the test', false, {}, 'failed', undefined, true],
    ['a false soft condition lets it go on', false, { soft: true }, 'failed', false, false],
    ['a false reading warns', false, { reading: 'depth-below-base-event' }, 'warning', false, false],
  ] as const)('%s', (_, ok, mode, status, returns, throws) => {
    const rule = 'reading' in mode ? READING_RULE : RULE;
    const { t, meta } = checkContext([RULE, READING_RULE]);
    let result: boolean | undefined;
    const run = () => (result = holds(t, { rule, ok, failure: 'f', expected: 'e', received: 'r', ...mode }));
    if (throws) expect(run).toThrow();
    else run();
    expect(meta.outcomes[rule].status).toBe(status);
    expect(result).toBe(returns);
  });

  it('works out what was received only when the condition is false', () => {
    const { t } = checkContext([RULE]);
    let asked = 0;
    holds(t, { rule: RULE, ok: true, failure: 'f', expected: 'e', received: () => String(++asked) });
    expect(asked).toBe(0);
  });
});
