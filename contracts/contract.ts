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
    const doc = yaml.load(readFileSync(openApiPath(s), 'utf8')) as {
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
