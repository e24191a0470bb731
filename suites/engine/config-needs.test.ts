import { describe, expect, it } from 'vitest';
import { blockingNeed, declares, readyFixtures } from './config-needs.ts';
import type { RunConfig } from './run-config.ts';

const config: RunConfig = {
  target: 'http://127.0.0.1:1',
  tokenManager: {
    clientId: 'c',
    clientSecret: 's',
    appName: 'a',
    appVersion: '1',
    hostTenant: 'host',
    userTenants: ['host', 'u1', 'u2'],
  },
  principals: { noScopes: { token: 't' }, withoutScope: { 'nose.se': { token: 't' } } },
  fixtures: {
    eventManagement: { entityIds: ['e1'], sharedEventTypeId: 'other.type' },
    notification: { channels: { email: 1 } },
  },
};

describe('what a test needs, and whether the run has it', () => {
  it('a user tenant refused blocks the tests that send it (needing that many or more), not those needing fewer', () => {
    const six: RunConfig = {
      ...config,
      tokenManager: { ...config.tokenManager!, userTenants: ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'] },
    };
    const notReady = { 'tokenManager.userTenants:3': { code: 'configuration' as const, reason: 'u3 refused' } };
    expect(blockingNeed(['tokenManager.userTenants:2'], notReady, six)).toBeUndefined();
    for (const n of [3, 6])
      expect(blockingNeed([`tokenManager.userTenants:${n}`], notReady, six)).toMatchObject({
        key: 'tokenManager.userTenants:3',
        reason: 'u3 refused',
      });
    expect(blockingNeed(['tokenManager'], notReady, six)).toBeUndefined();
  });

  it('blocks a test on a missing piece, naming it', () => {
    expect(blockingNeed(['fixtures.eventManagement.entityIds'], {}, config)).toBeUndefined();
    expect(blockingNeed(['fixtures.notification.channels.sms'], {}, config)).toEqual({
      key: 'fixtures.notification.channels.sms',
      code: 'configuration',
      reason: 'fixtures.notification.channels.sms is not configured',
    });
    expect(blockingNeed(['principals.operator'], {}, config)?.code).toBe('principal');
    // The documented core type names are the fallback the suites use.
    expect(blockingNeed(['fixtures.eventManagement.standardEventTypeId'], {}, config)).toBeUndefined();
  });

  it('counts the user tenants besides the host tenant', () => {
    expect(blockingNeed(['tokenManager.userTenants:2'], {}, config)).toBeUndefined();
    expect(blockingNeed(['tokenManager.userTenants:3'], {}, config)?.key).toBe('tokenManager.userTenants:3');
  });

  it('blocks on what the readiness check found not ready, and on the object holding a piece', () => {
    const notReady = {
      'principals.noScopes': { code: 'principal' as const, reason: 'principals.noScopes is not ready: HTTP 401' },
      'fixtures.notification.channels': { code: 'configuration' as const, reason: 'not configured' },
    };
    expect(blockingNeed(['principals.noScopes'], notReady, config)?.reason).toContain('HTTP 401');
    expect(blockingNeed(['fixtures.notification.channels.email'], notReady, config)?.key).toBe(
      'fixtures.notification.channels',
    );
  });

  it('takes a list inside the list as any one of its pieces', () => {
    const either = [['principals.withoutScope["nose.se"]', 'principals.withoutScope["nose.ac"]']] as const;
    expect(blockingNeed(either, {}, config)).toBeUndefined();
    expect(blockingNeed([['principals.withoutScope["nose.ac"]', 'principals.operator']], {}, config)?.key).toBe(
      'principals.withoutScope["nose.ac"]',
    );
  });

  it('says whether a declaration covers a use', () => {
    expect(declares(['tokenManager.userTenants:6'], 'tokenManager.userTenants:2')).toBe(true);
    expect(declares(['tokenManager.userTenants:2'], 'tokenManager.userTenants:6')).toBe(false);
    expect(declares(['tokenManager.userTenants:2'], 'tokenManager.userTenants')).toBe(true);
    expect(declares([['principals.withoutScope["nose.se"]']], 'principals.withoutScope')).toBe(true);
    expect(declares(['principals.otherTenant'], 'principals.noScopes')).toBe(false);
  });

  it('leaves fixtures found not ready out of what the tests read', () => {
    const f = readyFixtures(config, {
      'fixtures.eventManagement.sharedEventTypeId': { code: 'configuration', reason: 'HTTP 404' },
    });
    expect(f.eventManagement).toEqual({ entityIds: ['e1'] });
    expect((config.fixtures!.eventManagement as Record<string, unknown>).sharedEventTypeId).toBe('other.type');
  });
});
