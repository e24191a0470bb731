import fc from 'fast-check';
import type { ContractPointer } from '../contracts/facts.ts';
import type { ServiceName } from '../contracts/services.ts';
import { boundaryCases, contractSchema, type BoundaryCase } from './boundary-cases.ts';
import { characters, describeValue } from './characters.ts';
import { flatten, primaryType } from './json-schema.ts';

/** One value of a field, whether its schema takes it, how a check's title names it, and whether that rests on counting code points. */
export type ValueCase = Pick<BoundaryCase, 'value' | 'valid' | 'what' | 'codePoints'>;

/** Options of `valueCases`. */
export interface ValueCasesConstraints {
  /** Also values of another JSON type (a rule that names them as refused: not an integer, not a boolean). */
  wrongTypes?: boolean;
}

/** Values of another JSON type than an integer's or a boolean's, each close to a valid one. */
const WRONG_TYPES: Record<string, unknown[]> = { integer: [1.5, '12', true], boolean: ['true', 1, 'false'] };

/** How far below a minimum and above a maximum drawn integers reach. */
const INTEGER_REACH = 150;
/** How far beyond a maxLength drawn strings reach. */
const LENGTH_REACH = 40;

/** Strings of a length range built from a length and a character, so shrinking shortens them. */
const stringOfLength = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('a', 'Z', '9', ' ', 'é', '-', '😀'))
    .map(([n, ch]) => ch.repeat(n));

/** An astral character in a string makes its length in UTF-16 units exceed its length in code points. */
const astral = (v: string) => /[\u{10000}-\u{10FFFF}]/u.test(v);

/**
 * The values of the field at `pointer` in a service's contract (an integer range, a string's
 * maxLength, a boolean): every edge on both sides (`boundaryCases`, or a boolean's two members),
 * with `wrongTypes` values of another type, and an arbitrary of further values in and out of
 * bounds, each tagged with whether the contract takes it.
 */
export function valueCases(
  service: ServiceName,
  pointer: ContractPointer,
  what: string,
  c: ValueCasesConstraints = {},
): { edges: ValueCase[]; arbitrary: fc.Arbitrary<ValueCase> } {
  const schema = flatten(contractSchema(service, pointer));
  const type = primaryType(schema);
  const named = (value: unknown, valid: boolean, codePoints = false): ValueCase => ({
    value,
    valid,
    what: `${what} ${describeValue(value)}`,
    ...(codePoints ? { codePoints } : {}),
  });
  const wrong = c.wrongTypes ? (WRONG_TYPES[type ?? ''] ?? []).map((v) => named(v, false)) : [];
  if (type === 'boolean')
    return {
      edges: [...wrong, named(true, true), named(false, true)],
      arbitrary: fc
        .oneof(fc.boolean(), fc.constantFrom<unknown>('false', 0, 'yes', []))
        .map((v) => named(v, typeof v === 'boolean')),
    };
  const edges = [...boundaryCases(service, pointer, what), ...wrong];
  if (type === 'integer' && schema.minimum !== undefined && schema.maximum !== undefined) {
    const { minimum: min, maximum: max } = schema;
    const arbitrary = fc
      .integer({ min: min - INTEGER_REACH, max: max + INTEGER_REACH })
      .map((v) => named(v, v >= min && v <= max));
    return { edges, arbitrary };
  }
  if (type === 'string' && schema.maxLength !== undefined) {
    const max = schema.maxLength;
    const arbitrary = stringOfLength(0, max + LENGTH_REACH).map((v) =>
      named(v, characters(v) <= max, astral(v) && v.length > max),
    );
    return { edges, arbitrary };
  }
  throw new Error(`valueCases: the ${service} contract gives ${pointer} neither a range, a maxLength nor a boolean`);
}
