import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { accepted } from './accepted.ts';
import { refused } from './refused.ts';
import { storedAsSent } from './stored-as-sent.ts';

/** What `takenOrRefused` judges: the answer to one value of a case table, valid or not by `rule`. */
export type TakenOrRefusedOptions = {
  rule: string;
  res: HttpResponse;
  /** The value, as failures name it. */
  what: string;
  /** Whether the value keeps the rule (taken) or breaks it (refused, 400). */
  valid: boolean;
  /** That a valid value is valid rests on this reading: its refusal warns, and the test goes on. */
  reading?: string;
  /** The statuses that take a valid value (201 unless told). */
  statuses?: readonly number[];
  /** A taken value is then stored as sent: the members sent and the record the answer carries. */
  stored?: { sent: Readonly<Record<string, unknown>>; record: object | undefined; what: string };
  /** High unless told. */
  severity?: Severity;
};

/**
 * A value a rule takes is accepted (and, told so, stored as sent); a value that breaks it is
 * refused. Returns false only where a valid value on a reading was refused (a warning).
 */
export function takenOrRefused(t: RuleContext, o: TakenOrRefusedOptions): boolean {
  const { rule, res, what, severity } = o;
  if (!o.valid) {
    refused(t, { rule, res, what, severity });
    return true;
  }
  if (!accepted(t, { rule, res, what, statuses: o.statuses, reading: o.reading, severity })) return false;
  if (o.stored) storedAsSent(t, { rule, what: o.stored.what, sent: o.stored.sent, stored: o.stored.record, severity });
  return true;
}
