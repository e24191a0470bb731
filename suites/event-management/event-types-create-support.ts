// What the event-types-create spec files share.
import type { RuleContext } from '../engine/rule-test.ts';
import { tag } from './em-client.ts';
import { characters } from '../../generators/index.ts';
import { field, type FieldSpec } from './em-resources.ts';

/** `n` distinct field names `f0`, `f1`, … */
export const fieldsNamed = (n: number, extra: Partial<FieldSpec> = {}) =>
  Array.from({ length: n }, (_, i) => field(`f${i}`, 'STRING', extra));

/** A string of `n` characters of `ch` after a run-unique stem (the stem counted). */
export function filled(t: RuleContext, n: number, ch: string, stem = `${t.prefix}${tag()}`): string {
  return stem + ch.repeat(Math.max(0, n - characters(stem)));
}

/** A string of exactly `n` characters that starts with a run-unique stem. */
export function exactly(t: RuleContext, n: number, fill = 'x'): string {
  const stem = `${t.prefix}${tag()}`;
  return (stem + fill.repeat(Math.max(0, n))).slice(0, n);
}
