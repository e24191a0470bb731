import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { locationNames } from './location-names.ts';
import { answer, checkContext } from './check-test-context.ts';

const RULE = 'event-management/event-types/create-201';
const located = (location?: string): HttpResponse => ({ ...answer(201), headers: location ? { location } : {} });

describe('locationNames', () => {
  it.each([
    ['a Location with the id', located('/v3/eventTypes/a%20b'), 'passed'],
    ['a Location with another id', located('/v3/eventTypes/c'), 'failed'],
    ['no Location', located(), 'failed'],
  ])('%s', (_, res, status) => {
    const { t, meta } = checkContext([RULE]);
    locationNames(t, { rule: RULE, res, id: 'a b', what: 'the type', soft: true });
    expect(meta.outcomes[RULE].status).toBe(status);
  });
});
