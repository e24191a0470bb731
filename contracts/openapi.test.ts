import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from './contract.ts';
import { SERVICES, SERVICE_INFO } from './services.ts';

describe('OpenAPI contracts', () => {
  for (const service of SERVICES) {
    describe(service, () => {
      it('is a valid OpenAPI 3.1 document', async () => {
        const doc = await loadContract(service);
        expect(doc.openapi).toMatch(/^3\.1\./);
        expect(doc.info.version).toBe(SERVICE_INFO[service].version);
      });

      it('serves at the documented base path', async () => {
        const doc = await loadContract(service);
        expect(doc.servers?.length).toBeGreaterThan(0);
        for (const s of doc.servers ?? []) expect(s.url.endsWith(SERVICE_INFO[service].basePath)).toBe(true);
      });

      it('gives every operation a unique operationId, responses and security', async () => {
        const ops = listOperations(await loadContract(service));
        const ids = ops.map((o) => o.operation.operationId);
        expect(ids.every(Boolean)).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
        for (const o of ops) {
          expect(Object.keys(o.operation.responses ?? {}).length, o.operationId).toBeGreaterThan(0);
          expect(o.operation.security, `${o.operationId} declares its security`).toBeDefined();
        }
      });
    });
  }
});
