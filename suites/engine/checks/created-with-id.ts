import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';

/** What `createdWithId` judges: the answer to a create the document answers `201 integer (int64)`. */
export type CreatedWithIdOptions = {
  rule: string;
  res: HttpResponse;
  /** What was created, as a failure names it (`not created with 201 and an integer ID: ${what}`). */
  what: string;
  /** High unless told. */
  severity?: Severity;
};

/** A create is answered 201 with a bare JSON integer, the new record's ID. */
export function createdWithId(t: RuleContext, o: CreatedWithIdOptions): void {
  const { res } = o;
  t.check(o.rule, res.status === 201 && Number.isSafeInteger(res.json), {
    title: `not created with 201 and an integer ID: ${o.what}`,
    severity: o.severity ?? 'high',
    expected: 'HTTP 201 with a bare JSON integer',
    received: describeResponse(res),
    response: res,
  });
}
