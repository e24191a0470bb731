import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { etagChanged } from './etag-changed.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/etags/query-etag-header';
const tagged = (etag?: string): HttpResponse => ({ ...answer(200), headers: etag ? { etag } : {} });

describe('etagChanged', () => {
  it.each([
    ['another ETag once settled', tagged('"2"'), true, 'passed'],
    ['the same ETag', tagged('"1"'), true, 'failed'],
    ['no ETag', tagged(), true, 'failed'],
    ['another ETag, the change never seen', tagged('"2"'), false, 'failed'],
  ])('%s', (_, res, settled, status) => {
    const { t, meta } = checkContext([RULE]);
    etagChanged(t, { rule: RULE, res, before: '"1"', settled, what: 'GET /events', soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
