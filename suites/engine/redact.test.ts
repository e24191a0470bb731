import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { TARGET_FROM_ENVIRONMENT, noteCredentialSource, toCurl } from './curl.ts';
import { MARKER_CLAIMS_LIMIT, bearerMarker, claimsOfAuthorization, harEntry } from './har.ts';
import type { Exchange } from './http-client.ts';
import {
  REDACTED,
  isRegisteredSecret,
  redactHeaders,
  redactText,
  redactValue,
  registerCredentials,
  registerIssuedToken,
  registerIssuedTokens,
  registerSecret,
  MAX_ISSUED_TOKENS,
} from './redact.ts';
import { spaceAuthKey } from './token-provider.ts';

const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJ0ZW4iOiJ4In0.c2lnbmF0dXJlLXBhcnQ';

describe('redaction', () => {
  it('removes registered secrets, JWT-shaped strings and Basic/Bearer credentials', () => {
    registerSecret('s3cr3t-value');
    const text = redactText(`secret s3cr3t-value token ${jwt} Basic Y2xpZW50OnNlY3JldA== Bearer abcdefgh1j`);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain(jwt);
    expect(text).not.toContain('Y2xpZW50OnNlY3JldA==');
    expect(text).not.toContain('abcdefgh1j');
    expect(text).toContain(REDACTED);
  });

  it.each([
    ['a bearer value of letters only', 'JWT bearer technical token'],
    ['the Basic scheme named in prose', 'use Basic authentication with the client ID'],
    ['a short bearer word', 'a Bearer abcdefghij value'],
  ])('leaves %s as written', (_what, text) => {
    expect(redactText(text)).toBe(text);
  });

  it('redacts a registered client key however it is encoded: base64 padded, unpadded, url-safe, URL-escaped', () => {
    const id = 'client-redact-test';
    const secret = 'k?>~S3cr3t+/-_value';
    registerCredentials(id, secret);
    const pair = Buffer.from(`${id}:${secret}`);
    const forms = [
      secret,
      encodeURIComponent(secret),
      pair.toString('base64'),
      pair.toString('base64').replace(/=+$/, ''),
      pair.toString('base64url'),
      encodeURIComponent(pair.toString('base64')),
    ];
    for (const f of forms) expect(redactText(`x-echo: ${f};`), f).toBe(`x-echo: ${REDACTED};`);
  });

  it('redacts a secret registered in another thread', async () => {
    const secret = 'registered-in-a-worker-7f3a9c';
    const worker = new Worker(
      `import { register } from 'tsx/esm/api'; register();
       const { registerSecret } = await import(${JSON.stringify(new URL('./redact.ts', import.meta.url).href)});
       registerSecret(${JSON.stringify(secret)});`,
      { eval: true, type: 'module' } as ConstructorParameters<typeof Worker>[1],
    );
    await new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
    await expect.poll(() => redactText(`echo ${secret}`)).toBe(`echo ${REDACTED}`);
  });

  it('redacts a token cut short, whatever segment it was cut in', () => {
    for (const cut of [jwt.slice(0, 20), jwt.slice(0, jwt.indexOf('.') + 4), jwt.slice(0, jwt.lastIndexOf('.') + 2)]) {
      const text = redactText(`{"access_token":"${cut}`);
      expect(text).toBe(`{"access_token":"${REDACTED}`);
    }
  });

  it('redacts credential fields of JSON bodies kept as text', () => {
    expect(redactText('{"refresh_token":"r-123","token_type":"bearer","client_secret":"abc"}')).toBe(
      `{"refresh_token":"${REDACTED}","token_type":"bearer","client_secret":"${REDACTED}"}`,
    );
    expect(redactText('{"access_token":"cut-sho')).toBe(`{"access_token":"${REDACTED}`);
    // Cut short at the end of a line: the lines after it are not taken for its value.
    expect(redactText('{"access_token":"cut-sho\n  Reproduce with:\n  curl "x"')).toBe(
      `{"access_token":"${REDACTED}\n  Reproduce with:\n  curl "x"`,
    );
  });

  it('redacts credential headers whatever their case', () => {
    const h = redactHeaders({ Authorization: 'Bearer x', 'X-SPACE-AUTH-KEY': 'Basic y', accept: 'application/json' });
    expect(h).toEqual({ Authorization: REDACTED, 'X-SPACE-AUTH-KEY': REDACTED, accept: 'application/json' });
  });

  it('redacts secrets nested in values', () => {
    expect(redactValue({ a: [{ clientSecret: 'x', access_token: 'y', note: `t ${jwt}` }] })).toEqual({
      a: [{ clientSecret: REDACTED, access_token: REDACTED, note: `t ${REDACTED}` }],
    });
  });

  it('never changes a key, but for the header names a target sent', () => {
    registerSecret('key-like-value-91');
    expect(redactValue({ 'key-like-value-91': 1, headers: { 'x-key-like-value-91': 'v key-like-value-91' } })).toEqual({
      'key-like-value-91': 1,
      headers: { [`x-${REDACTED}`]: `v ${REDACTED}` },
    });
  });
});

describe('a target that sends huge or many tokens', () => {
  // Tokens of 40 KiB and more once made one regular expression of every secret too large for V8,
  // whose error quoted every secret.
  it.each([40 * 1024, 64 * 1024, 1024 * 1024])('redacts an issued token of %i characters, whole or cut', (size) => {
    const token = `${'tok9'.repeat(size / 4 - 1)}${String(size).slice(-4).padStart(4, 'z')}`;
    registerIssuedToken(token);
    const secretOfConfig = `cfg-secret-${size}-x`;
    registerSecret(secretOfConfig);
    expect(() => redactText('nothing here')).not.toThrow();
    expect(redactText(`a ${token} b ${secretOfConfig} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`);
    expect(redactText(`cut ${token.slice(0, 8192)}…(${size} bytes)`)).toBe(`cut ${REDACTED}…(${size} bytes)`);
  });

  it("never takes a target's word for a secret: short tokens and the report's own words stay readable", () => {
    for (const word of ['event-management', 'startedAt', 'technical-token-manager/tokens-payload/invalid-user-tenant'])
      registerIssuedTokens({ access_token: word, id_token: word, refresh_token: word });
    expect(isRegisteredSecret('event-management')).toBe(false);
    expect(isRegisteredSecret('startedAt')).toBe(false);
    expect(redactText('event-management/events/severity-range startedAt')).toBe(
      'event-management/events/severity-range startedAt',
    );
  });

  it('registers the tokens of a POST /oauthTokens answer, at any position of its list', () => {
    const tokens = ['first-token-0123456789abcdef', 'second-token-0123456789abcdef', 'third-token-0123456789abcde'];
    registerIssuedTokens({
      oauthTokens: tokens.map((access_token) => ({ userTenantId: 't', token: { access_token } })),
    });
    for (const tok of tokens) expect(redactText(`>${tok}<`)).toBe(`>${REDACTED}<`);
  });
});

describe('a key built from a secret', () => {
  // A wrong key the suite sends (the secret with a character added, an unknown client with the
  // real secret) decodes to the real secret: it is registered before it can be echoed.
  it('is registered as soon as it is built', () => {
    const id = 'client-derived-keys';
    const secret = 'derived-S3cret-value';
    const wrongSecret = spaceAuthKey({ clientId: id, clientSecret: `${secret}x` }).slice('Basic '.length);
    const unknownClient = spaceAuthKey({ clientId: 'p-unknown', clientSecret: secret }).slice('Basic '.length);
    for (const key of [wrongSecret, unknownClient]) expect(redactText(`echo ${key};`)).toBe(`echo ${REDACTED};`);
  });
});

describe('the documents', () => {
  // Their quotes, statements and notes reach the report as written: none is taken for a credential.
  const texts = loadRules().flatMap((r) => [
    r.source.quote,
    r.statement,
    ...(r.note ? [r.note] : []),
    ...(r.readings ?? []).map((x) => x.reading),
  ]);

  it('are quoted unchanged by the redactor', () => {
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((t) => redactText(t) !== t).map((t) => ({ text: t, redacted: redactText(t) }))).toEqual([]);
  });
});

describe('a HAR entry', () => {
  it('passes every copied field through the redactor: URL, query, headers, mimeType, redirectURL, params', () => {
    const token = 'opaque-token-0b1c2d3e4f5a6b7c';
    registerSecret(token);
    const exchange: Exchange = {
      request: {
        method: 'get',
        url: `http://h/p/${token}?t=${token}`,
        headers: { authorization: `Bearer ${token}`, [`x-${token}`]: token },
        form: [{ name: 'n', value: token }],
      },
      response: {
        status: 302,
        headers: {
          'content-type': `application/json; echo="${token}"`,
          location: `http://h/${token}`,
          'set-cookie': `a=${token}`,
          [`x-echo-${token}`]: `Bearer ${token}`,
        },
        body: JSON.stringify({ echo: token }),
      },
      error: `failed with ${token}`,
      curl: '',
    };
    const entry = harEntry(exchange);
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(entry.response.content.mimeType).toBe(`application/json; echo="${REDACTED}"`);
    expect(entry.response.redirectURL).toBe(`http://h/${REDACTED}`);
  });
});

describe('curl', () => {
  it('shell-quotes the request and never shows credentials', () => {
    // The main principal's token, as the token provider notes it.
    noteCredentialSource(`Bearer ${jwt}`, { principal: 'full', kind: 'token' });
    const cmd = toCurl({
      method: 'post',
      url: "http://h/p?q=it's",
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: `{"name":"O'Brien"}`,
    });
    expect(cmd).toBe(
      `curl -sS -i -X POST ${TARGET_FROM_ENVIRONMENT}'/p?q=it'\\''s' -H "authorization: Bearer \${CONFORMANCE_TOKEN:?set it first: export CONFORMANCE_TOKEN=\\$(npx conformance token --config YOUR-RUN.json)}" -H 'content-type: application/json' --data-raw '{"name":"O'\\''Brien"}'`,
    );
    expect(cmd).not.toContain(jwt);
  });
});

// Last: it fills the share of a target's tokens for the rest of the file.
describe('a target that floods the run with tokens', () => {
  it("keeps the configuration's secrets once a target's tokens have filled their share, and never throws", () => {
    for (let i = 0; i < MAX_ISSUED_TOKENS + 50; i++) registerIssuedToken(`flood-token-${i}-${'q'.repeat(20)}`);
    registerSecret('still-a-secret-after-the-flood');
    expect(() => redactText('x'.repeat(100_000))).not.toThrow();
    expect(redactText('echo flood-token-3-qqqqqqqqqqqqqqqqqqqq.')).toBe(`echo ${REDACTED}.`);
  });
});

describe('credential names', () => {
  const secret = 'named-credential-5e6f7a8b';
  const spellings = ['client_secret', 'clientSecret', 'Client-Secret', 'password', 'newPassword', 'api_key', 'token'];

  it.each(spellings)('redact a query parameter or form field named %s, in a URL, a form body and any text', (name) => {
    expect(redactText(`http://h/p?limit=5&${name}=${secret}&x=1`)).toBe(`http://h/p?limit=5&${name}=${REDACTED}&x=1`);
    expect(redactText(`${name}=${secret}&grant_type=client_credentials`)).toBe(
      `${name}=${REDACTED}&grant_type=client_credentials`,
    );
    expect(redactText(`GET /p?${name}=${secret} HTTP/1.1`)).toBe(`GET /p?${name}=${REDACTED} HTTP/1.1`);
  });

  it('leave parameters of other names as written, and the words of prose', () => {
    const text = 'http://h/p?token_type=bearer&limit=5&tokens=2 with a password policy and token=';
    expect(redactText(text)).toBe(text);
  });

  it('redact a header of a credential name: X-Api-Key, whatever its case', () => {
    expect(redactHeaders({ 'X-Api-Key': secret, 'x-request-id': 'r-1' })).toEqual({
      'X-Api-Key': REDACTED,
      'x-request-id': 'r-1',
    });
  });

  it("keep no credential in a HAR entry's URL, queryString, urlencoded body, multipart params or headers", () => {
    const url = `http://h/api/eventmanagement/v3/events?clientSecret=${secret}&client_secret=${secret}&password=${secret}&limit=5`;
    const query = harEntry({
      request: { method: 'GET', url, headers: { 'x-api-key': secret } },
      response: { status: 200, headers: {}, body: '' },
      curl: '',
    });
    const form = harEntry({
      request: {
        method: 'POST',
        url: 'http://h/api/technicaltokenmanager/v3/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=c&client_secret=${secret}`,
      },
      response: { status: 200, headers: {}, body: '' },
      curl: '',
    });
    const multipart = harEntry({
      request: {
        method: 'POST',
        url: 'http://h/p',
        headers: {},
        form: [
          { name: 'password', value: secret },
          { name: 'n', value: 'v' },
        ],
      },
      response: { status: 200, headers: {}, body: '' },
      curl: '',
    });
    for (const e of [query, form, multipart]) expect(JSON.stringify(e)).not.toContain(secret);
    expect(query.request.queryString).toEqual([
      { name: 'clientSecret', value: REDACTED },
      { name: 'client_secret', value: REDACTED },
      { name: 'password', value: REDACTED },
      { name: 'limit', value: '5' },
    ]);
    expect(form.request.postData?.text).toBe(`grant_type=client_credentials&client_id=c&client_secret=${REDACTED}`);
    expect(multipart.request.postData?.params).toEqual([
      { name: 'password', value: REDACTED },
      { name: 'n', value: 'v' },
    ]);
  });
});

describe("a bearer token's marker", () => {
  const b64u = (s: string) => Buffer.from(s).toString('base64url');
  const bearer = (claims: object) => `Bearer ${b64u('{"alg":"none"}')}.${b64u(JSON.stringify(claims))}.`;

  it('keeps the claims scope and tenant rules need', () => {
    const marker = bearerMarker(bearer({ scope: ['em.r', 'em.c'], ten: 'home', sub: 'who' }));
    expect(marker).toBe('Bearer [REDACTED claims {"scope":["em.r","em.c"],"ten":"home"}]');
    expect(claimsOfAuthorization(marker)).toEqual({ scope: ['em.r', 'em.c'], ten: 'home' });
  });

  it('is bounded whatever the size of the token: a claim that does not fit is left out whole, and named', () => {
    const scope = Array.from({ length: 30000 }, (_, i) => `scope${i}`);
    const marker = bearerMarker(bearer({ scope, ten: 'home', exp: 7 }));
    expect(marker.length).toBeLessThan(MARKER_CLAIMS_LIMIT + 100);
    const size = JSON.stringify(scope).length;
    expect(marker).toBe(`Bearer [REDACTED claims {"ten":"home","exp":7} (left out: scope, ${size} characters)]`);
    // No scope list read from a marker that left it out: its scope rules are not judged from it.
    expect(claimsOfAuthorization(marker)).toEqual({ ten: 'home', exp: 7 });
    // A marker marked again keeps what it left out named.
    expect(bearerMarker(marker)).toBe(marker);
  });
});
