// Event management's field values (made in generators/ from the contract) and the rule that
// judges each: which rule a value is judged by is the suite's to say, never the value room's.
import fc from 'fast-check';
import {
  fieldTypeExamples,
  fieldTypeValue,
  timestampOf as timestampIn,
  utcTimestamp,
  valueCases,
  type FieldTypeValue,
  type UtcTimestamp,
  type UtcTimestampForm,
  type ValueCase,
} from '../../generators/index.ts';
import { SERVICE } from './em-client.ts';
import { FIELD_TYPES, STANDARD } from './em-bounds.ts';

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

/** The fields whose rules name values of a wrong type as refused (severity: not an integer; acknowledged: not a boolean). */
const WRONG_TYPES_NAMED = new Set(['severity', 'acknowledged']);

/**
 * The five standard fields from the contract's StandardEvent schema: every exact boundary on
 * both sides plus the wrong types the rules name, and an arbitrary of further values in and out
 * of range.
 */
export function standardFieldCases(): { boundaries: FieldCase[]; arbitrary: fc.Arbitrary<FieldCase> } {
  const fields = Object.keys(STANDARD_RULES).map((field) => {
    const cases = valueCases(SERVICE, STANDARD(field), field, { wrongTypes: WRONG_TYPES_NAMED.has(field) });
    const caseOf = (c: ValueCase): FieldCase => ({
      field,
      value: c.value,
      valid: c.valid,
      rule: c.valid ? STANDARD_RULES[field].ok : STANDARD_RULES[field].bad,
      what: c.what,
      reading: c.valid && c.codePoints ? CODE_POINT_READING : undefined,
    });
    return { boundaries: cases.edges.map(caseOf), arbitrary: cases.arbitrary.map(caseOf) };
  });
  return { boundaries: fields.flatMap((f) => f.boundaries), arbitrary: fc.oneof(...fields.map((f) => f.arbitrary)) };
}

/** The members of the ENUM field of the all-types event type. */
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

const customCase = (v: FieldTypeValue): FieldCase => ({
  field: customFieldName(v.type),
  value: v.value,
  valid: v.valid,
  rule: v.valid ? 'event-management/events/custom-field-value-types' : badRule(v.type),
  what: v.what,
});

/** Custom field values of each documented type: fixed examples on both sides and an arbitrary of more. */
export function customFieldCases(): { examples: FieldCase[]; arbitrary: fc.Arbitrary<FieldCase> } {
  const members = { enumValues: ENUM_VALUES };
  return {
    examples: fieldTypeExamples(FIELD_TYPES, members).map(customCase),
    arbitrary: fieldTypeValue(FIELD_TYPES, members).map(customCase),
  };
}

/** A timestamp of an event, in a UTC form or in one of the forms that are not valid UTC. */
export interface TimestampCase extends Omit<UtcTimestamp, 'formRead'> {
  /**
   * For a form whose verdict rests on our reading of "UTC timestamp" (`+00:00` is UTC; another
   * offset or no zone is not): the ID of that reading, listed with the rule in the catalog.
   */
  reading?: string;
}

/** "UTC timestamp": which written forms count as UTC is our reading where the offset is not Z. */
export const UTC_FORMS_READING = 'utc-timestamp-forms';

const withReading = ({ formRead, ...c }: UtcTimestamp): TimestampCase => ({
  ...c,
  reading: formRead ? UTC_FORMS_READING : undefined,
});

/** A timestamp `agoMs` before now written in one form, valid UTC or broken in one way. */
export const timestampOf = (form: UtcTimestampForm, agoMs: number): TimestampCase =>
  withReading(timestampIn(form, agoMs));

/** Timestamps within the last day, written in a valid UTC form or broken in one way. */
export const timestampCase = (): fc.Arbitrary<TimestampCase> => utcTimestamp().map(withReading);
