import { describe, expect, it } from 'vitest';
import { servesRecord } from './serves-record.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/event-types/create-201';

describe('servesRecord', () => {
  it.each([
    ['a 200 with the id', answer(200, { id: 'a' }), 'passed'],
    ['a 200 with another id', answer(200, { id: 'b' }), 'failed'],
    ['a 404', answer(404, { id: 'a' }), 'failed'],
    ['a link outside the service', undefined, 'failed'],
  ])('%s', (_, res, status) => {
    const { t, meta } = checkContext([RULE]);
    servesRecord(t, { rule: RULE, res, link: 'Location /x', id: 'a', what: 'the type', soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
