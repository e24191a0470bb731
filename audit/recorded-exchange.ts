import { contractDocument } from '../contracts/contract.ts';
import { SERVICE_INFO, SERVICES, type ServiceName } from '../contracts/services.ts';
import { claimsOfAuthorization, type HarEntry } from '../suites/engine/har.ts';
import type { HttpResponse } from '../suites/engine/http-client.ts';

/** One operation of a contract: where it lives and the scopes it asks for (alternatives, each a set). */
export interface ContractOperation {
  service: ServiceName;
  operationId: string;
  method: string;
  template: string;
  re: RegExp;
  params: string[];
  security: string[][];
}

/** One recorded request and response, with what the contracts say it was. */
export interface RecordedExchange {
  index: number;
  service?: ServiceName;
  op?: ContractOperation;
  method: string;
  /** Path from the origin, without the query. */
  path: string;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** Media type without parameters, lower-case. */
  contentType: string;
  text: string;
  json: unknown;
  truncated: boolean;
  /** The bearer token's claims (undefined: no bearer token, or one whose claims cannot be read). */
  claims?: Record<string, unknown>;
  /** Scopes of the token, or undefined when unknown. */
  scopes?: Set<string>;
  hasAuthorization: boolean;
  startedAt: number;
  endedAt: number;
  testName?: string;
  error?: string;
}

interface RawOperation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
}

let operations: ContractOperation[] | undefined;

/** Every operation of the three contracts with its path pattern and scopes. */
export function contractOperations(): ContractOperation[] {
  if (operations) return operations;
  operations = [];
  for (const service of SERVICES) {
    const doc = contractDocument(service) as {
      paths?: Record<string, Record<string, RawOperation>>;
      security?: Array<Record<string, string[]>>;
    };
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== 'object' || !op.operationId) continue;
        const template = `${SERVICE_INFO[service].basePath}${path}`;
        const params: string[] = [];
        const body = template
          .replace(/\/+$/, '')
          .split(/(\{[^}]+\})/)
          .map((part) => {
            if (!part.startsWith('{')) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
            params.push(part.slice(1, -1));
            return '([^/]+)';
          })
          .join('');
        const security = (op.security ?? doc.security ?? []).map((alt) => Object.values(alt).flat());
        operations.push({
          service,
          operationId: op.operationId,
          method: method.toUpperCase(),
          template,
          re: new RegExp(`^${body}/?$`),
          params,
          security,
        });
      }
    }
  }
  // Literal paths before templated ones (`/bouncedEmailIds` before `/{id}`).
  operations.sort((a, b) => a.params.length - b.params.length);
  return operations;
}

function headerMap(list: ReadonlyArray<{ name: string; value: string }> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list ?? []) {
    const k = h.name.toLowerCase();
    out[k] = out[k] !== undefined ? `${out[k]}, ${h.value}` : h.value;
  }
  return out;
}

/** A HAR entry as a recorded exchange: its service and operation, its token's scopes, its parsed body. */
export function recordedExchange(entry: HarEntry, index: number): RecordedExchange {
  const url = new URL(entry.request.url);
  const method = entry.request.method.toUpperCase();
  const path = decodeURI(url.pathname);
  let op: ContractOperation | undefined;
  let pathParams: Record<string, string> = {};
  for (const o of contractOperations()) {
    if (o.method !== method) continue;
    const m = o.re.exec(path);
    if (!m) continue;
    op = o;
    pathParams = Object.fromEntries(o.params.map((p, i) => [p, m[i + 1]]));
    break;
  }
  const service = op?.service ?? SERVICES.find((s) => path.startsWith(`${SERVICE_INFO[s].basePath}/`));
  const requestHeaders = headerMap(entry.request.headers);
  const responseHeaders = headerMap(entry.response.headers);
  const text = entry.response.content.text ?? '';
  const truncated = !!entry._truncated && /…\(\d+ bytes\)$/.test(text);
  let json: unknown;
  if (text.trim() && !truncated) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const claims = claimsOfAuthorization(requestHeaders.authorization);
  const rawScope = claims?.scope ?? claims?.scp;
  const scopes = Array.isArray(rawScope)
    ? new Set(rawScope.map(String))
    : typeof rawScope === 'string'
      ? new Set(rawScope.split(/\s+/).filter(Boolean))
      : undefined;
  const startedAt =
    typeof entry._startedAt === 'number' && Number.isFinite(entry._startedAt)
      ? entry._startedAt
      : Date.parse(entry.startedDateTime);
  return {
    index,
    service,
    op,
    method,
    path,
    pathParams,
    query: url.searchParams,
    requestHeaders,
    requestBody: entry.request.postData?.text,
    status: entry.response.status,
    responseHeaders,
    contentType: (responseHeaders['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
    text,
    json,
    truncated,
    claims,
    scopes,
    hasAuthorization: requestHeaders.authorization !== undefined,
    startedAt,
    endedAt: startedAt + (entry.time > 0 ? entry.time : 0),
    testName: entry._testName,
    error: entry._error,
  };
}

/** The answer of a recorded exchange as the words of the check vocabulary judge an answer. */
export function responseOf(x: RecordedExchange): HttpResponse {
  const { status, contentType, text, json } = x;
  return { status, headers: x.responseHeaders, contentType, text, json, durationMs: x.endedAt - x.startedAt };
}
