import { describe, expect, it } from 'vitest';
import { pageBeyondLast } from './page-beyond-last.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/queries/page-default-and-minimum';
const READING = 'page-beyond-last-empty';

describe('pageBeyondLast', () => {
  it.each([
    ['an empty 200 passes', answer(200, {}), 0, 'passed', false],
    ['a refusal warns on the reading', answer(400, {}), 0, 'warning', false],
    ['a 200 with items fails', answer(200, {}), 2, 'failed', true],
  ] as const)('%s', (_, res, items, status, throws) => {
    const { t, meta } = checkContext([RULE]);
    const run = () => pageBeyondLast(t, { rule: RULE, res, items, reading: READING });
    if (throws) expect(run).toThrow();
    else run();
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
