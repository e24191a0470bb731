import type { HttpResponse } from '../http-client.ts';
import { describe, expect, it } from 'vitest';
import { etagHeader, etagOf } from './etag-header.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';
const withEtag = (etag?: string): HttpResponse => ({
  ...answer(200, {}),
  headers: etag === undefined ? {} : { etag },
});

describe('etagOf', () => {
  it.each([
    ['"3"', 3],
    ['3', 3],
    ['W/"3"', 3],
    ['"abc"', undefined],
    [undefined, undefined],
  ])('%s is %s', (header, tag) => expect(etagOf(withEtag(header))).toBe(tag));
});

describe('etagHeader', () => {
  it('passes the header naming the etag and fails another', () => {
    const { t, meta } = checkContext([RULE]);
    expect(etagHeader(t, { rule: RULE, res: withEtag('"4"'), etag: 4, what: 'POST' })).toBe(true);
    expect(meta.outcomes[RULE].status).toBe('passed');
    const c = checkContext([RULE]);
    expect(etagHeader(c.t, { rule: RULE, res: withEtag('"5"'), etag: 4, what: 'POST', soft: true })).toBe(false);
    expect(c.meta.outcomes[RULE].failure).toMatchObject({ title: 'POST answers no ETag header of the etag' });
  });
});
