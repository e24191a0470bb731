import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';

const config = {
  target: 'https://staging.example.com',
  tokenManager: { clientId: 'c', clientSecret: 's3cret', appName: 'a', appVersion: '1', hostTenant: 't' },
};

describe('loadRunConfig', () => {
  it('reads --config when given, whatever CONFORMANCE_CONFIG holds', () => {
    const file = join(tempDir('config-source'), 'run.json');
    writeFileSync(file, JSON.stringify(config));
    expect(loadRunConfig(file, { [CONFIG_ENV]: '{"target": 1}' })).toEqual({
      config,
      origin: file,
      targetFrom: 'configuration',
    });
  });

  it('parses CONFORMANCE_CONFIG when --config is absent, and is undefined when neither is set', () => {
    expect(loadRunConfig(undefined, { [CONFIG_ENV]: JSON.stringify(config) })).toEqual({
      config,
      origin: CONFIG_ENV,
      targetFrom: 'configuration',
    });
    expect(loadRunConfig(undefined, {})).toBeUndefined();
    expect(loadRunConfig(undefined, { [CONFIG_ENV]: '  ' })).toBeUndefined();
  });

  it('names the variable and the wrong field, never the secret it holds', () => {
    expect(() => loadRunConfig(undefined, { [CONFIG_ENV]: '{"target": "s3cret' })).toThrow(
      /^CONFORMANCE_CONFIG \(the run configuration itself\) is not valid JSON: line 1, column 19: expected a closing double quote \(the text ends\)$/,
    );
    expect(() => loadRunConfig(undefined, { [CONFIG_ENV]: '{"target": "s3cret' })).not.toThrow(/s3cret/);
    expect(() => loadRunConfig(undefined, { [CONFIG_ENV]: JSON.stringify({ ...config, target: 1 }) })).toThrow(
      /^CONFORMANCE_CONFIG is not valid: target: must be string/,
    );
  });

  it('takes --target into a configuration that leaves target out (a secret shared by several targets)', () => {
    const { target: _, ...withoutTarget } = config;
    const file = join(tempDir('config-source'), 'no-target.json');
    writeFileSync(file, JSON.stringify(withoutTarget));
    const given = 'https://other.example.com';
    expect(loadRunConfig(file, {}, given)?.config.target).toBe(given);
    expect(loadRunConfig(undefined, { [CONFIG_ENV]: JSON.stringify(withoutTarget) }, given)?.config.target).toBe(given);
    // --target replaces the configuration's own, and is validated like it.
    expect(loadRunConfig(undefined, { [CONFIG_ENV]: JSON.stringify(config) }, given)?.config.target).toBe(given);
    expect(() => loadRunConfig(file, {}, 'https://other.example.com/api')).toThrow(
      /with --target: target .* has a path/,
    );
    // Without --target, a configuration without target is still refused, naming the field.
    expect(() => loadRunConfig(file, {})).toThrow(/must have required property 'target'/);
  });
});
