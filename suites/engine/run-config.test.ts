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
      /tokenManager\.clientSecret: must be string/,
    );
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: creds, extra: 1 })).toThrow(
      /must NOT have additional properties "extra"/,
    );
    expect(() => validateRunConfig({ tokenManager: creds })).toThrow(/must have required property 'target'/);
    expect(() => validateRunConfig({ target: 'https://x' })).toThrow(ConfigError);
    expect(() => validateRunConfig({ target: 'https://x', tokenManager: creds, options: { concurrency: 0 } })).toThrow(
      /options\.concurrency/,
    );
  });
});
