import { describe, expect, it } from 'vitest';
import { ConfigError, validateRunConfig } from './run-config.ts';

const creds = { clientId: 'c', clientSecret: 's', appName: 'a', appVersion: '1', hostTenant: 'h' };

describe('run configuration', () => {
  it('accepts the documented shape', () => {
    expect(validateRunConfig({ target: 'https://example.test', tokenManager: creds }).target).toBe(
      'https://example.test',
    );
    expect(validateRunConfig({ target: 'https://example.test', principals: { full: { token: 't' } } })).toBeTruthy();
  });

  it('names the field and what is wrong', () => {
    expect(() => validateRunConfig({ target: 'ftp://x', tokenManager: creds })).toThrow(/target: must match pattern/);
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: { ...creds, clientSecret: 3 } })).toThrow(
      /tokenManager\.clientSecret: must be a string/,
    );
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: creds, extra: 1 })).toThrow(
      /\(top level\): an unknown key of 5 characters \(the keys are target, tokenManager, principals,/,
    );
    expect(() =>
      validateRunConfig({ target: 'https://x', tokenManager: creds, principals: { withoutScope: { 'em.c': 1 } } }),
    ).toThrow(/principals\.withoutScope\["em\.c"\]: must be an object with clientId, .* or an object with token$/);
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: creds, filterDialect: 'sql' })).toThrow(
      /filterDialect: must be one of default, json-operators, or an object with module$/,
    );
    expect(() => validateRunConfig({ tokenManager: creds })).toThrow(/must have required property 'target'/);
    expect(() => validateRunConfig({ target: 'https://x' })).toThrow(ConfigError);
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: creds, options: { concurrency: 0 } })).toThrow(
      /options\.concurrency/,
    );
  });

  it("refuses a secret that is one of the report's own words, naming its key and not its value", () => {
    for (const [config, key] of [
      [{ tokenManager: { ...creds, clientSecret: 'token' } }, 'tokenManager.clientSecret'],
      [{ tokenManager: creds, principals: { otherTenant: { token: 'Bearer' } } }, 'principals.otherTenant.token'],
      [
        {
          tokenManager: creds,
          principals: { withoutScope: { 'nose.se': { ...creds, clientSecret: 'notification' } } },
        },
        'principals.withoutScope["nose.se"].clientSecret',
      ],
    ] as const) {
      let message = '';
      try {
        validateRunConfig({ target: 'https://x', ...config });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(`${key} (`);
      expect(message).toMatch(/occurs in the report's own words/);
      for (const word of ['token', 'Bearer', 'notification']) expect(message).not.toContain(` ${word} `);
    }
    // Shorter than any secret redacted, or not a word of the report: taken.
    expect(
      validateRunConfig({ target: 'https://x', tokenManager: { ...creds, clientSecret: 'x7Qz-9fLw2' } }),
    ).toBeTruthy();
  });
});
