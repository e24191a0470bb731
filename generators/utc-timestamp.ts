import fc from 'fast-check';

/** A timestamp in a UTC form or in one of the forms that are not valid UTC. */
export interface UtcTimestamp {
  value: unknown;
  valid: boolean;
  form: UtcTimestampForm;
  /**
   * The verdict rests on which written forms count as "UTC timestamp" (`+00:00` is UTC; another
   * offset or no zone is not), a reading where the offset is not Z.
   */
  formRead?: boolean;
}

/** Options of `utcTimestamp`. */
export interface UtcTimestampConstraints {
  /** How long before now the timestamps lie, in milliseconds (default: from a minute to a day). */
  minAgoMs?: number;
  maxAgoMs?: number;
}

export const UTC_TIMESTAMP_FORMS = [
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
export type UtcTimestampForm = (typeof UTC_TIMESTAMP_FORMS)[number];
const READ_FORMS: ReadonlySet<string> = new Set(['+00:00', 'offset+02:00', 'offset-05:30', 'no-zone']);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A timestamp `agoMs` before now written in one form, valid UTC or broken in one way. */
export function timestampOf(form: UtcTimestampForm, agoMs: number): UtcTimestamp {
  const d = new Date(Date.now() - agoMs);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const cases: Record<UtcTimestampForm, [unknown, boolean]> = {
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
  return { value, valid, form, ...(READ_FORMS.has(form) ? { formRead: true } : {}) };
}

/** Timestamps before now, written in a valid UTC form or broken in one way. */
export function utcTimestamp(c: UtcTimestampConstraints = {}): fc.Arbitrary<UtcTimestamp> {
  return fc
    .tuple(
      fc.integer({ min: c.minAgoMs ?? 60_000, max: c.maxAgoMs ?? 86_000_000 }),
      fc.constantFrom(...UTC_TIMESTAMP_FORMS),
    )
    .map(([ago, form]) => timestampOf(form, ago));
}
