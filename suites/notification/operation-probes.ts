import { listOperations } from '../../contracts/contract.ts';
import type { HttpRequest } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { contractOf } from '../engine/schemas.ts';
import { UNKNOWN_ID } from './notification-client.ts';

/** One documented operation, made concrete enough to be sent (for the authentication rules). */
export interface OperationProbe {
  operationId: string;
  /** The scopes the contract lists for the operation. */
  scopes: string[];
  request: HttpRequest;
}

const QUERY_VALUES: Record<string, string> = {
  categoryIds: String(UNKNOWN_ID),
  fields: 'channels',
  templatesetname: 'cfznosuchset',
  broadcastType: 'tenantAdminsOnly',
};

/**
 * Every operation of the contract, with unknown IDs in its path, its required query parameters
 * and an empty body of its media type: enough for the service to check credentials, which it
 * must do before anything else, and harmless should it not.
 */
export async function operationProbes(t: RuleContext): Promise<OperationProbe[]> {
  const doc = await contractOf('notification');
  return listOperations(doc).map(({ operationId, method, path, operation }) => {
    const concrete = path
      .replace(/\{emailid\}/g, encodeURIComponent(`${t.prefix}_nocert@example.com`))
      .replace(/\{[^}]+\}/g, String(UNKNOWN_ID));
    const query: Record<string, string> = {};
    for (const p of (operation.parameters ?? []) as Array<{ in?: string; name?: string; required?: boolean }>) {
      if (p.in === 'query' && p.required && p.name) query[p.name] = QUERY_VALUES[p.name] ?? 'x';
    }
    const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    const request: HttpRequest = { method: method.toUpperCase(), path: concrete, query };
    if (content['application/json']) request.json = {};
    else if (content['multipart/form-data']) request.form = [{ name: 'probe', value: 'x' }];
    const scopes = ((operation.security ?? [])[0] as Record<string, string[]> | undefined)?.oauth2 ?? [];
    return { operationId, scopes, request };
  });
}
