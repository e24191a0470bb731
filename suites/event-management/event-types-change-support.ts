// What the event-types-change spec files share.
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { body, eventually, send, seen } from './em-client.ts';

export const pathOf = (id: string) => `/eventTypes/${encodeURIComponent(id)}`;

/** The field of a type's `fields` named `name` (undefined when there is none). */
export const fieldNamed = (fields: unknown, name: string): Record<string, unknown> | undefined =>
  (Array.isArray(fields) ? (fields as Array<Record<string, unknown>>) : []).find((f) => f?.name === name);

/** The type as the caller reads it now (waiting out the visibility delay of a new or changed type). */
export async function current(
  t: RuleContext,
  id: string,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<Record<string, any>> {
  const query = opts.includeShared ? { includeShared: 'true' } : undefined;
  const res = await eventually(
    () => send(t, { method: 'GET', path: pathOf(id), query }),
    (r) => r.status === 200 && Number(body(r).etag) >= (opts.etagAtLeast ?? 0),
  );
  if (!res.ok) t.skip(`event type ${id} cannot be read (${seen(res.value, 160)}); judged by event-types/get-200`);
  return body(res.value);
}

/** PATCH with the type's current etag. */
export async function patch(
  t: RuleContext,
  id: string,
  ops: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const x = await current(t, id, opts);
  return send(t, {
    method: 'PATCH',
    path: pathOf(id),
    headers: { 'If-Match': String(x.etag) },
    json: ops,
    query: opts.includeShared ? { includeShared: 'true' } : undefined,
  });
}

/**
 * PATCH replacing a property of a named field. The path syntax is not shown ("a property of a named
 * field"): the field is addressed by its name, and where that is refused, by its index in the
 * type's fields (a JSON Pointer, RFC 6901), so that either spelling is taken.
 */
export async function patchField(
  t: RuleContext,
  id: string,
  name: string,
  property: string,
  value: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const res = await patch(t, id, { op: 'replace', path: `/fields/${name}/${property}`, value }, opts);
  if (res.status !== 400) return res;
  const index = ((await current(t, id, opts)).fields ?? []).findIndex((f: { name?: unknown }) => f.name === name);
  return index < 0 ? res : patch(t, id, { op: 'replace', path: `/fields/${index}/${property}`, value }, opts);
}

/**
 * PATCH of an attribute (ttl, scope) or of the field list. The path syntax is not shown ("attribute or
 * field to change, for example the scope, a field list"): a JSON Pointer first (/scope, /fields), and
 * where that is refused with 400, the other spellings a deployment may take (for an added field the
 * RFC 6902 append /fields/-, then the bare name), so that a change valid under every spelling is taken.
 */
export async function patchAttribute(
  t: RuleContext,
  id: string,
  op: 'add' | 'replace',
  attribute: string,
  value: unknown,
  opts: { includeShared?: boolean; etagAtLeast?: number } = {},
): Promise<HttpResponse> {
  const spellings = [`/${attribute}`, ...(op === 'add' && attribute === 'fields' ? ['/fields/-'] : []), attribute];
  let res = await patch(t, id, { op, path: spellings[0], value }, opts);
  for (const path of spellings.slice(1)) {
    if (res.status !== 400) break;
    res = await patch(t, id, { op, path, value }, opts);
  }
  return res;
}

/** DELETE with the type's current etag. */
export async function remove(
  t: RuleContext,
  id: string,
  opts: { includeShared?: boolean } = {},
): Promise<HttpResponse> {
  const x = await current(t, id, opts);
  return send(t, { method: 'DELETE', path: pathOf(id), headers: { 'If-Match': String(x.etag) } });
}
