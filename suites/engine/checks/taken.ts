import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge, type Judging } from './judge.ts';

/** What `taken` judges: the answer to a valid request (a change, a value), and what its body must show. */
export type TakenOptions = {
  rule: string;
  res: HttpResponse;
  /** The request, as a failure names it (`not taken: ${what}`). */
  what: string;
  /** The statuses that take it (200 unless told). */
  statuses?: readonly number[];
  /**
   * Members the answer's body shows once taken: each value (compared with ===), or a test of it
   * `(v) => boolean` described by `showsText`.
   */
  shows?: Readonly<Record<string, unknown>>;
  /** How a failure names what `shows` tests where a test stands for a value. */
  showsText?: string;
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
  /** That it is taken rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: Judging['reading'];
};

/**
 * A valid request is taken: answered with one of `statuses` (200 unless told), its body showing
 * each member of `shows`. The failure names the request; the test names no wording of its own.
 */
export function taken(t: RuleContext, o: TakenOptions): boolean {
  const { res, statuses = [200], shows = {} } = o;
  const record = (res.json && typeof res.json === 'object' ? res.json : {}) as Record<string, unknown>;
  const shown = Object.entries(shows).every(([k, want]) =>
    typeof want === 'function' ? (want as (v: unknown) => boolean)(record[k]) : record[k] === want,
  );
  const ok = statuses.includes(res.status) && shown;
  const members =
    o.showsText ??
    Object.entries(shows)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ');
  const d = {
    title: `not taken: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: `HTTP ${statuses.join(' or ')}${members ? ` with ${members}` : ''} for ${o.what}`,
    received: ok ? '' : describeResponse(res, 240),
    response: res,
  };
  return judge(t, o.rule, ok, d, o);
}
