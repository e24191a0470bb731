import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { listed, notListed } from './listed.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/events/create-201';
const answer = (status: number, json: unknown) =>
  ({ status, json, text: JSON.stringify(json), headers: {} }) as unknown as HttpResponse;
const ids = (r: HttpResponse, id: string | number) => (r.json as { id: string }[]).some((x) => x.id === id);

describe('listed and notListed', () => {
  it.each([
    [listed, 'a', 'passed'],
    [listed, 'z', 'failed'],
    [notListed, 'z', 'passed'],
    [notListed, 'a', 'failed'],
  ] as const)('%o %s', (kind, id, status) => {
    const { t, meta } = checkContext([RULE]);
    kind(t, {
      rule: RULE,
      res: answer(200, [{ id: 'a' }, { id: 'b' }]),
      items: [id],
      holds: ids,
      what: 'x',
      soft: true,
    });
    expect(meta.outcomes[RULE].status).toBe(status);
  });

  it('judges the status too, unless told to look at the body alone', () => {
    const a = checkContext([RULE]);
    listed(a.t, { rule: RULE, res: answer(500, [{ id: 'a' }]), items: ['a'], holds: ids, what: 'x', soft: true });
    expect(a.meta.outcomes[RULE].status).toBe('failed');
    const b = checkContext([RULE]);
    notListed(b.t, {
      rule: RULE,
      res: answer(404, []),
      items: ['a'],
      holds: ids,
      what: 'x',
      anyStatus: true,
      soft: true,
    });
    expect(b.meta.outcomes[RULE].status).toBe('passed');
  });
});
