import type fc from 'fast-check';
import { accepted, refused, type RefusedOptions } from '../checks/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';

/** One value of a field, whether the rule takes it, and (where a resource has several) how it is sent. */
export interface FieldValue {
  value: unknown;
  valid: boolean;
  /** As failures name it (`<field> <value as JSON>` unless told). */
  what?: string;
  /** That the value is taken or refused as `valid` says rests on this reading: a warning when not. */
  reading?: string;
  /** The request that carries it, where the field is sent by more than one (say `PUT` beside a create). */
  via?: string;
}

/** How a refusal is judged besides its rule, answer and name. */
type Refusal<C extends string> =
  RefusedOptions<C> extends infer R ? (R extends unknown ? Omit<R, 'rule' | 'res' | 'what'> : never) : never;

/** What `fieldValues` sends and how its answers are judged. */
export interface FieldValuesOptions<V extends FieldValue = FieldValue, C extends string = string> {
  rule: string;
  /** The field, as failures name it (`priority`). */
  field: string;
  /** The cases sent one after the other, in their order. */
  cases?: readonly V[];
  /** Values drawn by a property after the cases, and at most how many runs it makes. */
  property?: { values: fc.Arbitrary<V>; runs?: number };
  send(c: V): Promise<HttpResponse>;
  /** The statuses that take a valid value (201 unless told). */
  statuses?(c: V): readonly number[];
  /** How a refusal is judged besides its status (a service's generic code, a status of our reading). */
  refusal?(c: V): Refusal<C>;
}

/** A value's name in a failure: its own, or its request, field and JSON. */
export function fieldValueText(field: string, c: FieldValue): string {
  return c.what ?? `${c.via ? `${c.via} with ` : ''}${field} ${JSON.stringify(c.value)}`;
}

/**
 * Sends each value of a field: one the rule takes is accepted, one that breaks it refused (each
 * case first, then, told so, a property over drawn values).
 */
export async function fieldValues<V extends FieldValue, C extends string>(
  t: RuleContext,
  o: FieldValuesOptions<V, C>,
): Promise<void> {
  const judge = async (c: V) => {
    const res = await o.send(c);
    const what = fieldValueText(o.field, c);
    if (c.valid) accepted(t, { rule: o.rule, res, what, statuses: o.statuses?.(c), reading: c.reading });
    else refused<C>(t, { reading: c.reading, ...o.refusal?.(c), rule: o.rule, res, what });
  };
  for (const c of o.cases ?? []) await judge(c);
  if (o.property)
    await t.property(o.property.values, judge, {
      rule: o.rule,
      runs: o.property.runs === undefined ? undefined : Math.min(t.session.context.runs, o.property.runs),
    });
}
