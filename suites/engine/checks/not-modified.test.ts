import { describe, expect, it } from 'vitest';
import { notModified } from './not-modified.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';

describe('notModified', () => {
  it.each([
    ['a 304 without a body', answer(304), 'passed'],
    ['a 304 with a body', answer(304, { id: 1 }), 'failed'],
    ['a 200', answer(200, { id: 1 }), 'failed'],
  ] as const)('%s', (_, res, status) => {
    const { t, meta } = checkContext([RULE]);
    notModified(t, { rule: RULE, res, what: 'a matching If-None-Match', soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
