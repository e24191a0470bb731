import fc from 'fast-check';

/**
 * A request list of valid items with bad ones among them, and where each bad one stands: a rule
 * about every item of a list holds only if a bad item is refused wherever it is, so a check
 * applied to some items only (the first, the last) meets a bad item it does not read.
 */
export interface ListWithBadItems<V = unknown, B = unknown> {
  /** The rule the bad items break. */
  rule: string;
  /** The list as it is sent. */
  items: Array<V | B>;
  /** Each bad item: its index in `items` and its kind (the name the constraints give it). */
  bad: Array<{ index: number; kind: string }>;
}

export interface ListWithBadItemsConstraints<V, B> {
  /** The rule the bad items break, written in full (the suite's list-rule test finds it here). */
  rule: string;
  /**
   * Valid items to place around the bad ones, all different: an ordered choice of them is taken.
   * None where every item is one the rule is about (each listed item acted on): give `maxBad`.
   */
  valid: readonly V[];
  /** Every kind of bad item the documents name for the list, by a name saying what it is. */
  bad: Readonly<Record<string, B>>;
  /** Most items in the list, bad ones included (the contract's maxItems). Default: every valid item and `maxBad`. */
  maxLength?: number;
  /** Most bad items in one list: more than one where the rule is about each item. Default 1. */
  maxBad?: number;
  /** Fewest valid items in the list. Default 0. */
  minValid?: number;
}

/** The lists each arbitrary made here always tries first (`examplesOf`). */
const EXAMPLES = new WeakMap<fc.Arbitrary<unknown>, readonly unknown[]>();

/** Puts the bad items into a list of valid ones, each at its index (an index past the end is the end). */
function assemble<V, B>(
  rule: string,
  valid: readonly V[],
  bad: ReadonlyArray<{ kind: string; item: B; at: number }>,
): ListWithBadItems<V, B> {
  const items: Array<{ item: V | B; kind?: string }> = valid.map((item) => ({ item }));
  for (const b of bad) items.splice(Math.min(b.at, items.length), 0, { item: b.item, kind: b.kind });
  return {
    rule,
    items: items.map((x) => x.item),
    bad: items.flatMap((x, index) => (x.kind === undefined ? [] : [{ index, kind: x.kind }])),
  };
}

/**
 * Lists with one bad item (up to `maxBad`) at a generated position among valid ones, shrinking to
 * the shortest list that still fails. Every kind of bad item is also tried first, in the middle and
 * last of the shortest lists that put it there (`examplesOf`), so a check that reads only some
 * items is met on every run, whatever the seed.
 */
export function listWithBadItems<V, B>(c: ListWithBadItemsConstraints<V, B>): fc.Arbitrary<ListWithBadItems<V, B>> {
  const kinds = Object.keys(c.bad);
  if (!kinds.length) throw new Error(`listWithBadItems for ${c.rule}: no kind of bad item`);
  const maxBad = c.maxBad ?? 1;
  const maxLength = c.maxLength ?? c.valid.length + maxBad;
  const maxValid = Math.min(c.valid.length, maxLength - 1);
  const minValid = Math.min(c.minValid ?? 0, maxValid);
  const arb = fc
    .record({
      valid: fc.shuffledSubarray([...c.valid], { minLength: minValid, maxLength: maxValid }),
      bad: fc.array(fc.record({ kind: fc.constantFrom(...kinds), at: fc.nat({ max: maxLength }) }), {
        minLength: 1,
        maxLength: maxBad,
      }),
    })
    .map(({ valid, bad }) => {
      const room = Math.max(1, maxLength - valid.length);
      return assemble(
        c.rule,
        valid,
        bad.slice(0, room).map((b) => ({ ...b, item: c.bad[b.kind] })),
      );
    });
  EXAMPLES.set(arb, cornerLists(c, kinds, maxLength, maxBad));
  return arb;
}

/** Each kind first, in the middle and last of the shortest lists that put it there (and, for several, first and last at once). */
function cornerLists<V, B>(
  c: ListWithBadItemsConstraints<V, B>,
  kinds: string[],
  maxLength: number,
  maxBad: number,
): ListWithBadItems<V, B>[] {
  const [v0, v1] = c.valid;
  const one = (kind: string, valid: V[], at: number) => assemble(c.rule, valid, [{ kind, item: c.bad[kind], at }]);
  const out: ListWithBadItems<V, B>[] = [];
  if (c.valid.length === 0) {
    // Every item is one the rule is about (each listed item acted on): one, then several.
    for (let n = 1; n <= Math.min(maxBad, maxLength, 3); n++)
      out.push(
        assemble(
          c.rule,
          [],
          Array.from({ length: n }, (_, i) => ({
            kind: kinds[i % kinds.length],
            item: c.bad[kinds[i % kinds.length]],
            at: i,
          })),
        ),
      );
    return out;
  }
  for (const kind of kinds) {
    if (maxLength < 2) {
      out.push(one(kind, [], 0));
      continue;
    }
    out.push(one(kind, [v0], 0), one(kind, [v0], 1));
    if (c.valid.length >= 2 && maxLength >= 3) out.push(one(kind, [v0, v1], 1));
  }
  if (maxBad > 1 && c.valid.length >= 1 && maxLength >= 3) {
    const [first, last] = [kinds[0], kinds[kinds.length - 1]];
    out.push(
      assemble(
        c.rule,
        [v0],
        [
          { kind: first, item: c.bad[first], at: 0 },
          { kind: last, item: c.bad[last], at: 2 },
        ],
      ),
    );
  }
  return out;
}

/** The lists an arbitrary of `listWithBadItems` tries before any it generates (none for another arbitrary). */
export function examplesOf<T>(arb: fc.Arbitrary<T>): readonly T[] {
  return (EXAMPLES.get(arb) ?? []) as readonly T[];
}

/** Where the bad items of a list stand, in words: `a tenant not provisioned (item 2 of 3)`. */
export function badItemsText(list: Pick<ListWithBadItems, 'items' | 'bad'>): string {
  const n = list.items.length;
  return list.bad.map((b) => `${b.kind} (item ${b.index + 1} of ${n})`).join(', ');
}
