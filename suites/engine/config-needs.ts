import type { RunConfig } from './run-config.ts';

/**
 * A piece of the run configuration a test cannot judge its rules without, named as `doctor` and
 * the skip reasons name it: a principal (`principals.noScopes`, `principals.withoutScope["em.c"]`),
 * the token manager's credentials, a number of provisioned user tenants
 * (`tokenManager.userTenants:3`), or a fixture (`fixtures.eventManagement.entityIds`).
 */
export type ConfigKey =
  | 'tokenManager'
  | `tokenManager.userTenants:${number}`
  | `principals.${'noScopes' | 'otherTenant' | 'operator' | 'throttled'}`
  | `principals.withoutScope["${string}"]`
  | `fixtures.technicalTokenManager.${string}`
  | `fixtures.eventManagement.${string}`
  | `fixtures.notification.${string}`
  | 'fixtures.subTenantIds';

/** What a test declares it needs: a key, or a list of keys any one of which suffices. */
export type ConfigNeed = ConfigKey | readonly ConfigKey[];

/** Why a run does not start a test: a piece it needs, why, and the report's reason code. */
export interface Blocked {
  key: string;
  code: 'configuration' | 'principal';
  reason: string;
  /** The other pieces the test needs that are not ready either (from `blockingNeed`). */
  others?: string[];
}

/**
 * The pieces the run's readiness check (the one `doctor` prints) found not ready, by key: a
 * principal whose token cannot be obtained, a fixture the target does not hold, a missing piece.
 */
export type NotReady = Record<string, Pick<Blocked, 'code' | 'reason'>>;

/** What the suites fall back on when the configuration names no core event type (their documented names) or India-region prefix. */
export const FIXTURE_DEFAULTS: Record<string, string> = {
  'fixtures.eventManagement.standardEventTypeId': 'PlatformStandardEvent',
  'fixtures.eventManagement.baseEventTypeId': 'BaseEvent',
  'fixtures.notification.restrictedPhonePrefix': '+91',
};

/** Whether a configuration value is given (not empty). */
export function present(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** The value at a dotted path of an object. */
export function valueAt(root: unknown, path: string): unknown {
  let v = root;
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** The user tenants provisioned to the application besides its host tenant. */
export function userTenantCount(config: RunConfig): number {
  const tm = config.tokenManager;
  return (tm?.userTenants ?? []).filter((u) => u !== tm?.hostTenant).length;
}

/** Whether the configuration holds a piece at all (not whether the target accepts it). */
export function configured(config: RunConfig, key: string): boolean {
  if (key === 'tokenManager') return !!config.tokenManager;
  const tenants = /^tokenManager\.userTenants:(\d+)$/.exec(key);
  if (tenants) return userTenantCount(config) >= Number(tenants[1]);
  const scope = /^principals\.withoutScope\["(.+)"\]$/.exec(key);
  if (scope) return present(config.principals?.withoutScope?.[scope[1]]);
  if (key === 'fixtures.subTenantIds')
    return present(valueAt(config, key)) || present(valueAt(config, 'fixtures.eventManagement.subTenantEntityIds'));
  return present(valueAt(config, key) ?? FIXTURE_DEFAULTS[key]);
}

/** Whether `key` is `prefix` or lies under it (`fixtures.notification` holds `fixtures.notification.channels.sms`). */
export function within(key: string, prefix: string): boolean {
  return key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`);
}

/** Why one key is not ready in this run, or undefined when it is. */
function keyBlocked(key: ConfigKey, notReady: NotReady, config: RunConfig): Blocked | undefined {
  // `tokenManager.userTenants:k` not ready (the k-th user tenant refused) blocks a need of k or more.
  const need = /^tokenManager\.userTenants:(\d+)$/.exec(key);
  for (const [k, v] of Object.entries(notReady)) {
    const refused = /^tokenManager\.userTenants:(\d+)$/.exec(k);
    if (refused ? need !== null && Number(need[1]) >= Number(refused[1]) : within(key, k)) return { key: k, ...v };
  }
  if (configured(config, key)) return undefined;
  return {
    key,
    code: key.startsWith('fixtures.') || key.startsWith('tokenManager.') ? 'configuration' : 'principal',
    reason: `${key} is not configured`,
  };
}

/**
 * The first declared need that is not ready (with the keys of the others), or undefined when the
 * test can run: the one test both `doctor` (predicting) and `ruleTest` (not starting the test)
 * apply, so that they agree.
 */
export function blockingNeed(needs: readonly ConfigNeed[], notReady: NotReady, config: RunConfig): Blocked | undefined {
  const found: Blocked[] = [];
  for (const need of needs) {
    const alternatives = typeof need === 'string' ? [need] : need;
    const blocked = alternatives.map((k) => keyBlocked(k, notReady, config));
    if (blocked.every(Boolean)) found.push(blocked[0]!);
  }
  if (!found.length) return undefined;
  const others = [...new Set(found.slice(1).map((b) => b.key))].filter((k) => k !== found[0].key);
  return { ...found[0], ...(others.length ? { others } : {}) };
}

/** Whether a declaration covers a key a test uses (`tokenManager.userTenants:6` covers `:2`; a list covers each of its keys). */
export function declares(needs: readonly ConfigNeed[], key: string): boolean {
  const tenants = /^tokenManager\.userTenants:(\d+)$/.exec(key);
  return needs
    .flatMap((n) => (typeof n === 'string' ? [n] : [...n]))
    .some((d) => {
      if (d === key) return true;
      const m = /^tokenManager\.userTenants:(\d+)$/.exec(d);
      if (tenants && m) return Number(m[1]) >= Number(tenants[1]);
      // A skip naming the object that holds declared pieces (`principals.withoutScope`, `tokenManager.userTenants`).
      return within(d, key) || d.startsWith(`${key}:`);
    });
}

/** The configuration's fixtures without those found not ready: a test reading one as optional takes it as absent. */
export function readyFixtures(config: RunConfig, notReady: NotReady | undefined): Record<string, unknown> {
  const fixtures = config.fixtures ?? {};
  const drop = Object.keys(notReady ?? {}).filter((k) => k.startsWith('fixtures.') && k !== 'fixtures.subTenantIds');
  if (!drop.length) return fixtures;
  const copy = structuredClone(fixtures);
  for (const key of drop) {
    const parts = key.split('.').slice(1);
    const holder = parts.length === 1 ? copy : valueAt(copy, parts.slice(0, -1).join('.'));
    if (holder && typeof holder === 'object') delete (holder as Record<string, unknown>)[parts[parts.length - 1]];
  }
  return copy;
}
