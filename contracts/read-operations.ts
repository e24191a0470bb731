import { contractDocument } from './contract.ts';
import { SERVICE_INFO, SERVICES, type ServiceName } from './services.ts';

/**
 * The operations that cannot change a target whatever it does with them: every GET and HEAD,
 * and the documented reads that use POST (the token operations and the searches), which the
 * contracts mark `x-read-only: true`. This is the one list the read-only profile may send.
 */
export interface ReadOperation {
  service: ServiceName;
  operationId: string;
  method: string;
  /** The contract's path template with the service's base path, e.g. `/api/notification/v3/recipient/search`. */
  path: string;
}

const READ_METHODS = new Set(['get', 'head']);

interface RawContract {
  paths?: Record<string, Record<string, { operationId?: string; 'x-read-only'?: boolean } | undefined>>;
}

let cached: { operations: ReadOperation[]; patterns: Array<{ op: ReadOperation; re: RegExp }> } | undefined;

function load(): NonNullable<typeof cached> {
  if (cached) return cached;
  const operations: ReadOperation[] = [];
  for (const service of SERVICES) {
    const doc = contractDocument(service) as RawContract;
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== 'object' || !op.operationId) continue;
        if (READ_METHODS.has(method) || op['x-read-only'] === true) {
          operations.push({
            service,
            operationId: op.operationId,
            method: method.toUpperCase(),
            path: `${SERVICE_INFO[service].basePath}${path}`,
          });
        }
      }
    }
  }
  const patterns = operations.map((op) => ({ op, re: templateRegex(op.path) }));
  cached = { operations, patterns };
  return cached;
}

/** A path template as a regular expression: `{x}` matches one non-empty segment; a trailing slash is optional. */
function templateRegex(template: string): RegExp {
  const body = template
    .replace(/\/+$/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}

/** Every read operation of the three contracts, in contract order. */
export function readOperations(): readonly ReadOperation[] {
  return load().operations;
}

/**
 * Why a request may be sent by the read-only profile (`GET`, `HEAD`, or the POST read it is), or
 * `undefined` when it could change the target. `path` is the request's path from the origin, without query.
 */
export function readOperationOf(method: string, path: string): string | undefined {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return m;
  const clean = path.split('?')[0];
  return load().patterns.find(({ op, re }) => op.method === m && re.test(clean))?.op.operationId;
}
