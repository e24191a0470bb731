import { contractNode, type ContractPointer } from '../../../contracts/facts.ts';
import type { ServiceName } from '../../../contracts/services.ts';
import type { RuleContext } from '../rule-test.ts';
import { memberProblems, type MemberShape } from './member-problems.ts';
import { judge } from './judge.ts';

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
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
  /** What the deployment answered, when the failure should show it beside the members. */
  answer?: () => string;
};

/** The members the contract's schema at `schema` requires. */
export function requiredMembers(service: ServiceName, schema: ContractPointer): string[] {
  const required = contractNode(service, schema).required;
  if (!Array.isArray(required)) throw new Error(`the ${service} contract gives ${schema} no required list`);
  return required.map(String);
}

/** A value carries every member its contract schema requires (present, not null). Returns whether it does. */
export function hasRequiredMembers(t: RuleContext, o: HasRequiredMembersOptions): boolean {
  const required = requiredMembers(o.service, o.schema);
  const members = o.shape ? Object.fromEntries(required.map((m) => [m, o.shape])) : required;
  const problems = memberProblems(o.value, members, { emptyText: o.emptyText });
  const ok = problems.length === 0;
  const d = {
    title: `${o.what} lacks required members: ${problems.join(', ')}`,
    severity: 'high' as const,
    expected: `${required.join(', ')}${o.shape ? `, each ${o.shape}` : ''}`,
    received: ok ? '' : `${problems.join(', ')}${o.answer ? `: ${o.answer()}` : ''}`,
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
