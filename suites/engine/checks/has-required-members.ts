import { requiredMembers, type ContractPointer } from '../../../contracts/facts.ts';
import type { ServiceName } from '../../../contracts/services.ts';
import type { RuleContext } from '../rule-test.ts';
import type { MemberShape } from './member-problems.ts';
import { hasMembers } from './has-members.ts';

/** What `hasRequiredMembers` judges: a value and the contract schema whose `required` it must carry. */
export type HasRequiredMembersOptions = {
  rule: string;
  service: ServiceName;
  /** The schema whose `required` list the value must carry (`#/components/schemas/EventResponse`). */
  schema: ContractPointer;
  value: Record<string, unknown> | undefined;
  /** The value, as a failure names it (`${what} lacks required members`). */
  what: string;
  /** The shape every required member must have, when it matters here. */
  shape?: Exclude<MemberShape, (v: unknown) => boolean>;
  /** An empty string counts as missing. */
  emptyText?: boolean;
  /** A member present as null counts as present. */
  nullIsPresent?: boolean;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
  /** What the deployment answered, when the failure should show it beside the members. */
  answer?: () => string;
};

export { requiredMembers };

/** A value carries every member its contract schema requires (present, not null): `hasMembers` over them. */
export function hasRequiredMembers(t: RuleContext, o: HasRequiredMembersOptions): boolean {
  const { service: _service, schema: _schema, shape, ...judged } = o;
  const required = requiredMembers(o.service, o.schema);
  return hasMembers(t, { ...judged, members: shape ? Object.fromEntries(required.map((m) => [m, shape])) : required });
}
