/**
 * Records in an answer whose own text (any string field, or a string in an array field)
 * carries a leftover prefix, with the first of `idKeys` they have. Best effort by design: it
 * reads list answers whose structure the documents do not show.
 */
export function leftoverRecords(
  json: unknown,
  idKeys: readonly string[],
  isLeftover: (s: unknown) => boolean,
): Array<string | number> {
  const out: Array<string | number> = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 6 || !v || typeof v !== 'object') return; // not a contract bound: how deep a record is searched
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const rec = v as Record<string, unknown>;
    const key = idKeys.find((k) => typeof rec[k] === 'number' || typeof rec[k] === 'string');
    const texts = Object.values(rec).flatMap((x) =>
      typeof x === 'string'
        ? [x]
        : Array.isArray(x)
          ? x.flatMap((y) =>
              typeof y === 'string'
                ? [y]
                : y && typeof y === 'object'
                  ? Object.values(y).filter((z) => typeof z === 'string')
                  : [],
            )
          : [],
    );
    if (key && texts.some(isLeftover)) out.push(rec[key] as string | number);
    else for (const x of Object.values(rec)) visit(x, depth + 1);
  };
  visit(json, 0);
  return [...new Set(out)];
}
