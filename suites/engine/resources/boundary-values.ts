import { takenOrRefused } from '../checks/index.ts';
import type { BoundaryCase } from '../../../generators/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';

/** The cases at and beyond a contract bound, how each value is sent, and the rules they keep or break. */
export interface BoundaryValuesOptions {
  cases: BoundaryCase[];
  send(value: unknown): Promise<HttpResponse>;
  rules: { ok: string; bad: string };
  /**
   * The reading that a length counts characters as code points: a refusal of a value valid only
   * so counted (astral characters, two UTF-16 units each) warns, never fails.
   */
  codePoints?: string;
}

/** Sends each boundary case: a value the contract takes is accepted (`rules.ok`), one beyond the bound refused (`rules.bad`). */
export async function boundaryValues(t: RuleContext, o: BoundaryValuesOptions): Promise<void> {
  for (const c of o.cases)
    takenOrRefused(t, {
      rule: c.valid ? o.rules.ok : o.rules.bad,
      res: await o.send(c.value),
      what: c.what,
      valid: c.valid,
      reading: c.codePoints ? o.codePoints : undefined,
    });
}
