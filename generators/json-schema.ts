/** The subset of JSON Schema (OpenAPI 3.1) the generators understand. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  [k: `x-${string}`]: unknown;
}

/** The primary type of a schema ('string' for ['string','null']). */
export function primaryType(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  if (s.enum?.length) return typeof s.enum[0];
  return undefined;
}

/** Merges `allOf` members into one schema (properties and required are united). */
export function flatten(s: JsonSchema): JsonSchema {
  if (!s.allOf) return s;
  const parts = s.allOf.map(flatten);
  const out: JsonSchema = { ...s, allOf: undefined };
  for (const p of parts) {
    Object.assign(out, { ...p, properties: { ...(out.properties ?? {}), ...(p.properties ?? {}) } });
    out.required = [...new Set([...(out.required ?? []), ...(p.required ?? [])])];
  }
  return out;
}
