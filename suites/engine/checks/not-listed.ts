import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { shows, type ListedOptions } from './listed.ts';
import { judge } from './judge.ts';

/** An answer lists none of the items: one of `statuses` (200 unless told; any with `anyStatus`), showing none. */
export function notListed(t: RuleContext, o: ListedOptions): boolean {
  const { res, statuses = [200] } = o;
  const holds = o.holds ?? shows;
  const found = o.items.filter((i) => holds(res, i));
  const ok = (o.anyStatus || statuses.includes(res.status)) && found.length === 0;
  const d = {
    title: `listed though it must not be: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `${o.anyStatus ? 'an answer' : `HTTP ${statuses.join(' or ')}`} without ${o.items.map(String).join(', ')}`,
    received: `${found.length ? `listing ${found.map(String).join(', ')}: ` : ''}${describeResponse(res)}`,
    response: res,
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
