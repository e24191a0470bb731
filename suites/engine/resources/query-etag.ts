import { etagChanged, headerPresent, notModified } from '../checks/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext, RuleTestOptions } from '../rule-test.ts';
import type { ResourceIo } from './resource-io.ts';

/** How a resource's collection query answers with an ETag, and what changes its result. */
export interface QueryEtagDescription {
  /** The collection path (`/events`) and the key its answers list the records under. */
  collection: string;
  listKey: string;
  rules: { etagHeader: string; notModified: string };
  /** What changes the result, as the test's title says it (`a new event changes the ETag`). */
  change: string;
  options?: RuleTestOptions;
  /**
   * Makes one record of the test's own and a query that selects only it; `change` alters what the
   * query answers, and `changed` sees the change in an answer.
   */
  setUp(t: RuleContext): Promise<{
    query: Record<string, unknown>;
    change: () => Promise<unknown>;
    changed: (res: HttpResponse) => boolean;
  }>;
}

/**
 * A collection query answers an ETag; If-None-Match of an unchanged result is 304; a change of the
 * result changes the ETag.
 */
export async function queryEtag(t: RuleContext, io: ResourceIo, d: QueryEtagDescription): Promise<void> {
  const { query, change, changed } = await d.setUp(t);
  const get = (headers?: Record<string, string | undefined>) =>
    io.send(t, { method: 'GET', path: d.collection, query, headers });
  const first = (await io.eventually(get, (r) => io.listed(r, d.listKey).length === 1)).value;
  const before = first.headers.etag;
  headerPresent(t, { rule: d.rules.etagHeader, res: first, header: 'ETag', what: `GET ${d.collection}` });
  notModified(t, {
    rule: d.rules.notModified,
    res: await get({ 'If-None-Match': before }),
    what: 'If-None-Match of an unchanged result',
  });
  await change();
  const after = await io.eventually(
    () => get({ 'If-None-Match': before }),
    (r) => r.status === 200 && changed(r),
  );
  etagChanged(t, {
    rule: d.rules.etagHeader,
    res: after.value,
    before,
    settled: after.ok,
    what: `GET ${d.collection}`,
  });
}
