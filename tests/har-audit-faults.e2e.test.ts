import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHar } from '../audit/read-har.ts';
import { roundTrip } from '../audit/round-trip.ts';
import { referenceStarter } from './har-audit-support.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const dir = tempDir('har-faults');
const { runAndAudit } = referenceStarter(dir);

describe("a run's exchanges.har against a fault variant", () => {
  for (const [fault, service, rule] of [
    [
      'missing-space-auth-key-accepted',
      'technical-token-manager',
      'technical-token-manager/auth/space-auth-key-required',
    ],
    ['stale-if-match-accepted-on-put', 'event-management', 'event-management/etags/update-event-stale-412'],
    ['scope-not-checked-on-recipients', 'notification', 'notification/auth/scope-admin'],
  ] as const) {
    it(`audited offline, a run against ${fault} fails ${rule} as the run does, and agrees on every other passive rule`, async () => {
      const glob = `${rule.split('/').slice(0, 2).join('/')}/*`;
      const { report, out } = await runAndAudit([fault], ['--service', service, '--rule', glob]);
      expect(report.rules.find((r) => r.id === rule)?.status).toBe('failed');
      const rt = roundTrip(report, readHar(join(out, 'exchanges.har')));
      expect(rt.differences).toEqual([]);
      expect(rt.compared).toBeGreaterThan(0);
      const res = await runCli(['audit', join(out, 'exchanges.har'), '--report-dir', join(out, 'audit')]);
      expect(res.code).toBe(1);
    }, 240_000);
  }
});
