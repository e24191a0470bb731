import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge, type Judging } from './judge.ts';

/** Whether a body mentions a text: in its raw form or (for non-ASCII text) in its parsed JSON. */
export function mentions(res: HttpResponse, text: string): boolean {
  if (res.text.includes(text)) return true;
  return res.json !== undefined && JSON.stringify(res.json).includes(text);
}

/** Every integer a JSON body holds (numbers and numeric strings, at any depth). */
export function integersIn(value: unknown, out: Set<number> = new Set()): Set<number> {
  if (typeof value === 'number' && Number.isInteger(value)) out.add(value);
  else if (typeof value === 'string' && /^[0-9]{1,16}$/.test(value)) out.add(Number(value));
  else if (Array.isArray(value)) for (const v of value) integersIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) integersIn(v, out);
  return out;
}

/** Whether a body holds an integer: in its parsed JSON, or as a number token of its text. */
export function mentionsInteger(res: HttpResponse, n: number): boolean {
  if (res.json !== undefined) return integersIn(res.json).has(n);
  return new RegExp(`(^|[^0-9])${n}([^0-9]|$)`).test(res.text);
}

/** Whether an answer shows an item: a text it mentions, an integer it holds. */
export function shows(res: HttpResponse, item: string | number): boolean {
  return typeof item === 'number' ? mentionsInteger(res, item) : mentions(res, item);
}

/** What `listed` and `notListed` judge: an answer, the items it must (or must not) show, and how it shows one. */
export type ListedOptions = {
  rule: string;
  res: HttpResponse;
  /** What is looked for, as a failure names it (`not listed: ${what}`). */
  what: string;
  /** The texts and integers looked for (`shows` unless `holds` is told). */
  items: ReadonlyArray<string | number>;
  /** How the answer shows one item, where a mention is not enough (an entry of a list, say). */
  holds?: (res: HttpResponse, item: string | number) => boolean;
  /** The statuses that list (200 unless told); with `anyStatus`, the answer is judged on its body alone. */
  statuses?: readonly number[];
  anyStatus?: boolean;
  /** With `listed`: an empty `items` does not hold (there was something to list). */
  nonEmpty?: boolean;
  /** High unless told (a listing across tenants is critical). */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** An answer lists every item: one of `statuses` (200 unless told), showing each. */
export function listed(t: RuleContext, o: ListedOptions): boolean {
  return listing(t, o, true);
}

/** An answer lists none of the items: one of `statuses` (200 unless told; any with `anyStatus`), showing none. */
export function notListed(t: RuleContext, o: ListedOptions): boolean {
  return listing(t, o, false);
}

/** `listed` (`shown`) or `notListed`: the status, then the items the answer shows that it must not, or misses. */
function listing(t: RuleContext, o: ListedOptions, shown: boolean): boolean {
  const { res, statuses = [200] } = o;
  const holds = o.holds ?? shows;
  const wrong = o.items.filter((i) => holds(res, i) !== shown);
  const ok =
    (o.anyStatus || statuses.includes(res.status)) &&
    wrong.length === 0 &&
    (!shown || !o.nonEmpty || o.items.length > 0);
  const answer = o.anyStatus ? 'an answer' : `HTTP ${statuses.join(' or ')}`;
  const items = o.items.map(String).join(', ');
  const d = {
    title: shown ? `not listed: ${o.what}` : `listed though it must not be: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `${answer} ${shown ? 'listing' : 'without'} ${items}`,
    received: `${wrong.length ? `${shown ? 'missing' : 'listing'} ${wrong.map(String).join(', ')}: ` : ''}${describeResponse(res)}`,
    response: res,
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
