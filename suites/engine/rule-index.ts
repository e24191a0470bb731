import picomatch from 'picomatch';
import { loadRules, type Rule } from '../../contracts/catalog.ts';

let byId: Map<string, Rule> | undefined;

/** The catalog, indexed by rule ID. */
export function ruleIndex(): Map<string, Rule> {
  byId ??= new Map(loadRules().map((r) => [r.id, r]));
  return byId;
}

/** Throws at collection time on a rule ID the catalog does not have. */
export function assertKnownRules(ids: readonly string[], where: string): void {
  const unknown = ids.filter((id) => !ruleIndex().has(id));
  if (unknown.length) throw new Error(`${where} names unknown rule ID(s): ${unknown.join(', ')}`);
}

/**
 * Whether a rule ID is selected by `--rule` globs (no globs: every rule). A rule ID is one name,
 * not a path: `*` matches any characters, `/` included (picomatch's bash mode), so that
 * `notification/*` selects every rule of the service and `*thrott*` the throttling rules; `?`,
 * `[…]` and `{a,b}` are as in any glob.
 */
export function ruleSelected(id: string, globs: readonly string[]): boolean {
  return globs.length === 0 || globs.some((g) => id === g || picomatch.isMatch(id, g, RULE_GLOB));
}

/** How `--rule` globs are read (`ruleSelected`). */
const RULE_GLOB = { bash: true } as const;

/** The sentence of a reading the catalog lists with a rule, or undefined when it lists none by that ID. */
export function readingText(ruleId: string, readingId: string): string | undefined {
  return ruleIndex()
    .get(ruleId)
    ?.readings?.find((r) => r.id === readingId)?.reading;
}
