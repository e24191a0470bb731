import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import {
  createReferenceDeployment,
  startReference,
  type ReferenceDeployment,
  type RunningReference,
} from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// Rules whose tests have an other-tenant half: without the otherTenant principal that half does
// not run, and the rule must be reported skipped with the reason, never passed on the other half.
const HALVES = [
  'notification/categories/list',
  'notification/groups/search-by-name',
  'notification/groups/get-by-id',
  'notification/templates/list-details',
  'notification/templates/get-set',
  'notification/bounced/list',
];

let ref: RunningReference;
let tenantless: ReferenceDeployment;
let tenantlessUrl: string;
const dir = tempDir('halves');

/** A JWT with its `ten` claim taken out (the signature no longer matches; the suites do not verify it). */
function withoutTen(jwt: unknown): unknown {
  if (typeof jwt !== 'string' || jwt.split('.').length !== 3) return jwt;
  const [h, p, s] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  delete claims.ten;
  return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
}

beforeAll(async () => {
  ref = await startReference({ port: 0 });
  tenantless = await createReferenceDeployment();
  // Token answers whose JWTs carry no ten claim: nothing tells a client which tenant they are for.
  tenantless.app.addHook('onSend', async (request, _reply, payload) => {
    if (!/\/oauth\/token|\/oauthTokens/.test(request.url) || typeof payload !== 'string') return payload;
    const body = JSON.parse(payload) as {
      access_token?: unknown;
      oauthTokens?: Array<{ token?: { access_token?: unknown } }>;
    };
    if (body.access_token) body.access_token = withoutTen(body.access_token);
    for (const item of body.oauthTokens ?? [])
      if (item.token) item.token.access_token = withoutTen(item.token.access_token);
    return JSON.stringify(body);
  });
  await tenantless.app.listen({ host: '127.0.0.1', port: 0 });
  tenantlessUrl = `http://127.0.0.1:${(tenantless.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ref.close();
  await tenantless.app.close();
});

describe('a rule with a half not exercised', () => {
  it('is reported skipped, not passed, when the otherTenant principal is missing', async () => {
    const config = referenceRunConfig(ref, ref.baseUrl);
    delete config.principals!.otherTenant;
    const file = join(dir, 'no-other.json');
    writeFileSync(file, JSON.stringify(config));
    const reportDir = join(dir, 'report');
    const res = await runCli(
      [
        'run',
        '--config',
        file,
        '--service',
        'notification',
        ...HALVES.flatMap((r) => ['--rule', r]),
        '--report-dir',
        reportDir,
        '--runs',
        '2',
      ],
      { timeoutMs: 120_000 },
    );
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    expect(report.errors).toEqual([]);
    for (const id of HALVES) {
      const rule = report.rules.find((r) => r.id === id)!;
      expect({ id, status: rule.status }).toEqual({ id, status: 'skipped' });
      expect(rule.reason).toMatch(/otherTenant/);
    }
    expect(res.code).toBe(0);
  }, 150_000);
});

describe('a tenant check with no tenant claim to read', () => {
  it('is reported skipped, not passed, when the tokens carry no ten claim', async () => {
    const file = join(dir, 'tenantless.json');
    writeFileSync(file, JSON.stringify(referenceRunConfig(tenantless, tenantlessUrl)));
    const reportDir = join(dir, 'tenantless');
    // (tokens/host-tenant-as-user-tenant no longer reads the claim: the document names none, so
    // that the host tenant's token is its own is judged by GET /userTenants taking it.)
    const rules = [
      'technical-token-manager/identification/user-tenant-token',
      'technical-token-manager/tokens-response/one-token-per-user-tenant',
    ];
    await runCli(
      [
        'run',
        '--config',
        file,
        '--service',
        'technical-token-manager',
        ...rules.flatMap((r) => ['--rule', r]),
        '--report-dir',
        reportDir,
      ],
      { timeoutMs: 120_000 },
    );
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    for (const id of rules) {
      const rule = report.rules.find((r) => r.id === id)!;
      expect({ id, status: rule.status }).toEqual({ id, status: 'skipped' });
      expect(rule.reason).toMatch(/ten claim/);
    }
  }, 150_000);
});
