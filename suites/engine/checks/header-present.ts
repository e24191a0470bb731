import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `headerPresent` judges: an answer that must carry a header. */
export type HeaderPresentOptions = {
  rule: string;
  res: HttpResponse;
  /** The header as the document writes it (`ETag`, `Location`). */
  header: string;
  /** The request, as a failure names it (`${what} answered no ${header}`). */
  what: string;
  /** The statuses the answer must have as well (200 unless told). */
  statuses?: readonly number[];
  /** What the header's value must match besides being there (`no-store` in Cache-Control). */
  value?: RegExp;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
  /** That it carries the header rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
};

/** An answer of one of `statuses` carries a header. Returns whether it does. */
export function headerPresent(t: RuleContext, o: HeaderPresentOptions): boolean {
  const { rule, res, header, what, statuses = [200] } = o;
  const value = res.headers[header.toLowerCase()];
  const ok = statuses.includes(res.status) && !!value && (!o.value || o.value.test(value));
  const d = {
    title: `${what} answered no ${header}${o.value ? ` matching ${o.value}` : ''}`,
    severity: 'high' as const,
    expected: `HTTP ${statuses.join(' or ')} with a ${header} header${o.value ? ` matching ${o.value}` : ''}`,
    received: ok ? '' : describeResponse(res, 120),
  };
  return judge(t, rule, ok, d, o);
}
