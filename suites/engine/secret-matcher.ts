/**
 * Finds registered secrets in text by plain character comparison: an Aho–Corasick automaton over
 * the first KEY_LENGTH characters of each secret, then a comparison that extends each hit over as
 * much of the secret as the text holds. No regular expression is built from a secret, so nothing
 * a target sends (a token of any length, any number of them) can make matching fail, and nothing
 * it quotes can hold a secret.
 */

/** Characters of a secret the automaton holds; a hit on them is extended by comparison. */
export const KEY_LENGTH = 48;
/** Characters of a secret kept at most: beyond them an echo is redacted to the end of its token characters. */
export const MAX_SECRET_LENGTH = 64 * 1024; // not a contract bound: KiB of a secret kept
/** Shortest secret kept: shorter values would hide ordinary words. */
export const MIN_SECRET_LENGTH = 4;

// What a token is made of (base64, base64url, a JWT's dots, URL escapes): a secret kept only in
// part is redacted over these characters beyond its kept part.
const TOKEN_CHAR = /[A-Za-z0-9+/=._~%-]/;

interface Automaton {
  next: Array<Map<number, number>>;
  fail: Int32Array;
  /** The nearest node on the failure chain that ends a key (0: none). */
  dict: Int32Array;
  /** The secrets whose key ends at a node. */
  ends: Array<number[] | undefined>;
}

/** A set of secrets and the ranges of a text that hold one. */
export class SecretMatcher {
  private readonly secrets: string[] = [];
  private readonly truncated: boolean[] = [];
  private readonly seen = new Set<string>();
  private automaton?: Automaton;

  get size(): number {
    return this.secrets.length;
  }

  /** Adds a secret; false when it was known or too short. Never throws. */
  add(value: string): boolean {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    const kept = value.length > MAX_SECRET_LENGTH ? value.slice(0, MAX_SECRET_LENGTH) : value;
    if (this.seen.has(kept)) return false;
    this.seen.add(kept);
    this.secrets.push(kept);
    this.truncated.push(kept.length < value.length);
    this.automaton = undefined;
    return true;
  }

  has(value: string): boolean {
    return this.seen.has(value.length > MAX_SECRET_LENGTH ? value.slice(0, MAX_SECRET_LENGTH) : value);
  }

  /** The ranges `[start, end)` of `text` that hold a secret (or the start of one), merged and in order. */
  ranges(text: string): Array<[number, number]> {
    if (!this.secrets.length || !text) return [];
    const a = (this.automaton ??= this.build());
    const found: Array<[number, number]> = [];
    // How far the ranges found so far reach: a hit that starts before it is compared only beyond
    // it, so that a secret repeating itself (`abab…`) in a text repeating it costs linear time.
    let reach = 0;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      while (state !== 0 && !a.next[state].has(c)) state = a.fail[state];
      state = a.next[state].get(c) ?? 0;
      for (let node = a.ends[state] ? state : a.dict[state]; node !== 0; node = a.dict[node]) {
        for (const s of a.ends[node] ?? []) {
          const range = this.extent(text, s, i, reach);
          if (range[1] > reach) reach = range[1];
          found.push(range);
        }
      }
    }
    return merge(found);
  }

  /**
   * The range a hit of secret `s` whose key ends at `end` covers: as far as the text goes on
   * matching it, compared from `reach` on when the hit starts before it (what lies before is
   * redacted already).
   */
  private extent(text: string, s: number, end: number, reach: number): [number, number] {
    const secret = this.secrets[s];
    const key = Math.min(KEY_LENGTH, secret.length);
    const start = end - key + 1;
    let j = Math.max(key, Math.min(secret.length, reach - start));
    while (j < secret.length && start + j < text.length && text.charCodeAt(start + j) === secret.charCodeAt(j)) j++;
    let stop = Math.max(start + j, j === secret.length ? Math.min(reach, text.length) : 0);
    if (j === secret.length && this.truncated[s]) while (stop < text.length && TOKEN_CHAR.test(text[stop])) stop++;
    return [start, stop];
  }

  private build(): Automaton {
    const next: Array<Map<number, number>> = [new Map<number, number>()];
    const ends: Array<number[] | undefined> = [undefined];
    this.secrets.forEach((secret, s) => {
      let node = 0;
      const key = Math.min(KEY_LENGTH, secret.length);
      for (let k = 0; k < key; k++) {
        const c = secret.charCodeAt(k);
        let to = next[node].get(c);
        if (to === undefined) {
          to = next.length;
          next.push(new Map<number, number>());
          ends.push(undefined);
          next[node].set(c, to);
        }
        node = to;
      }
      (ends[node] ??= []).push(s);
    });
    const fail = new Int32Array(next.length);
    const dict = new Int32Array(next.length);
    const queue: number[] = [...next[0].values()];
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q];
      for (const [c, child] of next[node]) {
        let f = fail[node];
        while (f !== 0 && !next[f].has(c)) f = fail[f];
        const target = next[f].get(c);
        fail[child] = target !== undefined && target !== child ? target : 0;
        dict[child] = ends[fail[child]] ? fail[child] : dict[fail[child]];
        queue.push(child);
      }
    }
    return { next, fail, dict, ends };
  }
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  if (ranges.length < 2) return ranges;
  ranges.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  const out: Array<[number, number]> = [ranges[0]];
  for (const r of ranges.slice(1)) {
    const last = out[out.length - 1];
    if (r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}
