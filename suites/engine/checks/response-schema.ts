import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { componentValidator, responseValidator, schemaErrors } from '../schemas.ts';
import { describeResponse } from './describe-response.ts';

/** The body matches the schema the contract documents for this operation and status. */
export async function responseSchema(
  t: RuleContext,
  ruleId: string,
  res: HttpResponse,
  operationId: string,
): Promise<boolean> {
  const service = t.service;
  const found = await responseValidator(service, operationId, res.status, res.contentType);
  if (!found) return true;
  if (res.json === undefined) {
    return t.verify(ruleId, false, {
      title: `${operationId} ${res.status} body is not JSON`,
      expected: 'a JSON body matching the contract',
      received: res.jsonError ? `invalid JSON (${res.jsonError}): ${describeResponse(res, 120)}` : 'an empty body',
    });
  }
  const ok = found.validate(res.json);
  return t.verify(ruleId, ok, {
    title: `${operationId} ${res.status} body does not match the contract`,
    expected: 'a body matching the documented schema',
    received: ok ? '' : `${schemaErrors(found.validate)} — ${describeResponse(res, 200)}`,
  });
}

/** A value matches a named component schema of the service's contract. */
export async function matchesSchema(
  t: RuleContext,
  ruleId: string,
  value: unknown,
  schemaName: string,
  what: string,
): Promise<boolean> {
  const v = await componentValidator(t.service, schemaName);
  const ok = v(value);
  return t.verify(ruleId, ok, {
    title: `${what} does not match ${schemaName}`,
    expected: `a ${schemaName}`,
    received: ok ? '' : `${schemaErrors(v)} — ${JSON.stringify(value)?.slice(0, 200)}`,
  });
}
