/** The JSON type of a value, as a failure names it (`an array`, `null`, `a string`…). */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : t === 'undefined' ? 'absent' : `a ${t}`;
}

/** What a member must be: a JSON kind (`string`, `integer`, `object`…) or a test with the words that name it. */
export type MemberShape = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | ((v: unknown) => boolean);

const IS: Record<Exclude<MemberShape, (v: unknown) => boolean>, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  object: (v) => !!v && typeof v === 'object' && !Array.isArray(v),
  array: Array.isArray,
};

/**
 * What is wrong with each required member of `obj`, in the words of what was seen: `id absent`,
 * `etag null`, `typeId empty`, `events a string (not an object)`. A member present with the wrong
 * type is never called missing.
 */
export function memberProblems(
  obj: Record<string, unknown> | undefined,
  members: Readonly<Record<string, MemberShape | undefined>> | readonly string[],
  opts: {
    emptyText?: boolean;
    /** A member present as null counts as present, judged by its shape if it has one (the audit judges presence alone). */
    nullIsPresent?: boolean;
  } = {},
): string[] {
  const shapes: Record<string, MemberShape | undefined> = Array.isArray(members)
    ? Object.fromEntries((members as readonly string[]).map((m) => [m, undefined]))
    : (members as Record<string, MemberShape | undefined>);
  const out: string[] = [];
  for (const [name, shape] of Object.entries(shapes)) {
    const v = obj?.[name];
    if (obj === undefined || !(name in obj) || v === undefined) out.push(`${name} absent`);
    else if (v === null && !opts.nullIsPresent) out.push(`${name} null`);
    else if (opts.emptyText && v === '') out.push(`${name} empty`);
    else if (shape && !(typeof shape === 'function' ? shape(v) : IS[shape](v)))
      out.push(
        `${name} ${jsonKind(v)}${typeof shape === 'string' ? ` (not ${shape === 'integer' || shape === 'object' || shape === 'array' ? `an ${shape}` : `a ${shape}`})` : ''}`,
      );
  }
  return out;
}
