import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { loadRules } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { createReferenceDeployment, startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { runCli } from '../tests/run-cli.ts';
import { CONFIG_REQUIREMENTS, isConfigurationSkip, missingRequirements, pathsNamedIn } from './config-requirements.ts';
import { tempDir } from '../tests/temp-dir.ts';

/** Whether a path a skip names is one of the declared requirements (or a parent of one) of `service`. */
function declared(service: string, path: string): boolean {
  return CONFIG_REQUIREMENTS.some(
    (r) => r.service === service && (r.path === path || r.path.startsWith(`${path}.`) || r.path.startsWith(`${path}[`)),
  );
}

describe('configuration requirements of the certification profile', () => {
  it('reads the configuration paths out of the suites’ skip reasons', () => {
    expect(pathsNamedIn('fixtures.eventManagement.entityIds is not configured; creating events needs it')).toEqual([
      'fixtures.eventManagement.entityIds',
    ]);
    expect(pathsNamedIn('principals.withoutScope["em.r"] is not configured')).toEqual([
      'principals.withoutScope["em.r"]',
    ]);
    expect(pathsNamedIn('principal "without:nose.se" is not configured')).toEqual([
      'principals.withoutScope["nose.se"]',
    ]);
    expect(pathsNamedIn('needs the otherTenant principal (a second tenant)')).toEqual(['principals.otherTenant']);
    expect(isConfigurationSkip({ status: 'skipped', reasonCode: 'configuration' })).toBe(true);
    expect(isConfigurationSkip({ status: 'skipped', reasonCode: 'principal' })).toBe(true);
    expect(isConfigurationSkip({ status: 'skipped', reasonCode: 'test' })).toBe(false);
    expect(isConfigurationSkip({ status: 'skipped', reasonCode: 'suite-defect' })).toBe(false);
    expect(isConfigurationSkip({ status: 'skipped' })).toBe(false);
  });

  it('are all met by the reference deployment’s configuration', async () => {
    const deployment = await createReferenceDeployment({});
    try {
      expect(missingRequirements(referenceRunConfig(deployment, 'http://127.0.0.1:1'), SERVICES)).toEqual([]);
    } finally {
      await deployment.app.close();
    }
  });

  // A run skips a test when a piece it declares it needs (RuleTestOptions.needs) is not ready, so
  // the skips of a bare configuration name exactly the pieces the tests declare.
  it('name every piece whose absence makes the suites skip a testable MUST or SHOULD rule, and only those', async () => {
    const ref = await startReference({ port: 0 });
    const dir = tempDir('requirements');
    const testable = new Set(
      loadRules(SERVICES)
        .filter((r) => r.testable !== false && (r.level === 'MUST' || r.level === 'SHOULD'))
        .map((r) => r.id),
    );
    /** The configuration skips of testable MUST/SHOULD rules in a run with `config`. */
    async function configSkips(name: string, config: RunConfig) {
      writeFileSync(join(dir, `${name}.json`), JSON.stringify(config));
      const reportDir = join(dir, name);
      await runCli(['run', '--config', join(dir, `${name}.json`), '--report-dir', reportDir, '--seed', '1'], {
        timeoutMs: 300_000,
      });
      const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
      return report.rules.filter((r) => testable.has(r.id) && isConfigurationSkip(r));
    }
    try {
      const full = () => structuredClone(referenceRunConfig(ref, ref.baseUrl));
      // Nothing configured but the application; then no principals; then only the fixtures that
      // most tests need first (which otherwise hide what a test needs after them).
      const bare = full();
      delete bare.principals;
      delete bare.fixtures;
      bare.tokenManager!.userTenants = [];
      expect(missingRequirements(bare, SERVICES).map((r) => r.path)).toEqual(
        CONFIG_REQUIREMENTS.filter((r) => r.path !== 'tokenManager').map((r) => r.path),
      );
      const noPrincipals = full();
      delete noPrincipals.principals;
      const gateways = full();
      const em = gateways.fixtures!.eventManagement as Record<string, unknown>;
      const nf = gateways.fixtures!.notification as Record<string, Record<string, unknown>>;
      gateways.fixtures = {
        eventManagement: { entityIds: em.entityIds },
        notification: { addressTypes: { email: nf.addressTypes.email }, channels: { email: nf.channels.email } },
      };
      const skips = [
        ...(await configSkips('bare', bare)),
        ...(await configSkips('no-principals', noPrincipals)),
        ...(await configSkips('gateways', gateways)),
      ];
      expect(skips.length).toBeGreaterThan(100);
      const undeclared = skips.flatMap((r) => {
        const paths = pathsNamedIn(r.reason ?? '');
        if (!paths.length) return [`${r.id}: "${r.reason}" names no configuration path`];
        return paths.filter((p) => !declared(r.service, p)).map((p) => `${r.id}: ${p}`);
      });
      expect(undeclared).toEqual([]);
      // Every declared piece is named by some skip (for a fixture its last key suffices:
      // "fixtures.notification.bounceDomain and bounceLocalPrefix"), or the piece that holds it
      // is: a run whose configuration lacks a whole object (`principals.withoutScope`,
      // `fixtures.notification.channels`) skips naming that object, as doctor reports it.
      const within = (path: string, named: string) =>
        path === named || path.startsWith(`${named}.`) || path.startsWith(`${named}[`);
      const neverNamed = CONFIG_REQUIREMENTS.filter((q) => q.path !== 'tokenManager')
        .filter((q) => {
          const key = q.path.split('.').pop()!;
          return !skips.some(
            (r) =>
              r.service === q.service &&
              (pathsNamedIn(r.reason ?? '').some((p) => within(q.path, p)) ||
                (q.path.startsWith('fixtures.') && (r.reason ?? '').includes(key))),
          );
        })
        .map((q) => `${q.service} ${q.path}`);
      expect(neverNamed).toEqual([]);
    } finally {
      await ref.close();
    }
  }, 320_000);
});
