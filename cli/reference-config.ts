import type { ReferenceDeployment } from '../fixtures/reference/server.ts';
import type { ClientCredentials, RunConfig } from '../suites/engine/run-config.ts';
import type { Application } from '../fixtures/reference/shared/seed.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';

function credentials(app: Application): ClientCredentials {
  return {
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    appName: app.appName,
    appVersion: app.appVersion,
    hostTenant: app.hostTenant,
  };
}

/**
 * The clients the embedded reference throttles (the seed's `throttled` application): a run
 * throttles only them, so the 429 rules' bounded burst meets the throttle and the rest of the run
 * does not.
 */
export const THROTTLED_CLIENTS: readonly string[] = ['conformance-throttled'];

/** Requests a second the reference lets each of THROTTLED_CLIENTS send (`run`'s embedded reference, `serve`). */
export const REFERENCE_THROTTLE = 8;

/** A deployment that throttles named clients only is probed with them, as a run of the embedded reference is. */
export const probesThrottling = (options?: FaultVariant['options']): boolean => !!options?.throttledClients?.length;

/** The run configuration that tests a reference deployment at `target`. */
export function referenceRunConfig(
  deployment: Pick<ReferenceDeployment, 'ctx' | 'fixtures'>,
  target: string,
): RunConfig {
  const apps = deployment.ctx.seed.applications;
  const byRole = (role: string) => {
    const a = apps.find((x) => x.role === role);
    if (!a) throw new Error(`reference seed has no ${role} application`);
    return a;
  };
  const full = byRole('full');
  const withoutScope: Record<string, ClientCredentials> = {};
  for (const a of apps)
    if (a.role.startsWith('without:')) withoutScope[a.role.slice('without:'.length)] = credentials(a);
  return {
    target,
    tokenManager: { ...credentials(full), userTenants: full.userTenants.slice(0, 6) },
    principals: {
      noScopes: credentials(byRole('noScopes')),
      otherTenant: credentials(byRole('otherTenant')),
      operator: credentials(byRole('operator')),
      throttled: credentials(byRole('throttled')),
      withoutScope,
    },
    fixtures: { ...deployment.fixtures, subTenantIds: deployment.ctx.seed.subTenants },
  };
}
