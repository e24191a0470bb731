import { describe, expect, it } from 'vitest';
import { toCurl } from './curl.ts';
import { REDACTED, redactHeaders, redactText, redactValue, registerSecret } from './redact.ts';

const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJ0ZW4iOiJ4In0.c2lnbmF0dXJlLXBhcnQ';

describe('redaction', () => {
  it('removes registered secrets, JWT-shaped strings and Basic/Bearer credentials', () => {
    registerSecret('s3cr3t-value');
    const text = redactText(`secret s3cr3t-value token ${jwt} Basic Y2xpZW50OnNlY3JldA== Bearer abcdefghij`);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain(jwt);
    expect(text).not.toContain('Y2xpZW50OnNlY3JldA==');
    expect(text).not.toContain('abcdefghij');
    expect(text).toContain(REDACTED);
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
});

describe('curl', () => {
  it('shell-quotes the request and never shows credentials', () => {
    const cmd = toCurl({
      method: 'post',
      url: "http://h/p?q=it's",
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: `{"name":"O'Brien"}`,
    });
    expect(cmd).toBe(
      `curl -sS -i -X POST 'http://h/p?q=it'\\''s' -H 'authorization: [REDACTED]' -H 'content-type: application/json' --data-raw '{"name":"O'\\''Brien"}'`,
    );
  });
});
