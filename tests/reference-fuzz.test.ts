import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../contracts/contract.ts';
import { SERVICES, SERVICE_INFO } from '../contracts/services.ts';
import { useReference } from '../fixtures/reference/test-support.ts';

const reference = useReference();
let bearer = '';
beforeAll(async () => {
  bearer = await reference.bearer();
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constant('x'.repeat(200_000)),
  fc.constantFrom(
    '{',
    '[1,',
    '{"a":}',
    'null',
    '"\u0000"',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
  ),
);
const pathValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('-1', '0', '9'.repeat(40), '..', '%00', 'null', 'a/b', ' ', '1e999'),
);
const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
);

interface Case {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  rawBody: boolean;
  contentType: string;
  auth: boolean;
}

describe('the reference deployment under generated bad input', () => {
  for (const service of SERVICES) {
    it(`never answers 5xx on any ${service} operation, and stays up`, async () => {
      const ops = listOperations(await loadContract(service));
      const base = `${reference.baseUrl()}${SERVICE_INFO[service].basePath}`;
      const failures: string[] = [];
      let sent = 0;
      for (const op of ops) {
        const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const queryNames = ((op.operation.parameters ?? []) as Array<{ in?: string; name?: string }>)
          .filter((p) => p.in === 'query')
          .map((p) => p.name!);
        const arb: fc.Arbitrary<Case> = fc.record({
          params: fc.record(Object.fromEntries(names.map((n) => [n, pathValue]))),
          query: fc.dictionary(
            fc.constantFrom(...queryNames, 'x', 'size', 'page'),
            fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('-1', '1e9', 'true', '[]', '{"typeId":{"not":1}}')),
          ),
          body: junk,
          rawBody: fc.boolean(),
          contentType,
          auth: fc.boolean(),
        });
        await fc.assert(
          fc.asyncProperty(arb, async (c) => {
            let path = op.path;
            for (const [k, v] of Object.entries(c.params)) path = path.replace(`{${k}}`, encodeURIComponent(v));
            const qs = new URLSearchParams(c.query).toString();
            const hasBody = !['get', 'head', 'delete'].includes(op.method);
            const headers: Record<string, string> = {};
            if (c.auth) headers.authorization = bearer;
            if (hasBody && c.contentType) headers['content-type'] = c.contentType;
            const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
              method: op.method.toUpperCase(),
              headers,
              body: hasBody ? (c.rawBody && typeof c.body === 'string' ? c.body : JSON.stringify(c.body)) : undefined,
            });
            await res.arrayBuffer();
            sent++;
            if (res.status >= 500) failures.push(`${op.method.toUpperCase()} ${path}?${qs} → ${res.status}`);
          }),
          { numRuns: RUNS, seed: 7 },
        );
      }
      const alive = await fetch(`${reference.baseUrl()}${SERVICE_INFO['event-management'].basePath}/`, {
        headers: { authorization: bearer },
      });
      process.stdout.write(
        `${service}: ${sent} generated bad requests over ${ops.length} operations, ${failures.length} answered 5xx\n`,
      );
      expect(failures.slice(0, 10)).toEqual([]);
      expect(alive.status).toBe(200);
    }, 120_000);
  }
});
