// What the event-types-create spec files share.
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { tag } from './em-client.ts';
import { CODE_POINT_READING, characters } from './em-arbitraries.ts';
import type { BoundaryCase } from '../engine/contract-bounds.ts';
import { accepted, refused } from '../engine/checks/index.ts';
import { field, type FieldSpec } from './em-resources.ts';

export const FIELD_TYPES = ['STRING', 'INTEGER', 'DOUBLE', 'BOOLEAN', 'LINK', 'TIMESTAMP', 'UUID', 'ENUM'];

/** `n` distinct field names `f0`, `f1`, … */
export const fieldsNamed = (n: number, extra: Partial<FieldSpec> = {}) =>
  Array.from({ length: n }, (_, i) => field(`f${i}`, 'STRING', extra));

/**
 * Sends each boundary case: a value the contract takes is accepted (`rules.ok`), one beyond the
 * bound refused (`rules.bad`). A refusal of the limit in astral characters (😀, two UTF-16 units
 * each) rests on our code-point reading of "characters" (CODE_POINT_READING): a warning, never a
 * failure.
 */
export async function sendBoundary(
  t: RuleContext,
  cases: BoundaryCase[],
  post: (value: unknown) => Promise<HttpResponse>,
  rules: { ok: string; bad: string },
): Promise<void> {
  for (const c of cases) {
    const res = await post(c.value);
    if (!c.valid) refused(t, { rule: rules.bad, res, what: c.what });
    else accepted(t, { rule: rules.ok, res, what: c.what, reading: c.codePoints ? CODE_POINT_READING : undefined });
  }
}

/** A string of `n` characters of `ch` after a run-unique stem (the stem counted). */
export function filled(t: RuleContext, n: number, ch: string, stem = `${t.prefix}${tag()}`): string {
  return stem + ch.repeat(Math.max(0, n - characters(stem)));
}

/** A string of exactly `n` characters that starts with a run-unique stem. */
export function exactly(t: RuleContext, n: number, fill = 'x'): string {
  const stem = `${t.prefix}${tag()}`;
  return (stem + fill.repeat(Math.max(0, n))).slice(0, n);
}
