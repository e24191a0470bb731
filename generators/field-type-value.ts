import fc from 'fast-check';
import { describeValue } from './characters.ts';
import { webLink } from './web-link.ts';

/** A value of a custom field of a documented type, whether the type takes it, and how a title names it. */
export interface FieldTypeValue {
  /** The field type (`STRING`, `INTEGER`, … as the contract's Field schema lists them). */
  type: string;
  value: unknown;
  valid: boolean;
  what: string;
}

/** Options of `fieldTypeValue` and `fieldTypeExamples`. */
export interface FieldTypeValueConstraints {
  /** The members of the ENUM field the values are for. */
  enumValues: readonly string[];
}

const VALID_EXAMPLES: Record<string, unknown[]> = {
  STRING: ['', 'text', 'ünïcödé'],
  INTEGER: [0, -7, 2_147_483_647],
  DOUBLE: [0.5, -1e6, 3],
  BOOLEAN: [true, false],
  // Whether a LINK may be a relative reference is not said: valid examples are absolute URIs.
  LINK: ['https://example.com/a?b=c', 'http://example.org/'],
  TIMESTAMP: ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.678Z'],
  UUID: ['6f1c8e2a-4b7d-4c1e-9a3f-0d2e5b8c7a61'],
};
const INVALID_EXAMPLES: Record<string, unknown[]> = {
  STRING: [5, true],
  INTEGER: ['12', 1.5, true],
  DOUBLE: ['1.5', true],
  BOOLEAN: ['true', 1],
  LINK: [42, true, { href: 'https://example.com' }],
  // The last: an array holding a valid timestamp is not a timestamp value.
  TIMESTAMP: ['yesterday', '2026-02-30T00:00:00Z', 1_700_000_000_000, ['2026-01-02T03:04:05Z']],
  // One digit too many in the last group, then in the first; the last: an array holding a valid uuid is not a uuid value.
  UUID: [
    'not-a-uuid',
    '6f1c8e2a4b7d4c1e9a3f0d2e5b8c7a61',
    '6f1c8e2a-4b7d-4c1e-9a3f-0d2e5b8c7a610',
    '06f1c8e2a-4b7d-4c1e-9a3f-0d2e5b8c7a61',
    42,
    ['6f1c8e2a-4b7d-4c1e-9a3f-0d2e5b8c7a61'],
  ],
};
/** Values no ENUM field of `members` takes: a longer word, a member in lower case, a number. */
const notMembers = (members: readonly string[]): unknown[] => [`VERY_${members.at(-1)}`, members[0].toLowerCase(), 3];

const valueOf = (type: string, value: unknown, valid: boolean): FieldTypeValue => ({
  type,
  value,
  valid,
  what: `${type} field ${describeValue(value)}`,
});

/** Fixed values of each of `types` on both sides: the valid ones first. */
export function fieldTypeExamples(types: readonly string[], c: FieldTypeValueConstraints): FieldTypeValue[] {
  return types.flatMap((type) => {
    const valid = type === 'ENUM' ? c.enumValues : VALID_EXAMPLES[type];
    const invalid = type === 'ENUM' ? notMembers(c.enumValues) : INVALID_EXAMPLES[type];
    if (!valid || !invalid) throw new Error(`fieldTypeExamples: no values of field type ${type}`);
    return [...valid.map((v) => valueOf(type, v, true)), ...invalid.map((v) => valueOf(type, v, false))];
  });
}

/** Drawn values of each documented field type, in and out of the type. */
const DRAWN: Record<string, (c: FieldTypeValueConstraints) => fc.Arbitrary<[unknown, boolean]>> = {
  STRING: () => fc.string({ maxLength: 40 }).map((v) => [v, true]),
  INTEGER: () =>
    fc.oneof(
      fc.integer().map((v): [unknown, boolean] => [v, true]),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((v) => !Number.isInteger(v))
        .map((v): [unknown, boolean] => [v, false]),
    ),
  DOUBLE: () =>
    fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
      .filter((v) => !Object.is(v, -0))
      .map((v) => [v, true]),
  BOOLEAN: () =>
    fc.oneof(
      fc.boolean().map((v): [unknown, boolean] => [v, true]),
      fc.integer({ min: 0, max: 1 }).map((v): [unknown, boolean] => [v, false]),
    ),
  LINK: () =>
    fc.oneof(
      webLink().map((v): [unknown, boolean] => [v, true]),
      fc.integer().map((v): [unknown, boolean] => [v, false]),
    ),
  TIMESTAMP: () =>
    fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => [d.toISOString(), true]),
  UUID: () =>
    fc.oneof(
      fc.uuid({ version: 4 }).map((v): [unknown, boolean] => [v, true]),
      fc.uuid({ version: 4 }).map((v): [unknown, boolean] => [v.slice(0, -1), false]),
    ),
  ENUM: (c) =>
    fc.oneof(
      fc.constantFrom(...c.enumValues).map((v): [unknown, boolean] => [v, true]),
      fc.constantFrom(...c.enumValues).map((v): [unknown, boolean] => [`${v}X`, false]),
    ),
};

/** A value of one of `types` (each a documented field type), valid for it or not. */
export function fieldTypeValue(types: readonly string[], c: FieldTypeValueConstraints): fc.Arbitrary<FieldTypeValue> {
  return fc.oneof(
    ...types.map((type) => {
      const drawn = DRAWN[type];
      if (!drawn) throw new Error(`fieldTypeValue: no values of field type ${type}`);
      return drawn(c).map(([v, valid]) => valueOf(type, v, valid));
    }),
  );
}
