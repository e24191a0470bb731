import type { ContractPointer } from '../../../contracts/facts.ts';
import type { ServiceName } from '../../../contracts/services.ts';
import { accepted, answered, etagHeader, hasRequiredMembers, holds, responseSchema } from '../checks/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { followLocation } from './follow-location.ts';
import type { ResourceIo } from './resource-io.ts';

/** How a resource is created and read back, and the rules each step judges. */
export interface CreatedAndReadDescription {
  service: ServiceName;
  /** One record, as failures name it (`the event`). */
  what: string;
  /** The create operation, whose answer schema is judged; the schema whose required members every answer carries. */
  operationId: string;
  schema: ContractPointer;
  rules: { create: string; requiredMembers: string; etagHeader: string; get: string };
  path(id: string): string;
  post(t: RuleContext, json: Record<string, unknown>): Promise<HttpResponse>;
  /** Whether a record read back is the one sent. */
  same(record: Record<string, unknown>, sent: Record<string, unknown>): boolean;
}

/** What a create and its read gave: the answers and the record created. */
export interface CreatedAndRead {
  res: HttpResponse;
  record: Record<string, unknown>;
  got: HttpResponse;
}

const bodyOf = (res: HttpResponse) =>
  (res.json && typeof res.json === 'object' && !Array.isArray(res.json) ? res.json : {}) as Record<string, unknown>;

/**
 * A POST answers 201 with the required members, a Location that serves the record, and an ETag of
 * its etag; a GET of the record then answers it, with its ETag. The checks after the 201 are soft:
 * each is judged, and the test fails at its end.
 */
export async function createdAndRead(
  t: RuleContext,
  io: ResourceIo,
  d: CreatedAndReadDescription,
  sent: Record<string, unknown>,
  what: string,
): Promise<CreatedAndRead> {
  const res = await d.post(t, sent);
  accepted(t, { rule: d.rules.create, res, what });
  await responseSchema(t, d.rules.requiredMembers, res, d.operationId);
  const record = bodyOf(res);
  const soft = true;
  hasRequiredMembers(t, {
    rule: d.rules.requiredMembers,
    service: d.service,
    schema: d.schema,
    value: record,
    what: `${d.what} created`,
    soft,
  });
  await followLocation(t, io, { rule: d.rules.create, res, id: record.id, what: d.what, soft });
  // A record without an etag has no ETag to name: the header check fails then too.
  etagHeader(t, { rule: d.rules.etagHeader, res, etag: record.etag ?? '(no etag)', what: `POST of ${d.what}`, soft });
  const got = await io.eventually(
    () => io.send(t, { method: 'GET', path: d.path(String(record.id)) }),
    (r) => r.status !== 404,
  );
  if (answered(t, { rule: d.rules.get, res: got.value, what: `GET of ${d.what}`, soft }))
    holds(t, {
      rule: d.rules.get,
      ok: d.same(bodyOf(got.value), sent),
      failure: `GET of ${d.what} answers another record`,
      expected: `${d.what} as sent`,
      received: () => JSON.stringify(bodyOf(got.value)).slice(0, 240),
      soft,
    });
  const read = bodyOf(got.value);
  etagHeader(t, {
    rule: d.rules.etagHeader,
    res: got.value,
    etag: read.etag ?? '(no etag)',
    what: `GET of ${d.what}`,
    soft,
  });
  return { res, record, got: got.value };
}
