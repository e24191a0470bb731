import fc from 'fast-check';
import { boundaryValues } from './boundary-values.ts';
import { flatten, primaryType, type JsonSchema } from './json-schema.ts';
import { validValue, type ValidValueConstraints } from './valid-value.ts';

/** A request body that breaks exactly one constraint, and which one. */
export interface InvalidValue<T = unknown> {
  value: T;
  /** JSON pointer of the wrong part of the body. */
  path: string;
  /** The constraint broken: `required`, `type`, `maxLength`, `maximum`, `enum`, … */
  constraint: string;
  /** The rule this breaks, when the caller maps constraints to rule IDs. */
  rule?: string;
}

export interface InvalidValueConstraints extends ValidValueConstraints {
  /** Rule ID per `path#constraint` (or `path` for any constraint there); unmapped breaks are dropped when `onlyMapped`. */
  rules?: Record<string, string>;
  onlyMapped?: boolean;
}

function wrongType(type: string | undefined): unknown[] {
  switch (type) {
    case 'string':
      return [12345, true, { a: 1 }, ['x']];
    case 'integer':
      return ['12', 1.5, true];
    case 'number':
      return ['1.5', true];
    case 'boolean':
      return ['true', 1];
    case 'array':
      return ['x', { a: 1 }];
    case 'object':
      return ['x', 1, ['x']];
    default:
      return [];
  }
}

interface Break {
  path: string;
  constraint: string;
  apply: (valid: Record<string, unknown>) => Record<string, unknown>;
}

function setAt(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return { ...obj, [key]: value };
}

/** Every single-constraint break of an object schema's top-level properties. */
function breaks(schema: JsonSchema): Break[] {
  const s = flatten(schema);
  const out: Break[] = [];
  for (const key of s.required ?? []) {
    out.push({
      path: `/${key}`,
      constraint: 'required',
      apply: (v) => {
        const c = { ...v };
        delete c[key];
        return c;
      },
    });
  }
  for (const [key, raw] of Object.entries(s.properties ?? {})) {
    const p = flatten(raw);
    for (const b of boundaryValues(p).filter((x) => !x.valid)) {
      if (primaryType(p) === 'array' && (b.constraint === 'maxItems' || b.constraint === 'minItems')) {
        const count = b.value as number;
        out.push({
          path: `/${key}`,
          constraint: b.constraint,
          apply: (v) => {
            const arr = Array.isArray(v[key]) ? (v[key] as unknown[]) : [];
            const filler = arr[0] ?? 'x';
            return setAt(
              v,
              key,
              Array.from({ length: count }, (_, i) => arr[i] ?? filler),
            );
          },
        });
      } else {
        out.push({ path: `/${key}`, constraint: b.constraint, apply: (v) => setAt(v, key, b.value) });
      }
    }
    for (const w of wrongType(primaryType(p)).slice(0, 1))
      out.push({ path: `/${key}`, constraint: 'type', apply: (v) => setAt(v, key, w) });
  }
  return out;
}

/**
 * Object bodies that break exactly one constraint of `schema`: a valid body from
 * `validValue`, then one break applied to it, tagged with its path, constraint and rule.
 */
export function invalidValue(
  schema: JsonSchema,
  c: InvalidValueConstraints = {},
): fc.Arbitrary<InvalidValue<Record<string, unknown>>> {
  const all = breaks(schema)
    .map((b) => ({ ...b, rule: c.rules?.[`${b.path}#${b.constraint}`] ?? c.rules?.[b.path] }))
    .filter((b) => !c.onlyMapped || b.rule);
  if (all.length === 0) throw new Error('the schema has no constraint to break');
  const valid = validValue(schema, { ...c, withOptional: true }) as fc.Arbitrary<Record<string, unknown>>;
  return fc
    .tuple(valid, fc.constantFrom(...all))
    .map(([v, b]) => ({ value: b.apply(v), path: b.path, constraint: b.constraint, rule: b.rule }));
}
