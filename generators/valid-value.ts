import fc from 'fast-check';
import { flatten, primaryType, type JsonSchema } from './json-schema.ts';

export interface ValidValueConstraints {
  /** Also generate the optional properties of objects (default true). */
  withOptional?: boolean;
  /** Longest string generated where the schema sets no maxLength (default 24). */
  defaultMaxLength?: number;
  /** Overrides by property path (`/a/b`): the arbitrary to use there instead of the schema's. */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('');

/** Alphanumeric strings of a length range, built from characters so shrinking keeps working. */
export function alphanumeric(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...ALNUM), { minLength, maxLength }).map((cs) => cs.join(''));
}

function formatted(format: string): fc.Arbitrary<unknown> | undefined {
  switch (format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.tuple(alphanumeric(1, 12), alphanumeric(1, 10)).map(([a, b]) => `${a}@${b}.example.com`);
    case 'uri':
      return alphanumeric(1, 12).map((p) => `https://example.com/${p}`);
    default:
      return undefined;
  }
}

/** Values that conform to `schema`. */
export function validValue(schema: JsonSchema, c: ValidValueConstraints = {}, path = ''): fc.Arbitrary<unknown> {
  const over = c.overrides?.[path];
  if (over) return over;
  const s = flatten(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (s.oneOf?.length) return fc.oneof(...s.oneOf.map((o) => validValue(o, c, path)));
  if (s.anyOf?.length) return fc.oneof(...s.anyOf.map((o) => validValue(o, c, path)));
  switch (primaryType(s)) {
    case 'string': {
      const f = s.format ? formatted(s.format) : undefined;
      if (f) return f;
      const min = s.minLength ?? 0;
      const max = Math.max(min, Math.min(s.maxLength ?? c.defaultMaxLength ?? 24, 64));
      return alphanumeric(min, max);
    }
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1000);
      return fc.integer({ min, max });
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? 3, 5));
      const item = validValue(s.items ?? {}, c, `${path}/items`);
      return s.uniqueItems
        ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength: min, maxLength: max });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) {
        if (v['x-read-only'] || (v as { readOnly?: boolean }).readOnly) continue;
        if (!required.has(k) && c.withOptional === false) continue;
        model[k] = validValue(v, c, `${path}/${k}`);
      }
      return fc.record(model, {
        requiredKeys: Object.keys(model).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}
