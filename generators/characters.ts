/** Length in Unicode code points (how the documents' "characters" are read, as JSON Schema's maxLength counts). */
export const characters = (s: string): number => [...s].length;

/** How a value is named in a check's title: a long string by its length (and its first character beyond ASCII). */
export const describeValue = (v: unknown): string =>
  // not a contract bound: a longer string is described by its length
  typeof v === 'string' && characters(v) > 20
    ? `a string of ${characters(v)} characters${/[^ -~]/.test(v) ? ` (${JSON.stringify([...v][0])}…)` : ''}`
    : JSON.stringify(v);
