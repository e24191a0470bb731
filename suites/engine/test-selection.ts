import type { ServiceName } from '../../contracts/services.ts';
import { judgedRules } from './checks/response-checks.ts';
import { ruleSelected } from './rule-index.ts';
import type { RunContext } from './run-context.ts';

/** FNV-1a of a string: the shard of a test and the seed of a property follow from it. */
export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Whether `--shard i/n` gives this test to this run (every test when there is no shard). */
export function inShard(context: Pick<RunContext, 'shard'>, service: ServiceName, name: string): boolean {
  return !context.shard || hash(`${service}|${name}`) % context.shard.total === context.shard.index - 1;
}

/**
 * Whether a run executes a test at all, as `ruleTest` decides it: one of its rules is selected by
 * `--rule`, `--shard` gives it to this run, and the profile allows it. The console counts and
 * prints only these.
 */
export function testSelected(
  context: Pick<RunContext, 'ruleGlobs' | 'shard' | 'profile'>,
  test: { service: ServiceName; name: string; rules: readonly string[]; readOnly: boolean },
): boolean {
  return (
    judgedRules(test.service, test.rules).some((r) => ruleSelected(r, context.ruleGlobs)) &&
    inShard(context, test.service, test.name) &&
    (context.profile !== 'read-only' || test.readOnly)
  );
}
