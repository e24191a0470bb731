import { contractNode, type BoundKeyword, type ContractPointer } from '../contracts/facts.ts';
import type { ServiceName } from '../contracts/services.ts';
import { boundaryValues, type BoundaryValue } from './boundary-values.ts';
import { characters } from './characters.ts';
import type { JsonSchema } from './json-schema.ts';

type NumericKeyword = Exclude<BoundKeyword, 'exclusiveMaximum' | 'exclusiveMinimum'>;

/** The schema at `pointer` in a service's contract, following `$ref`s on the way. */
export function contractSchema(service: ServiceName, pointer: ContractPointer): JsonSchema {
  return contractNode(service, pointer);
}

/** One case of a boundary: a value at or just beyond a bound, and whether the contract takes it. */
export interface BoundaryCase extends BoundaryValue {
  /** How the case is named in a check's title (`a name of 64 characters`). */
  what: string;
  /**
   * The value counts its length in characters that are more than one UTF-16 unit (😀): taken or
   * refused as the document counts "characters" in code points, which is our reading.
   */
  codePoints?: boolean;
}

/**
 * The cases at a bound of the schema at `pointer`: at the limit (taken) and one beyond (refused),
 * for a string's `maxLength` also both in a two-byte (é) and a four-byte (😀) character, so that a
 * deployment counting bytes or UTF-16 units is seen. `keyword` picks one bound (default: every
 * bound the schema has). `fill` builds a string of `n` characters from a run-unique stem.
 */
export function boundaryCases(
  service: ServiceName,
  pointer: ContractPointer,
  what: string,
  o: {
    keyword?: NumericKeyword;
    fill?: (n: number, ch: string) => string;
    /** The characters beyond ASCII to try at a maxLength (none where the contract allows only ASCII). */
    wide?: readonly string[];
  } = {},
): BoundaryCase[] {
  const schema = contractSchema(service, pointer);
  const fill = o.fill ?? ((n: number, ch: string) => ch.repeat(n));
  const out: BoundaryCase[] = [];
  for (const b of boundaryValues(schema)) {
    if (o.keyword && b.constraint !== o.keyword) continue;
    if (b.constraint === 'enum') continue;
    if (typeof b.value === 'string') {
      const n = characters(b.value);
      out.push({ ...b, value: fill(n, 'x'), what: `${what} of ${n} characters` });
      if (b.constraint === 'maxLength')
        for (const ch of o.wide ?? ['é', '😀'])
          out.push({
            ...b,
            value: fill(n, ch),
            what: `${what} of ${n} characters (${ch}…)`,
            ...(ch === '😀' ? { codePoints: true } : {}),
          });
    } else out.push({ ...b, what: `${what} ${String(b.value)}` });
  }
  if (!out.length)
    throw new Error(`the ${service} contract gives ${pointer} no bound${o.keyword ? ` ${o.keyword}` : ''}`);
  return out;
}
