import { judgedScopes, operationIds } from '../contracts/facts.ts';
import type { ServiceName } from '../contracts/services.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import type { RuleResult } from '../reporters/conformance-report.ts';

/** A piece of the run configuration without which some testable MUST/SHOULD rule of a service is skipped. */
export interface ConfigRequirement {
  service: ServiceName;
  /** The configuration path, as the suites' skip reasons name it. */
  path: string;
  /** What it is, for the message that names it. */
  what: string;
  present(config: RunConfig): boolean;
}

function at(config: RunConfig, path: string): unknown {
  let v: unknown = config;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const has = (v: unknown) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0) && !Number.isNaN(v);

const principal = (
  service: ServiceName,
  name: 'noScopes' | 'otherTenant' | 'operator',
  what: string,
): ConfigRequirement => ({
  service,
  path: `principals.${name}`,
  what,
  present: (c) => has(c.principals?.[name]),
});

/** A principal without `scope`; `alternatives` are scopes whose principal judges the same rules. */
const withoutScope = (service: ServiceName, scope: string, ...alternatives: string[]): ConfigRequirement => ({
  service,
  path: `principals.withoutScope["${scope}"]`,
  what: `a principal granted every scope but ${scope}${alternatives.length ? ` (or but ${alternatives.join(', ')})` : ''}`,
  present: (c) => [scope, ...alternatives].some((s) => has(c.principals?.withoutScope?.[s])),
});

const fixture = (service: ServiceName, path: string, what: string): ConfigRequirement => ({
  service,
  path: `fixtures.${path}`,
  what,
  present: (c) => has(at(c, `fixtures.${path}`)),
});

/**
 * A principal without each scope an event management scope rule judges (`judgedScopes`, read from
 * the contract), one per scope an operation lists first. Where an operation's rule also judges a
 * second scope (a job's own create scope: without em.d or without em.dej.c), a principal without
 * that one serves too, unless another operation's rule judges the first scope alone (em.c: creating
 * an event).
 */
function judgedScopeRequirements(): ConfigRequirement[] {
  const alternatives = new Map<string, string[]>();
  for (const operationId of operationIds('event-management')) {
    const [first, ...others] = judgedScopes(operationId);
    const known = alternatives.get(first);
    alternatives.set(first, known ? known.filter((s) => others.includes(s)) : others);
  }
  return [...alternatives].map(([scope, others]) => withoutScope('event-management', scope, ...others));
}

/**
 * What the suites skip a testable MUST or SHOULD rule for when the configuration lacks it: the
 * principals and fixtures their skip reasons name (`t.skip('… principals.otherTenant …')`,
 * `fixture(t, 'entityIds')`, `userTenants(t, 6)`), and only those: a piece whose absence leaves
 * every rule judged by some other test is not required. `config-requirements.test.ts` runs the
 * suites without them and fails when a skip names a piece this list does not hold, or when a piece
 * of the list is never named.
 */
export const CONFIG_REQUIREMENTS: readonly ConfigRequirement[] = [
  {
    service: 'technical-token-manager',
    path: 'tokenManager',
    what: 'client credentials of the fully granted application',
    present: (c) => has(c.tokenManager),
  },
  {
    service: 'technical-token-manager',
    path: 'tokenManager.userTenants',
    what: 'six user tenants provisioned to the application (besides its host tenant)',
    present: (c) => (c.tokenManager?.userTenants ?? []).filter((u) => u !== c.tokenManager?.hostTenant).length >= 6,
  },
  withoutScope('technical-token-manager', 'km.usr'),
  fixture(
    'technical-token-manager',
    'technicalTokenManager.unprovisionedTenantId',
    'a tenant that exists and is not provisioned to the application',
  ),

  principal('notification', 'otherTenant', 'a fully granted application of a second tenant'),
  principal('notification', 'noScopes', 'an application granted none of the scopes'),
  principal('notification', 'operator', 'an application of the operator tenant'),
  withoutScope('notification', 'nose.se'),
  withoutScope('notification', 'nose.ac'),
  fixture('notification', 'notification.addressTypes.email', 'the email address type ID'),
  fixture('notification', 'notification.addressTypes.phone', 'the phone address type ID'),
  fixture('notification', 'notification.addressTypes.push', 'the push address type ID'),
  fixture('notification', 'notification.addressTypes.iosPush', 'the iOS push address type ID'),
  fixture('notification', 'notification.channels.email', 'the email channel ID'),
  fixture('notification', 'notification.channels.sms', 'the SMS channel ID'),
  fixture('notification', 'notification.channels.push', 'the push channel ID'),
  fixture('notification', 'notification.paramTypeId', 'a parameter type ID'),
  fixture('notification', 'notification.restrictedRecipientId', 'an existing recipient with a +91 number'),
  fixture('notification', 'notification.bounceDomain', 'a domain where a publish bounces'),
  fixture('notification', 'notification.bounceLocalPrefix', 'the local-part prefix of bouncing addresses'),
  fixture('notification', 'notification.tenantAdminEmails', 'the email addresses of the host tenant’s admins'),
  fixture('notification', 'notification.allBroadcast', 'true: the suite may broadcast once to all members'),

  principal('event-management', 'noScopes', 'an application granted none of the scopes'),

  principal('event-management', 'otherTenant', 'a fully granted application of a second tenant'),
  ...judgedScopeRequirements(),
  fixture('event-management', 'eventManagement.entityIds', 'entities of the home tenant that events may name'),
  fixture('event-management', 'eventManagement.sharedEntityId', 'an entity of another tenant shared with this one'),
  fixture('event-management', 'eventManagement.sharedEventTypeId', 'a LOCAL event type of another tenant, shared'),
  fixture('event-management', 'eventManagement.globalEventTypeId', 'a GLOBAL event type of another tenant'),
  fixture('event-management', 'eventManagement.otherTenantEntityId', 'an entity owned by another tenant'),
  fixture('event-management', 'eventManagement.sharedEventId', 'an event owned by another tenant'),
  fixture('event-management', 'eventManagement.bigEventTypeId', 'an event type holding more than 300,000 events'),
  fixture('event-management', 'eventManagement.bigEventTypeEventCount', 'how many events bigEventTypeId holds'),
  {
    service: 'event-management',
    path: 'fixtures.subTenantIds',
    what: 'sub-tenants of the home tenant (or fixtures.eventManagement.subTenantEntityIds)',
    present: (c) => has(at(c, 'fixtures.subTenantIds')) || has(at(c, 'fixtures.eventManagement.subTenantEntityIds')),
  },
];

/** The requirements of `services` that `config` does not meet. */
export function missingRequirements(config: RunConfig, services: readonly ServiceName[]): ConfigRequirement[] {
  return CONFIG_REQUIREMENTS.filter((r) => services.includes(r.service) && !r.present(config));
}

/** The configuration paths a skip reason names (`principals.otherTenant`, `fixtures.eventManagement.entityIds`…). */
export function pathsNamedIn(reason: string): string[] {
  const found = new Set<string>();
  for (const m of reason.matchAll(/\b(?:principals|fixtures|tokenManager)(?:\.[A-Za-z]+|\["[^"]+"\])*/g))
    found.add(m[0]);
  for (const m of reason.matchAll(/\bthe (noScopes|otherTenant|operator|throttled) principal\b/g))
    found.add(`principals.${m[1]}`);
  if (/\bno tokenManager credentials\b/.test(reason)) found.add('tokenManager');
  // A deployment that refuses the run's filter dialect: "declare the deployment's filter dialect: …".
  if (/\bfilterDialect\b/.test(reason)) found.add('filterDialect');
  // The HTTP layer's own skip: principal "noScopes" / "without:em.c" is not configured.
  for (const m of reason.matchAll(/principal "(without:)?([^"]+)" is not configured/g))
    found.add(m[1] ? `principals.withoutScope["${m[2]}"]` : `principals.${m[2]}`);
  return [...found];
}

/**
 * Whether a rule was skipped for a piece of the configuration (a fixture, a principal, the filter
 * dialect) rather than for the target's behaviour or the run's scope: the report's reason code says.
 */
export function isConfigurationSkip(r: Pick<RuleResult, 'status' | 'reasonCode'>): boolean {
  return r.status === 'skipped' && (r.reasonCode === 'configuration' || r.reasonCode === 'principal');
}
