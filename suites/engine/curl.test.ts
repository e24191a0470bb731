import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlOf, type CurlRequest } from './curl.ts';
import type { HttpClient } from './http-client.ts';
import type { RunConfig } from './run-config.ts';
import { TokenProvider, spaceAuthKey, type PrincipalName } from './token-provider.ts';

const app = (clientId: string, hostTenant = 'conformhost') => ({
  clientId,
  clientSecret: `${clientId}-secret-9f3a7c`,
  appName: 'conformanceapp',
  appVersion: '1.0.0',
  hostTenant,
});
const config: RunConfig = {
  target: 'http://127.0.0.1:1',
  tokenManager: app('conformance-full'),
  principals: {
    noScopes: app('conformance-noscopes'),
    otherTenant: app('conformance-other', 'otherhost'),
    throttled: { token: 'static-throttled-token-8c2d1e' },
    withoutScope: { 'nose.se': app('conformance-nose-se') },
  },
};

/** A token endpoint that issues a new JWT-shaped token at each request. */
let issued = 0;
const tokenEndpoint = {
  send: async () => ({
    status: 200,
    json: {
      access_token: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb25mb3JtYW5jZSJ9.sig${++issued}xyzABCDEFGH`,
      expires_in: 300,
    },
  }),
} as unknown as HttpClient;
const tokens = new TokenProvider(tokenEndpoint, config);

const request = (headers: Record<string, string>): CurlRequest => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/api/notification/v3/communicationcategories/',
  headers: { accept: 'application/json', ...headers },
});
const bearer = async (as: PrincipalName, tenant?: string) =>
  curlOf(request({ authorization: await tokens.authorization(as, tenant) }));

describe('the credential of a curl is the one the request was sent with', () => {
  it.each([
    ['full', 'CONFORMANCE_TOKEN', ''],
    ['otherTenant', 'CONFORMANCE_TOKEN_OTHERTENANT', ' --principal otherTenant'],
    ['noScopes', 'CONFORMANCE_TOKEN_NOSCOPES', ' --principal noScopes'],
    ['without:nose.se', 'CONFORMANCE_TOKEN_WITHOUT_NOSE_SE', ' --principal without:nose.se'],
    ['throttled', 'CONFORMANCE_TOKEN_THROTTLED', ' --principal throttled'],
  ] as const)(
    'a token of %s: its own variable, and the token command of that principal',
    async (as, variable, flag) => {
      const { command } = await bearer(as);
      expect(command).toContain(
        `-H "authorization: Bearer \${${variable}:?set it first: export ${variable}=\\$(npx conformance token --config YOUR-RUN.json${flag})}"`,
      );
    },
  );

  it.each([
    ['full', 'X-SPACE-AUTH-KEY', 'CONFORMANCE_SPACE_AUTH_KEY', ' --space-auth-key'],
    ['full', 'authorization', 'CONFORMANCE_SPACE_AUTH_KEY', ' --space-auth-key'],
    ['noScopes', 'X-SPACE-AUTH-KEY', 'CONFORMANCE_SPACE_AUTH_KEY_NOSCOPES', ' --principal noScopes --space-auth-key'],
  ] as const)('the key of %s in %s: the key the token command prints for it', (as, header, variable, flags) => {
    const key = spaceAuthKey(tokens.principal(as) as ReturnType<typeof app>);
    expect(curlOf(request({ [header]: key })).command).toContain(
      `-H "${header}: \${${variable}:?set it first: export ${variable}=\\$(npx conformance token --config YOUR-RUN.json${flags})}"`,
    );
  });

  it('a shell holding the main token stops at a curl sent as another principal, and says which token to get', async () => {
    const { command } = await bearer('otherTenant');
    const shell = spawnSync('bash', ['-c', `curl() { echo sent; }; ${command}`], {
      env: { PATH: process.env.PATH, CONFORMANCE_TARGET: 'http://127.0.0.1:1', CONFORMANCE_TOKEN: 'main' },
      encoding: 'utf8',
    });
    expect(shell.stdout).not.toContain('sent');
    expect(shell.stderr).toContain(
      'CONFORMANCE_TOKEN_OTHERTENANT: set it first: export CONFORMANCE_TOKEN_OTHERTENANT=$(npx conformance token --config YOUR-RUN.json --principal otherTenant)',
    );
  });

  it('a credential no principal of the run holds is never written, however harmless it looks: no curl, and why', () => {
    // An opaque token of a target's choosing looks like a word to redaction; a malformed one the test made too.
    for (const authorization of [
      'Bearer not-a-jwt',
      'Bearer ',
      'Bearer opaquetoken',
      'Basic Y29uZm9ybWFuY2U6c2VjcmV0',
    ]) {
      const curl = curlOf(request({ authorization }));
      expect(curl.command).toBeUndefined();
      expect(curl.noCurl).toMatch(
        /its authorization header carried a credential that "conformance token" does not print/,
      );
    }
    expect(curlOf(request({ 'x-api-key': 'abcdefgh' })).noCurl).toMatch(/x-api-key header carried a credential/);
  });

  it('a request whose text redaction would change gives no curl: a curl never sends something else', () => {
    const jwtShaped = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlc2lnbmF0dXJl';
    expect(curlOf({ ...request({}), body: JSON.stringify({ note: jwtShaped }) }).noCurl).toMatch(
      /a part of its request holds/,
    );
    expect(curlOf({ ...request({}), url: `http://h/x?clientSecret=abc` }).noCurl).toMatch(
      /a part of its request holds/,
    );
  });

  it('a credential made from a real one, or one the token command does not print, gives no curl but says why', async () => {
    const real = (await tokens.authorization('full')).replace(/^Bearer /, '');
    const [h, c, sig] = real.split('.');
    const wrongSecret = { ...app('conformance-full'), clientSecret: 'conformance-full-secret-9f3a7cx' };
    const cases: Array<[string, Record<string, string>]> = [
      ['a tampered token', { authorization: `Bearer ${h}.${c}.A${sig.slice(1)}` }],
      ['a key with a wrong secret', { 'x-space-auth-key': spaceAuthKey(wrongSecret) }],
      ['a token of another user tenant', { authorization: await tokens.authorization('full', 'subtenant-1') }],
    ];
    for (const [what, headers] of cases) {
      const curl = curlOf(request(headers));
      expect(curl.command, what).toBeUndefined();
      const header = Object.keys(headers)[0];
      expect(curl.noCurl, what).toBe(
        `its ${header} header carried a credential that "conformance token" does not print (one the test made, such as a malformed or tampered token or a key with a wrong secret, or one obtained for another user tenant or client), and a report never shows a credential`,
      );
      expect(JSON.stringify(curl), what).not.toContain(c);
    }
  });
});
