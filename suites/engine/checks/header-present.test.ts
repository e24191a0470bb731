import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { headerPresent } from './header-present.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/etags/query-etag-header';
const withHeaders = (status: number, headers: Record<string, string>): HttpResponse => ({ ...answer(status), headers });

describe('headerPresent', () => {
  it.each([
    ['a 200 with the header', withHeaders(200, { etag: '"1"' }), 'passed'],
    ['a 200 without it', withHeaders(200, {}), 'failed'],
    ['another status with it', withHeaders(404, { etag: '"1"' }), 'failed'],
  ])('%s', (_, res, status) => {
    const { t, meta } = checkContext([RULE]);
    headerPresent(t, { rule: RULE, res, header: 'ETag', what: 'GET /events', soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });

  it.each([
    ['a value that matches', 'no-store, private', 'passed'],
    ['a value that does not', 'no-cache', 'warning'],
  ])('%s', (_, value, status) => {
    const rule = 'event-management/event-types/inheritance-depth-4';
    const { t, meta } = checkContext([rule]);
    const res = withHeaders(200, { 'cache-control': value });
    headerPresent(t, {
      rule,
      res,
      header: 'Cache-Control',
      what: 'GET',
      value: /no-store/,
      reading: 'depth-below-base-event',
    });
    expect(meta.outcomes[rule].status).toBe(status);
  });
});
