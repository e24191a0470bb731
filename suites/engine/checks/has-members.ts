import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { memberProblems, type MemberShape } from './member-problems.ts';
import { judge, type Judging } from './judge.ts';

/** What `hasMembers` judges: a record, the members it requires and their shapes. */
export type HasMembersOptions = {
  rule: string;
  /** The record, as a failure names it (`${what} lacks required members`). */
  what: string;
  value: unknown;
  members: Readonly<Record<string, MemberShape | undefined>> | readonly string[];
  /** Members whose value is known (the caller's tenant, say): each must be that value. */
  values?: Readonly<Record<string, unknown>>;
  /** An empty text counts as missing. */
  emptyText?: boolean;
  /** A member present as null counts as present. */
  nullIsPresent?: boolean;
  /** High unless told. */
  severity?: Severity;
  soft?: Judging['soft'];
  /** What the deployment answered, when the failure should show it beside the members. */
  answer?: () => string;
};

/** A record holds each required member, of its shape (and of its value, where `values` names one). */
export function hasMembers(t: RuleContext, o: HasMembersOptions): boolean {
  const obj = o.value && typeof o.value === 'object' ? (o.value as Record<string, unknown>) : undefined;
  const problems = memberProblems(obj, o.members, { emptyText: o.emptyText, nullIsPresent: o.nullIsPresent });
  for (const [k, v] of Object.entries(o.values ?? {}))
    if (obj?.[k] !== v) problems.push(`${k} ${JSON.stringify(obj?.[k]) ?? 'absent'} (not ${JSON.stringify(v)})`);
  const names = Array.isArray(o.members) ? (o.members as readonly string[]) : Object.keys(o.members);
  const d = {
    title: `${o.what} lacks required members`,
    severity: o.severity ?? 'high',
    expected: `${names.join(', ')}${
      o.values
        ? `; ${Object.entries(o.values)
            .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
            .join(', ')}`
        : ''
    }`,
    received: problems.length ? `${problems.join(', ')}${o.answer ? `: ${o.answer()}` : ''}` : 'members as documented',
  };
  return judge(t, o.rule, problems.length === 0, d, { soft: o.soft });
}
