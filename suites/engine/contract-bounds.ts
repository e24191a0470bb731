import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { openApiPath } from '../../contracts/contract.ts';
import type { ServiceName } from '../../contracts/services.ts';
import { boundaryValues, type BoundaryValue, type JsonSchema } from '../../generators/index.ts';

/** A JSON pointer into a service's OpenAPI document (`#/components/schemas/EventType/properties/name`). */
export type ContractPointer = `#/${string}`;

type NumericKeyword = 'maxLength' | 'minLength' | 'maximum' | 'minimum' | 'maxItems' | 'minItems';

const documents = new Map<ServiceName, unknown>();

function documentOf(service: ServiceName): unknown {
  let doc = documents.get(service);
  if (doc === undefined) {
    doc = yaml.load(readFileSync(openApiPath(service), 'utf8'));
    documents.set(service, doc);
  }
  return doc;
}

/** The schema at `pointer` in a service's contract, following `$ref`s on the way. */
export function contractSchema(service: ServiceName, pointer: ContractPointer): JsonSchema {
  const doc = documentOf(service);
  const follow = (node: unknown): unknown => {
    for (let hops = 0; node && typeof node === 'object' && '$ref' in node && hops < 10; hops++)
      node = resolve(String(node.$ref));
    return node;
  };
  const resolve = (p: string): unknown => {
    let node: unknown = doc;
    for (const raw of p.replace(/^#\//, '').split('/')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = follow(node);
      if (!node || typeof node !== 'object' || !(part in node))
        throw new Error(`the ${service} contract has no ${p} (at "${part}")`);
      node = (node as Record<string, unknown>)[part];
    }
    return follow(node);
  };
  return resolve(pointer) as JsonSchema;
}

/**
 * A bound the contract states (a length, a range, a count): the suites take every bound they test
 * from here, so that the contract and the tests cannot disagree.
 */
export function contractBound(service: ServiceName, pointer: ContractPointer, keyword: NumericKeyword): number {
  const value = contractSchema(service, pointer)[keyword];
  if (typeof value !== 'number') throw new Error(`the ${service} contract gives ${pointer} no ${keyword}`);
  return value;
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
      const n = [...b.value].length;
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
