import picomatch from 'picomatch';
import { loadServiceCatalog, serviceOfRule, type Rule } from '../../contracts/catalog.ts';
import { isServiceName } from '../../contracts/services.ts';

const indexes = new Map<string, Map<string, Rule>>();

/**
 * The catalog entry of a rule ID, or undefined. Only the rule's own service's catalog is read: a
 * run of one service does not parse the other two.
 */
function ruleOf(id: string): Rule | undefined {
  const service = serviceOfRule(id);
  if (!isServiceName(service)) return undefined;
  let index = indexes.get(service);
  if (!index) indexes.set(service, (index = new Map(loadServiceCatalog(service).rules.map((r) => [r.id, r]))));
  return index.get(id);
}

/** Throws at collection time on a rule ID the catalog does not have. */
export function assertKnownRules(ids: readonly string[], where: string): void {
  const unknown = ids.filter((id) => !ruleOf(id));
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
  return ruleOf(ruleId)?.readings?.find((r) => r.id === readingId)?.reading;
}
