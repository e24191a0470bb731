import fc from 'fast-check';
import { webLink } from '../../generators/web-link.ts';
import { boundaryValues } from '../../generators/index.ts';
import type { JsonSchema } from '../../generators/index.ts';
import { contractOf } from '../engine/schemas.ts';
import { SERVICE } from './em-client.ts';
import { SEVERITY, standardMaxLength } from './em-bounds.ts';

/** One value for one field, whether the document allows it, and the rule that judges it. */
export interface FieldCase {
  field: string;
  value: unknown;
  valid: boolean;
  /** Rule slug judging the answer. */
  rule: string;
  /** What the value is, for messages. */
  what: string;
  /**
   * For a valid value whose validity rests on our reading of "characters" (Unicode code points):
   * the ID of that reading, listed with the rule in the catalog. A refusal of it is a warning,
   * never a failure (counting UTF-16 units also reads the document).
   */
  reading?: string;
}

/**
 * "Characters" in the length rules: the document does not define them. We read them as Unicode
 * code points (as JSON Schema's maxLength does), the reading `characters-code-points`. A character
 * of the basic plane that takes two UTF-8 bytes (é) is one character on every reading (code
 * points, UTF-16 units, graphemes), so refusing max of them, or taking max + 1, fails; an astral
 * character (😀) is one code point but two UTF-16 units, so only a refusal of max of them rests on
 * the reading.
 */
export const CODE_POINT_READING = 'characters-code-points';

/** Length in Unicode code points. */
export const characters = (s: string): number => [...s].length;

/** Multi-byte and astral strings at a maximum length and one above it. */
export function multiByteBoundaries(max: number): Array<{ value: string; valid: boolean; reading?: string }> {
  return [
    { value: 'é'.repeat(max), valid: true },
    { value: 'é'.repeat(max + 1), valid: false },
    { value: '😀'.repeat(max), valid: true, reading: CODE_POINT_READING },
    { value: '😀'.repeat(max + 1), valid: false },
  ];
}

const describe = (v: unknown) =>
  // not a contract bound: a longer string is described by its length
  typeof v === 'string' && characters(v) > 20
    ? `a string of ${characters(v)} characters${/[^ -~]/.test(v) ? ` (${JSON.stringify([...v][0])}…)` : ''}`
    : JSON.stringify(v);

/** Strings of a length range built from a length and a character, so shrinking shortens them. */
const stringOfLength = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('a', 'Z', '9', ' ', 'é', '-', '😀'))
    .map(([n, ch]) => ch.repeat(n));

/** Rule slugs per standard field: accepted values, rejected values. */
const STANDARD_RULES: Record<string, { ok: string; bad: string }> = {
  severity: { ok: 'event-management/events/severity-range', bad: 'event-management/events/severity-out-of-range-400' },
  description: {
    ok: 'event-management/events/description-length',
    bad: 'event-management/events/source-or-description-too-long-400',
  },
  code: { ok: 'event-management/events/code-length', bad: 'event-management/events/code-too-long-400' },
  source: {
    ok: 'event-management/events/source-length',
    bad: 'event-management/events/source-or-description-too-long-400',
  },
  acknowledged: {
    ok: 'event-management/events/acknowledged-boolean',
    bad: 'event-management/events/acknowledged-boolean',
  },
};

/** Values of a wrong type that a rule names as rejected (severity: not an integer; acknowledged: not a boolean). */
const WRONG_TYPES: Record<string, unknown[]> = { severity: [1.5, '12', true], acknowledged: ['true', 1, 'false'] };

async function standardSchema(): Promise<Record<string, JsonSchema>> {
  const doc = await contractOf(SERVICE);
  return (doc.components?.schemas?.StandardEvent as JsonSchema | undefined)?.properties ?? {};
}

const caseOf = (field: string, value: unknown, valid: boolean, reading?: string): FieldCase => ({
  field,
  value,
  valid,
  rule: valid ? STANDARD_RULES[field].ok : STANDARD_RULES[field].bad,
  what: `${field} ${describe(value)}`,
  reading: valid ? reading : undefined,
});

/** An astral character in a valid string makes its validity rest on the code-point reading. */
const astral = (v: string) => /[\u{10000}-\u{10FFFF}]/u.test(v);

/**
 * The five standard fields from the contract's StandardEvent schema: every exact boundary on
 * both sides plus the wrong types the rules name, and an arbitrary of further values in and out
 * of range.
 */
export async function standardFieldCases(): Promise<{ boundaries: FieldCase[]; arbitrary: fc.Arbitrary<FieldCase> }> {
  const props = await standardSchema();
  const boundaries: FieldCase[] = [];
  for (const field of Object.keys(STANDARD_RULES)) {
    const schema = props[field] ?? {};
    for (const b of boundaryValues(schema)) boundaries.push(caseOf(field, b.value, b.valid));
    const maxLength = (schema as { maxLength?: number }).maxLength;
    if (maxLength !== undefined)
      for (const b of multiByteBoundaries(maxLength)) boundaries.push(caseOf(field, b.value, b.valid, b.reading));
    for (const v of WRONG_TYPES[field] ?? []) boundaries.push(caseOf(field, v, false));
    if (field === 'acknowledged') boundaries.push(caseOf(field, true, true), caseOf(field, false, true));
  }
  const max = standardMaxLength;
  const arbitrary = fc.oneof(
    fc.integer({ min: -150, max: 250 }).map((v) => caseOf('severity', v, v >= SEVERITY.min && v <= SEVERITY.max)),
    ...(['description', 'code', 'source'] as const).map((f) =>
      stringOfLength(0, max(f) + 40).map((v) =>
        caseOf(f, v, characters(v) <= max(f), astral(v) && v.length > max(f) ? CODE_POINT_READING : undefined),
      ),
    ),
    fc
      .oneof(fc.boolean(), fc.constantFrom<unknown>('false', 0, 'yes', []))
      .map((v) => caseOf('acknowledged', v, typeof v === 'boolean')),
  );
  return { boundaries, arbitrary };
}

/** Field types of custom fields, and for each valid and invalid values with the rule a refusal falls under. */
export const CUSTOM_FIELD_TYPES = [
  'STRING',
  'INTEGER',
  'DOUBLE',
  'BOOLEAN',
  'LINK',
  'TIMESTAMP',
  'UUID',
  'ENUM',
] as const;
export const ENUM_VALUES = ['LOW', 'MEDIUM', 'HIGH'];

/** Name of the custom field of a type in the all-types event type. */
export const customFieldName = (type: string) => `f${type.toLowerCase()}`;

const badRule = (type: string) =>
  type === 'LINK'
    ? 'event-management/events/link-value-quoted'
    : type === 'UUID'
      ? 'event-management/events/invalid-uuid-field-400'
      : type === 'ENUM'
        ? 'event-management/event-types/enum-values-rule'
        : 'event-management/events/incompatible-value-400';

const customCase = (type: string, value: unknown, valid: boolean): FieldCase => ({
  field: customFieldName(type),
  value,
  valid,
  rule: valid ? 'event-management/events/custom-field-value-types' : badRule(type),
  what: `${type} field ${describe(value)}`,
});

const VALID_EXAMPLES: Record<string, unknown[]> = {
  STRING: ['', 'text', 'ünïcödé'],
  INTEGER: [0, -7, 2_147_483_647],
  DOUBLE: [0.5, -1e6, 3],
  BOOLEAN: [true, false],
  // Whether a LINK may be a relative reference is not said: valid examples are absolute URIs.
  LINK: ['https://example.com/a?b=c', 'http://example.org/'],
  TIMESTAMP: ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.678Z'],
  UUID: ['6f1c8e2a-4b7d-4c1e-9a3f-0d2e5b8c7a61'],
  ENUM: ENUM_VALUES,
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
  ENUM: ['VERY_HIGH', 'low', 3],
};

/** Custom field values of each documented type: fixed examples on both sides and an arbitrary of more. */
export function customFieldCases(): { examples: FieldCase[]; arbitrary: fc.Arbitrary<FieldCase> } {
  const examples = CUSTOM_FIELD_TYPES.flatMap((type) => [
    ...VALID_EXAMPLES[type].map((v) => customCase(type, v, true)),
    ...INVALID_EXAMPLES[type].map((v) => customCase(type, v, false)),
  ]);
  const arbitrary = fc.oneof(
    fc.string({ maxLength: 40 }).map((v) => customCase('STRING', v, true)),
    fc.oneof(
      fc.integer().map((v) => customCase('INTEGER', v, true)),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((v) => !Number.isInteger(v))
        .map((v) => customCase('INTEGER', v, false)),
    ),
    fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
      .filter((v) => !Object.is(v, -0))
      .map((v) => customCase('DOUBLE', v, true)),
    fc.oneof(
      fc.boolean().map((v) => customCase('BOOLEAN', v, true)),
      fc.integer({ min: 0, max: 1 }).map((v) => customCase('BOOLEAN', v, false)),
    ),
    fc.oneof(
      webLink().map((v) => customCase('LINK', v, true)),
      fc.integer().map((v) => customCase('LINK', v, false)),
    ),
    fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => customCase('TIMESTAMP', d.toISOString(), true)),
    fc.oneof(
      fc.uuid({ version: 4 }).map((v) => customCase('UUID', v, true)),
      fc.uuid({ version: 4 }).map((v) => customCase('UUID', v.slice(0, -1), false)),
    ),
    fc.oneof(
      fc.constantFrom(...ENUM_VALUES).map((v) => customCase('ENUM', v, true)),
      fc.constantFrom(...ENUM_VALUES).map((v) => customCase('ENUM', `${v}X`, false)),
    ),
  );
  return { examples, arbitrary };
}

/** A timestamp of an event, in a UTC form or in one of the forms that are not valid UTC. */
export interface TimestampCase {
  value: unknown;
  valid: boolean;
  form: string;
  /**
   * For a form whose verdict rests on our reading of "UTC timestamp" (`+00:00` is UTC; another
   * offset or no zone is not): the ID of that reading, listed with the rule in the catalog.
   */
  reading?: string;
}

/** "UTC timestamp": which written forms count as UTC is our reading where the offset is not Z. */
export const UTC_FORMS_READING = 'utc-timestamp-forms';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export const TIMESTAMP_FORMS = [
  'Z',
  '+00:00',
  'millis-Z',
  'offset+02:00',
  'offset-05:30',
  'no-zone',
  'date-only',
  'month-13',
  'feb-30',
  'hour-25',
  'minute-60',
  'text-before',
  'text-after',
  'epoch-number',
  'words',
] as const;
const READ_FORMS: ReadonlySet<string> = new Set(['+00:00', 'offset+02:00', 'offset-05:30', 'no-zone']);

/** A timestamp `agoMs` before now written in one form, valid UTC or broken in one way. */
export function timestampOf(form: (typeof TIMESTAMP_FORMS)[number], agoMs: number): TimestampCase {
  const d = new Date(Date.now() - agoMs);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const cases: Record<(typeof TIMESTAMP_FORMS)[number], [unknown, boolean]> = {
    Z: [`${date}T${time}Z`, true],
    '+00:00': [`${date}T${time}+00:00`, true],
    'millis-Z': [d.toISOString(), true],
    'offset+02:00': [`${date}T${time}+02:00`, false],
    'offset-05:30': [`${date}T${time}-05:30`, false],
    'no-zone': [`${date}T${time}`, false],
    'date-only': [date, false],
    'month-13': [`${d.getUTCFullYear()}-13-01T${time}Z`, false],
    'feb-30': [`${d.getUTCFullYear()}-02-30T${time}Z`, false],
    'hour-25': [`${date}T25:00:00Z`, false],
    // Within the hour, so that no day rolls over: only the time fields show it.
    'minute-60': [`${date}T10:60:00Z`, false],
    'text-before': [`at ${date}T${time}Z`, false],
    'text-after': [`${date}T${time}Z today`, false],
    'epoch-number': [d.getTime(), false],
    words: ['yesterday at noon', false],
  };
  const [value, valid] = cases[form];
  return { value, valid, form, reading: READ_FORMS.has(form) ? UTC_FORMS_READING : undefined };
}

/** Timestamps within the last day, written in a valid UTC form or broken in one way. */
export function timestampCase(): fc.Arbitrary<TimestampCase> {
  return fc
    .tuple(fc.integer({ min: 60_000, max: 86_000_000 }), fc.constantFrom(...TIMESTAMP_FORMS))
    .map(([ago, form]) => timestampOf(form, ago));
}
