import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { collectTests } from '../cli/readiness.ts';
import { servedConfig } from '../cli/serve-command.ts';
import { loadRules } from '../contracts/catalog.ts';
import { contractScopes } from '../contracts/contract.ts';
import { createReferenceDeployment } from '../fixtures/reference/server.ts';
import { BUILT_IN_DIALECTS } from '../suites/engine/filter-dialect.ts';
import {
  RUN_CONFIG_SCHEMA,
  RUN_CONFIG_SCHEMA_FILE,
  configSchemaReference,
  describeKey,
  schemaNodeAt,
  validateRunConfig,
} from '../suites/engine/run-config.ts';
import { fixtureTable } from './config-schema-docs.ts';
import { docText, matchesOf } from './readme-text.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const creds = { clientId: 'c', clientSecret: 's', appName: 'a', appVersion: '1', hostTenant: 'h' };
/** The pages that show run configurations: the README's short one, and the reference of every key. */
const PAGES = ['README.md', 'docs/configuration.md'];

/** The run configurations a page shows: its JSON blocks with a target or a token manager. */
function shownConfigurations(page: string): unknown[] {
  return matchesOf(docText(page), /```json\n([\s\S]*?)```/g)
    .map((m) => m.groups[0])
    .filter((text) => /"(target|tokenManager)"/.test(text))
    .map((text) => JSON.parse(text) as unknown);
}

describe('the run configuration’s JSON Schema', () => {
  it('is a valid draft-07 schema that ships with the package and is exported', async () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats.default(ajv);
    expect(() => ajv.compile(RUN_CONFIG_SCHEMA)).not.toThrow();
    const pkg = JSON.parse(docText('package.json')) as { files: string[]; exports: Record<string, string> };
    expect(resolve(root, pkg.exports['./run-config.schema.json'])).toBe(RUN_CONFIG_SCHEMA_FILE);
    expect(pkg.files).toContain('suites/');
  });

  it('validates every configuration the README, docs/configuration.md and `serve --write-config` show', async () => {
    const shown = PAGES.flatMap((page) => {
      const configs = shownConfigurations(page);
      expect(configs.length, `${page} shows no run configuration`).toBeGreaterThan(0);
      return configs;
    });
    const deployment = await createReferenceDeployment({});
    const file = join(tempDir('config-schema'), 'run.json');
    const served = servedConfig({ ...deployment, baseUrl: 'http://127.0.0.1:4010' }, file);
    for (const config of [...shown, served]) expect(() => validateRunConfig(config)).not.toThrow();
    await deployment.app.close();
  });

  it('is named by the configuration serve writes, as a path that resolves from the file’s folder', async () => {
    const deployment = await createReferenceDeployment({});
    for (const file of [join(root, 'run.json'), join(tempDir('config-schema'), 'nested', 'run.json')]) {
      const config = servedConfig({ ...deployment, baseUrl: 'http://127.0.0.1:4010' }, file);
      expect(config.$schema).toMatch(/^\.{1,2}\//);
      expect(resolve(dirname(file), config.$schema!)).toBe(RUN_CONFIG_SCHEMA_FILE);
    }
    // In a clone, beside the package's own files; installed, under node_modules (packed-install.test.ts).
    expect(configSchemaReference(join(root, 'run.json'))).toBe('./suites/engine/run-config.schema.json');
    expect(existsSync(fileURLToPath(new URL('../suites/engine/run-config.schema.json', import.meta.url)))).toBe(true);
    await deployment.app.close();
  });

  it('describes every piece a test declares it needs, and names only rules that need it', async () => {
    const tests = await collectTests({ target: 'http://127.0.0.1:1', tokenManager: creds });
    const rulesOf = new Map<string, Set<string>>();
    for (const t of tests)
      for (const need of t.needs ?? [])
        for (const key of typeof need === 'string' ? [need] : need) {
          const base = key.replace(/:\d+$/, '');
          rulesOf.set(base, new Set([...(rulesOf.get(base) ?? []), ...t.rules]));
        }
    const catalog = new Set(loadRules().map((r) => r.id));
    expect(rulesOf.size).toBeGreaterThan(20);
    for (const [key, rules] of rulesOf) {
      const description = describeKey(key);
      expect(description, key).toBeTruthy();
      for (const id of description!.match(
        /\b(?:technical-token-manager|notification|event-management)\/[a-z0-9-]+\/[a-z0-9-]+/g,
      ) ?? []) {
        expect(catalog.has(id), `${key} names ${id}`).toBe(true);
        expect(rules.has(id), `${key} names ${id}, which no test that needs it judges`).toBe(true);
      }
    }
    // Every key the schema has is described, also those no test declares (the 429 rules' principal).
    const undescribed: string[] = [];
    const walk = (node: typeof RUN_CONFIG_SCHEMA, at: string) => {
      for (const [k, child] of Object.entries(node.properties ?? {})) {
        if (k !== '$schema' && !schemaNodeAt(`${at}${k}`)?.description) undescribed.push(`${at}${k}`);
        walk(child, `${at}${k}.`);
      }
    };
    walk(RUN_CONFIG_SCHEMA, '');
    expect(undescribed).toEqual([]);
  });

  it('takes the built-in dialects and the contracts’ scopes the tool knows', () => {
    expect(schemaNodeAt('filterDialect')?.oneOf?.[0].enum).toEqual(Object.keys(BUILT_IN_DIALECTS));
    expect(schemaNodeAt('principals.withoutScope')?.propertyNames?.enum).toEqual([...contractScopes().keys()]);
  });

  it('is where the fixture table of docs/configuration.md comes from', () => {
    const table = fixtureTable();
    expect(
      docText('docs/configuration.md'),
      `docs/configuration.md's fixture table is not the schema's; it reads:\n${table}`,
    ).toContain(`\n${table}\n`);
  });
});

describe('a configuration of the wrong shape', () => {
  const refusal = (fixtures: unknown) => {
    try {
      validateRunConfig({ target: 'https://x.example', tokenManager: creds, fixtures });
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it.each([
    [
      'sub-tenant entities as a list',
      { eventManagement: { subTenantEntityIds: ['e1', 'e2'] } },
      'fixtures.eventManagement.subTenantEntityIds: must be an object keyed by sub-tenant ID',
    ],
    [
      'address types as a list',
      { notification: { addressTypes: [1, 3] } },
      'fixtures.notification.addressTypes: must be an object keyed email, officeEmail, phone, push, iosPush',
    ],
    [
      'channels by another name',
      { notification: { channels: { mail: 1 } } },
      'fixtures.notification.channels: an unknown key of 4 characters (the keys are email, sms, push)',
    ],
    [
      'entities as one string',
      { eventManagement: { entityIds: 'e1' } },
      'fixtures.eventManagement.entityIds: must be a list (JSON array) of strings',
    ],
    [
      'a channel ID as text',
      { notification: { channels: { sms: '2' } } },
      'fixtures.notification.channels.sms: must be a whole number',
    ],
  ])('%s: a message about the shape', (_, fixtures, message) => {
    expect(refusal(fixtures)).toContain(message);
  });
});
