import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { listOperations, loadDereferencedContract, type OpenApiDocument } from '../../contracts/contract.ts';
import type { ServiceName } from '../../contracts/services.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
for (const f of ['int32', 'int64']) ajv.addFormat(f, { type: 'number', validate: (n: number) => Number.isInteger(n) });
for (const f of ['float', 'double']) ajv.addFormat(f, { type: 'number', validate: () => true });

const contracts = new Map<ServiceName, Promise<OpenApiDocument>>();
const validators = new Map<string, ValidateFunction | null>();

/** The dereferenced contract of a service, loaded once per process. */
export function contractOf(service: ServiceName): Promise<OpenApiDocument> {
  let p = contracts.get(service);
  if (!p) contracts.set(service, (p = loadDereferencedContract(service)));
  return p;
}

type MediaMap = Record<string, { schema?: object }>;

/**
 * The validator of an operation's documented response body for a status and media type, or
 * null when the contract documents no body for it. Compiled once.
 */
export async function responseValidator(
  service: ServiceName,
  operationId: string,
  status: number,
  mediaType?: string,
): Promise<{ validate: ValidateFunction; mediaTypes: string[] } | null> {
  const doc = await contractOf(service);
  const op = listOperations(doc).find((o) => o.operationId === operationId);
  if (!op) throw new Error(`${service} contract has no operation ${operationId}`);
  const responses = op.operation.responses as Record<string, { content?: MediaMap }>;
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  const content = response?.content;
  if (!content) return null;
  const mediaTypes = Object.keys(content);
  const chosen = mediaType && content[mediaType] ? mediaType : mediaTypes[0];
  const schema = content[chosen]?.schema;
  if (!schema) return null;
  const key = `${service}|${operationId}|${status}|${chosen}`;
  let v = validators.get(key);
  if (v === undefined) {
    v = ajv.compile(schema);
    validators.set(key, v);
  }
  return v ? { validate: v, mediaTypes } : null;
}

/** The validator of a named component schema of a service's contract. */
export async function componentValidator(service: ServiceName, name: string): Promise<ValidateFunction> {
  const key = `${service}|#/components/schemas/${name}`;
  const hit = validators.get(key);
  if (hit) return hit;
  const doc = await contractOf(service);
  const schema = doc.components?.schemas?.[name];
  if (!schema) throw new Error(`${service} contract has no schema ${name}`);
  const v = ajv.compile(schema as object);
  validators.set(key, v);
  return v;
}

/** Ajv's errors as one short line. */
export function schemaErrors(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 5) // not a contract bound: schema errors shown
    .map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`,
    )
    .join('; ');
}
