import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge } from './judge.ts';

/** What `locationNames` judges: the answer to a create and the id of the record it made. */
export type LocationNamesOptions = {
  rule: string;
  res: HttpResponse;
  id: unknown;
  /** The record, as a failure names it (`no Location header with the URL of ${what}`). */
  what: string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

/** A create answers a Location header holding the new record's id. Returns whether it does. */
export function locationNames(t: RuleContext, o: LocationNamesOptions): boolean {
  const location = o.res.headers.location ?? '';
  const ok = location !== '' && location.includes(encodeURIComponent(String(o.id)));
  const d = {
    title: `no Location header with the URL of ${o.what}`,
    severity: 'high' as const,
    expected: `a Location ending in ${String(o.id)}`,
    received: ok ? '' : location || '(none)',
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
