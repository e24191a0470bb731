import { describe, expect, it } from 'vitest';
import { createReferenceDeployment } from '../fixtures/reference/server.ts';
import { within } from '../suites/engine/config-needs.ts';
import { referenceRunConfig } from './reference-config.ts';
import { collectTests, FIXTURES, unusedFixtureKeys } from './readiness.ts';

// A configured fixture is a promise to use it: every fixture key of the configuration is one some
// test declares it needs (`needs`), and `doctor` names the keys a configuration gives that no test needs.
describe('the fixture keys of the run configuration', async () => {
  const deployment = await createReferenceDeployment({});
  const config = referenceRunConfig(deployment, 'http://127.0.0.1:1');
  await deployment.app.close();
  const tests = await collectTests(config);
  const needs = tests.flatMap((t) => (t.needs ?? []).flatMap((n) => (typeof n === 'string' ? [n] : [...n])));

  it('are each needed by a test', () => {
    const unneeded = FIXTURES.map((f) => `fixtures.${f.key}`).filter(
      (key) => !needs.some((n) => within(n, key) || within(key, n)),
    );
    expect(unneeded).toEqual([]);
  });

  it('are all that tests need: no test declares a fixture the list does not hold', () => {
    const keys = FIXTURES.map((f) => `fixtures.${f.key}`);
    const unlisted = [...new Set(needs.filter((n) => n.startsWith('fixtures.')))].filter(
      (n) => !keys.some((k) => within(n, k)),
    );
    expect(unlisted).toEqual([]);
  });

  it('of the reference deployment are each used, and a key no test needs is named', () => {
    expect(unusedFixtureKeys(config, tests)).toEqual([]);
    const extra = {
      ...config,
      fixtures: {
        ...config.fixtures,
        technicalTokenManager: { userTenantIds: ['a'], unprovisionedTenantId: 'b' },
        someday: 1,
      },
    };
    expect(unusedFixtureKeys(extra, tests)).toEqual([
      'fixtures.someday',
      'fixtures.technicalTokenManager.userTenantIds',
    ]);
  });
});
