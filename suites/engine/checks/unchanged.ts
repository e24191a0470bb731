import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge, type Judging } from './judge.ts';

/** What `unchanged` judges: whether a record read back after a refused (or foreign) request is as it was. */
export type UnchangedOptions = {
  rule: string;
  /** The record as read back after the request. */
  res: HttpResponse;
  /** Whether it is as it was (the caller knows what it was). */
  intact: boolean;
  /** The request that must have left it alone, as a failure names it (`changed by ${what}`). */
  what: string;
  /** What it should still show. */
  expected: string;
  /** High unless told (a record changed across tenants, or by a refused restricted input, is critical). */
  severity?: Severity;
  soft?: Judging['soft'];
};

/** A request the service refused (or must not serve) left the record as it was. */
export function unchanged(t: RuleContext, o: UnchangedOptions): boolean {
  const d = {
    title: `changed by ${o.what}`,
    severity: o.severity ?? 'high',
    expected: o.expected,
    received: describeResponse(o.res),
    response: o.res,
  };
  return judge(t, o.rule, o.intact, d, { soft: o.soft });
}
