import { flatten, primaryType, type JsonSchema } from './json-schema.ts';

/** A value at the edge of a constraint, on its valid or its invalid side. */
export interface BoundaryValue {
  /** Which constraint the value sits on (`maxLength`, `minimum`, `enum`…). */
  constraint: string;
  value: unknown;
  valid: boolean;
}

function str(n: number, ch = 'a'): string {
  return ch.repeat(Math.max(0, n));
}

/**
 * The exact boundaries of one schema's constraints: a string of maxLength is valid and one
 * character more is not; minimum and maximum are valid and one step outside is not.
 */
export function boundaryValues(schema: JsonSchema): BoundaryValue[] {
  const s = flatten(schema);
  const out: BoundaryValue[] = [];
  const type = primaryType(s);
  if (type === 'string' && !s.format && !s.enum) {
    if (s.maxLength !== undefined) {
      out.push({ constraint: 'maxLength', value: str(s.maxLength), valid: true });
      out.push({ constraint: 'maxLength', value: str(s.maxLength + 1), valid: false });
    }
    if (s.minLength !== undefined && s.minLength > 0) {
      out.push({ constraint: 'minLength', value: str(s.minLength), valid: true });
      out.push({ constraint: 'minLength', value: str(s.minLength - 1), valid: false });
    }
  }
  if (type === 'integer' || type === 'number') {
    const step = type === 'integer' ? 1 : 0.5;
    if (s.minimum !== undefined) {
      out.push({ constraint: 'minimum', value: s.minimum, valid: true });
      out.push({ constraint: 'minimum', value: s.minimum - step, valid: false });
    }
    if (s.maximum !== undefined) {
      out.push({ constraint: 'maximum', value: s.maximum, valid: true });
      out.push({ constraint: 'maximum', value: s.maximum + step, valid: false });
    }
  }
  if (type === 'array') {
    if (s.maxItems !== undefined) {
      out.push({ constraint: 'maxItems', value: s.maxItems, valid: true });
      out.push({ constraint: 'maxItems', value: s.maxItems + 1, valid: false });
    }
    if (s.minItems !== undefined && s.minItems > 0) {
      out.push({ constraint: 'minItems', value: s.minItems, valid: true });
      out.push({ constraint: 'minItems', value: s.minItems - 1, valid: false });
    }
  }
  if (s.enum?.length) {
    for (const v of s.enum) out.push({ constraint: 'enum', value: v, valid: true });
    if (typeof s.enum[0] === 'number') {
      const nums = s.enum as number[];
      for (const v of new Set([Math.min(...nums) - 1, ...nums.map((n) => n + 1).filter((n) => !nums.includes(n))])) {
        out.push({ constraint: 'enum', value: v, valid: false });
      }
    } else {
      out.push({ constraint: 'enum', value: `${String(s.enum[0])}X`, valid: false });
    }
  }
  return out;
}
