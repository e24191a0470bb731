import { refused } from '../checks/index.ts';
import type { RuleContext, RuleTestOptions } from '../rule-test.ts';
import type { PrincipalName } from '../token-provider.ts';
import type { ResourceIo } from './resource-io.ts';

/** How a resource's reads by id are tried with ids the caller cannot see. */
export interface UnknownAndForeignDescription {
  /** The rule that such a read is answered 404. */
  rule: string;
  /** One record, as failures name it (`event`). */
  noun: string;
  path(id: string): string;
  /** An id no record has. */
  unknownId(t: RuleContext): string;
  /** An id of a form the service never gives, and the reading its 404 (rather than a 400) rests on. */
  malformed?: { id: string; reading: string };
  /** The queries each read is sent with (say `includeShared=true`, which makes no unknown id name a record). */
  queries: ReadonlyArray<Record<string, string> | undefined>;
  /** Makes a record of the caller's own; its id. */
  create(t: RuleContext): Promise<string>;
  /** The reading that another tenant's record is a 404 rather than another refusal. */
  foreignReading: string;
  options?: RuleTestOptions;
}

/** The principal of another tenant, and why its half is not exercised when it is not configured. */
export interface OtherTenant {
  as: PrincipalName;
  absent: string;
}

const shownQuery = (q: Record<string, string> | undefined) => (q ? ` with ${new URLSearchParams(q)}` : '');

/** A read of an unknown id, of a malformed one, or of another tenant's record answers 404. */
export async function unknownAndForeign(
  t: RuleContext,
  io: ResourceIo,
  d: UnknownAndForeignDescription,
  other: OtherTenant,
): Promise<void> {
  const read = (id: string, query?: Record<string, string>, as?: PrincipalName) =>
    io.send(t, { method: 'GET', path: d.path(id), query, as });
  for (const query of d.queries)
    refused(t, {
      rule: d.rule,
      res: await read(d.unknownId(t), query),
      what: `an unknown ${d.noun} id${shownQuery(query)}`,
      statuses: [404],
    });
  if (d.malformed)
    refused(t, {
      rule: d.rule,
      res: await read(d.malformed.id),
      what: `an id of another form (${d.malformed.id})`,
      statuses: [404],
      statusReading: d.malformed.reading,
    });
  if (!t.session.tokens.has(other.as)) return t.notExercised(d.rule, other.absent);
  const id = await d.create(t);
  await io.eventually(
    () => read(id),
    (r) => r.status === 200,
  );
  for (const query of d.queries)
    refused(t, {
      rule: d.rule,
      res: await read(id, query, other.as),
      what: `a ${d.noun} of another tenant (not shared with it)${shownQuery(query)}`,
      statuses: [404],
      statusReading: d.foreignReading,
    });
}
