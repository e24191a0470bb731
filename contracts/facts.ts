import { contractDocument, HTTP_METHODS } from './contract.ts';
import type { ServiceName } from './services.ts';

/**
 * Contract facts: the numbers the OpenAPI documents state (a length, a range, a count, a paging
 * parameter's maximum and default), answered by pointer, by operation and parameter, or by request
 * body list, so that no other room types them again.
 */

/** A JSON pointer into a service's OpenAPI document (`#/components/schemas/EventType/properties/name`). */
export type ContractPointer = `#/${string}`;

/** The keywords by which a contract states a numeric bound. */
export const BOUND_KEYWORDS = [
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxItems',
  'minItems',
] as const;
export type BoundKeyword = (typeof BOUND_KEYWORDS)[number];
/**
 * A bound, the numeric default a schema states, or a number the contract gives in an `x-`
 * extension (a bound the document states that no OpenAPI keyword carries).
 */
export type FactKeyword = BoundKeyword | 'default' | `x-${string}`;

/** A schema node as the YAML gives it (the generators type it further). */
export type ContractNode = Record<string, unknown>;

const isNode = (v: unknown): v is ContractNode => !!v && typeof v === 'object';

/** Follows `$ref`s from `node` to what they name. */
function follow(service: ServiceName, node: unknown): unknown {
  for (let hops = 0; isNode(node) && '$ref' in node && hops < 10; hops++)
    node = contractNode(service, String(node.$ref) as ContractPointer);
  return node;
}

/** The node at `pointer` in a service's contract, following `$ref`s on the way. */
export function contractNode(service: ServiceName, pointer: ContractPointer): ContractNode {
  let node: unknown = contractDocument(service);
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = follow(service, node);
    if (!isNode(node) || !(part in node)) throw new Error(`the ${service} contract has no ${pointer} (at "${part}")`);
    node = node[part];
  }
  node = follow(service, node);
  if (!isNode(node)) throw new Error(`the ${service} contract has no object at ${pointer}`);
  return node;
}

function numberAt(service: ServiceName, node: ContractNode, keyword: string, where: string): number {
  const value = node[keyword];
  if (typeof value !== 'number') throw new Error(`the ${service} contract gives ${where} no ${keyword}`);
  return value;
}

/**
 * A bound the contract states at `pointer` (a length, a range, a count, or a numeric default): the
 * suites take every bound they test from here, so that the contract and the tests cannot disagree.
 */
export function contractBound(service: ServiceName, pointer: ContractPointer, keyword: FactKeyword): number {
  return numberAt(service, contractNode(service, pointer), keyword, pointer);
}

/** Every operation of a service's contract with its path item, in the order the contract lists them. */
function operations(service: ServiceName): Array<{ op: ContractNode; item: ContractNode }> {
  return Object.values(contractNode(service, '#/paths'))
    .filter(isNode)
    .flatMap((item) => HTTP_METHODS.map((method) => item[method]).flatMap((op) => (isNode(op) ? [{ op, item }] : [])));
}

/** The operation IDs of a service's contract, in the order it lists them. */
export function operationIds(service: ServiceName): string[] {
  return operations(service).map(({ op }) => String(op.operationId));
}

/** The operation named `operationId`, with the parameters of its path item before its own. */
function operation(service: ServiceName, operationId: string): { op: ContractNode; parameters: ContractNode[] } {
  const found = operations(service).find(({ op }) => op.operationId === operationId);
  if (!found) throw new Error(`the ${service} contract has no operation ${operationId}`);
  const { op, item } = found;
  const listed = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
  return { op, parameters: listed.map((p) => follow(service, p)).filter(isNode) };
}

/** A numeric fact of a parameter's schema: `parameterBound('event-management', 'queryEvents', 'size', 'maximum')`. */
export function parameterBound(service: ServiceName, operationId: string, name: string, keyword: FactKeyword): number {
  const { parameters } = operation(service, operationId);
  // The operation's own parameter overrides one of the same name on its path item.
  const parameter = parameters.filter((p) => p.name === name).at(-1);
  if (!parameter) throw new Error(`the ${service} contract gives ${operationId} no parameter ${name}`);
  const schema = follow(service, parameter.schema);
  if (!isNode(schema)) throw new Error(`the ${service} contract gives ${operationId} ${name} no schema`);
  return numberAt(service, schema, keyword, `${operationId} ${name}`);
}

/**
 * A count bound of a list in an operation's request body: the body itself when it is a list, else
 * its member `property` (`bodyListBound('event-management', 'createEventsJob', 'maxItems', 'events')`).
 */
export function bodyListBound(
  service: ServiceName,
  operationId: string,
  keyword: 'maxItems' | 'minItems',
  property?: string,
): number {
  const { op } = operation(service, operationId);
  const content = (follow(service, op.requestBody) as ContractNode | undefined)?.content;
  const media = isNode(content) ? Object.values(content).find(isNode) : undefined;
  let schema = follow(service, media?.schema);
  if (property !== undefined)
    schema = isNode(schema) ? follow(service, (schema.properties as ContractNode)?.[property]) : undefined;
  if (!isNode(schema))
    throw new Error(`the ${service} contract gives ${operationId} no request body list ${property ?? ''}`.trim());
  return numberAt(service, schema, keyword, `${operationId} ${property ?? 'body'}`);
}

/** The members the contract's schema at `schema` requires (its `required` list). */
export function requiredMembers(service: ServiceName, schema: ContractPointer): string[] {
  const required = contractNode(service, schema).required;
  if (!Array.isArray(required)) throw new Error(`the ${service} contract gives ${schema} no required list`);
  return required.map(String);
}

/**
 * The scopes the contract's `security` lists for an operation, in the order it lists them (the
 * order of the document's Authentication table): `operationScopes('event-management',
 * 'createEvent')` is `['em.c', 'em.et.r']`. An operation without its own `security` has the
 * document's.
 */
export function operationScopes(service: ServiceName, operationId: string): string[] {
  const { op } = operation(service, operationId);
  const security = op.security ?? (contractDocument(service) as ContractNode).security;
  if (!Array.isArray(security)) throw new Error(`the ${service} contract gives ${operationId} no security`);
  return security.flatMap((requirement: unknown) =>
    isNode(requirement)
      ? Object.values(requirement).flatMap((scopes) => (Array.isArray(scopes) ? scopes.map(String) : []))
      : [],
  );
}

/**
 * The scopes of an event management operation whose absence its scope rule judges: the first the
 * contract lists, and a job operation's own create scope (the catalog: "without em.d or without
 * em.dej.c"). Where an operation lists several scopes, the document leaves open whether all are
 * needed or any one suffices: the others (the event type scope an event operation also lists) are
 * not judged by the rule.
 */
export function judgedScopes(operationId: string): string[] {
  return operationScopes('event-management', operationId).filter((s, i) => i === 0 || /^em\.(dej|cej)\.c$/.test(s));
}
