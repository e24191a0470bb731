import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import yaml from 'js-yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { contractPath } from './catalog.ts';
import { SERVICES, type ServiceName } from './services.ts';

export type OpenApiDocument = OpenAPIV3_1.Document;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Path of a service's OpenAPI document. */
export function openApiPath(service: ServiceName): string {
  return contractPath(service, 'openapi.yaml');
}

const documents = new Map<ServiceName, unknown>();

/**
 * A service's OpenAPI document as parsed YAML, `$ref`s kept: read once per process and shared by
 * every reader of the contracts' tables (bounds, scopes, operations), which must not change it.
 */
export function contractDocument(service: ServiceName): unknown {
  let doc = documents.get(service);
  if (doc === undefined) {
    doc = yaml.load(readFileSync(openApiPath(service), 'utf8'));
    documents.set(service, doc);
  }
  return doc;
}

/** Parses and validates a service's OpenAPI document; `$ref`s are kept. */
export async function loadContract(service: ServiceName): Promise<OpenApiDocument> {
  return (await SwaggerParser.validate(openApiPath(service))) as OpenApiDocument;
}

/** Parses a service's OpenAPI document with every `$ref` resolved in place. */
export async function loadDereferencedContract(service: ServiceName): Promise<OpenApiDocument> {
  return (await SwaggerParser.dereference(openApiPath(service))) as OpenApiDocument;
}

/** Every OAuth scope the contracts' security schemes name, with the service that names it. */
export function contractScopes(): Map<string, ServiceName> {
  const out = new Map<string, ServiceName>();
  for (const s of SERVICES) {
    const doc = contractDocument(s) as {
      components?: {
        securitySchemes?: Record<string, { flows?: Record<string, { scopes?: Record<string, string> }> }>;
      };
    };
    for (const scheme of Object.values(doc.components?.securitySchemes ?? {}))
      for (const flow of Object.values(scheme.flows ?? {}))
        for (const scope of Object.keys(flow.scopes ?? {})) out.set(scope, s);
  }
  return out;
}

export interface OperationRef {
  operationId: string;
  method: string;
  path: string;
  operation: OpenAPIV3_1.OperationObject;
}

/** Every operation of a contract, in document order. */
export function listOperations(doc: OpenApiDocument): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = (item as Record<string, unknown>)?.[method] as OpenAPIV3_1.OperationObject | undefined;
      if (op) out.push({ operationId: op.operationId ?? `${method} ${path}`, method, path, operation: op });
    }
  }
  return out;
}

/** A schema as the request-list walk reads it (an OpenAPI 3.1 schema, dereferenced). */
interface WalkedSchema {
  type?: string | string[];
  items?: WalkedSchema;
  properties?: Record<string, WalkedSchema>;
  oneOf?: WalkedSchema[];
  anyOf?: WalkedSchema[];
  allOf?: WalkedSchema[];
  description?: string;
  contentMediaType?: string;
}

/** A text the document describes as a list: "Comma-separated category IDs", "Semicolon-separated … addresses". */
const SEPARATED_LIST = /\b(comma|semicolon)-separated\b/i;

/**
 * Every list a request of the contract carries, as `<operationId> <where>`: an array of a JSON body
 * (`body.recipients`, `body.fields[].values`, `body` for a body that is a list) or of a multipart
 * form (`form.templateFiles`), an array inside a form field holding JSON text
 * (`form.templateInfo.templateParam`), and a parameter or field whose text is a separated list
 * (`query.categoryIds`, `body.recipientsTo`). Give it the dereferenced contract.
 */
export function requestLists(doc: OpenApiDocument): string[] {
  const out = new Set<string>();
  const components = (doc.components?.schemas ?? {}) as Record<string, WalkedSchema>;
  for (const { operationId, operation } of listOperations(doc)) {
    const walk = (schema: WalkedSchema | undefined, at: string, seen: Set<WalkedSchema>): void => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      const inner = new Set(seen).add(schema);
      for (const alt of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
        walk(alt, at, inner);
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (types.includes('array')) {
        out.add(`${operationId} ${at}`);
        walk(schema.items, `${at}[]`, inner);
      }
      if (types.includes('string') && SEPARATED_LIST.test(schema.description ?? '')) out.add(`${operationId} ${at}`);
      // A form field holding JSON text ("TemplateProcessInfo as JSON text"): the lists inside it.
      const named = /^(\w+) as JSON text/.exec(schema.description ?? '')?.[1];
      if (schema.contentMediaType === 'application/json' && named && components[named])
        walk(components[named], at, inner);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${at}.${name}`, inner);
    };
    for (const p of (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
      if (SEPARATED_LIST.test(p.description ?? '')) out.add(`${operationId} ${p.in}.${p.name}`);
    const content = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {};
    for (const [type, media] of Object.entries(content))
      walk(media.schema, type.startsWith('multipart/') ? 'form' : 'body', new Set());
  }
  return [...out].sort();
}
