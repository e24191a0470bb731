import { describe, expect, it } from 'vitest';
import { pageDescribed } from './page-described.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/queries/page-object';
const page = (o: Record<string, unknown>) => ({ page: { size: 2, totalElements: 5, totalPages: 3, number: 1, ...o } });

describe('pageDescribed', () => {
  it.each([
    ['the page asked for passes', answer(200, page({})), 'passed', false],
    ['another size or number warns on the reading', answer(200, page({ number: 0 })), 'warning', false],
    ['wrong totals fail', answer(200, page({ totalElements: 4 })), 'failed', true],
    ['a number that is no integer fails', answer(200, page({ size: '2' })), 'failed', true],
    ['a refusal fails', answer(400, page({})), 'failed', true],
  ] as const)('%s', (_, res, status, throws) => {
    const { t, meta } = checkContext([RULE]);
    const run = () =>
      pageDescribed(t, {
        rule: RULE,
        res,
        size: 2,
        number: 1,
        totalElements: 5,
        totalPages: 3,
        reading: 'spring-data-page',
        what: 'page 1 of size 2',
      });
    if (throws) expect(run).toThrow();
    else run();
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
