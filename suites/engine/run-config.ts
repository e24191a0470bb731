import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { contractScopes } from '../../contracts/contract.ts';
import { ConfigError } from './config-error.ts';
import { jsonSyntaxErrorText } from './json-syntax-error.ts';
import { hidesOwnWords } from './redact.ts';
import { INPUT_BOUNDS, readBoundedFile, UntrustedInputError } from '../../reporters/untrusted-input.ts';
import { resolveDialectSetting, type FilterDialectSetting } from './filter-dialect.ts';

/** Client credentials of one application registered with the deployment's token manager. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  appName: string;
  appVersion: string;
  hostTenant: string;
  /** Tenant the principal's tokens are for (default: the host tenant). */
  userTenant?: string;
}

/** A principal is either client credentials (tokens fetched and renewed) or a static bearer token. */
export type PrincipalConfig = ClientCredentials | { token: string };

/**
 * The run configuration: the format `conformance serve --write-config` writes and
 * `conformance run --config` reads. Users fill in the same file for their own deployment.
 */
export interface RunConfig {
  /** Where editors find the JSON Schema (`configSchemaReference`); the tool ignores it. */
  $schema?: string;
  target: string;
  /** The fully granted application; its host tenant is the tenant the suites work in. */
  tokenManager?: ClientCredentials & { userTenants?: string[] };
  principals?: {
    /** Fully granted principal given as a static token, for deployments without a token manager. */
    full?: PrincipalConfig;
    /** An application granted none of the services' scopes (for 403 rules). */
    noScopes?: PrincipalConfig;
    /** A fully granted application of a second tenant (for cross-tenant rules). */
    otherTenant?: PrincipalConfig;
    /** An application of the one operator tenant whose certificate listing shows every tenant's (optional). */
    operator?: PrincipalConfig;
    /** A fully granted application that `--probe-throttling` bursts with (default: the full one). */
    throttled?: PrincipalConfig;
    /** Per scope, an application granted every scope but that one (for per-operation 403 rules). */
    withoutScope?: Record<string, PrincipalConfig>;
  };
  /** Identifiers of data seeded on the deployment that some rules need (see the README). */
  fixtures?: Record<string, unknown>;
  /**
   * How the deployment spells event management filters and sorts: a built-in's name (`default`,
   * `json-operators`) or `{ module }`, a file exporting `encodeFilter` and `encodeSort` (a path
   * relative to the configuration file). Default: the suite's own conventions.
   */
  filterDialect?: FilterDialectSetting;
  /** Options that the command line may override. */
  options?: { rate?: number; concurrency?: number; timeout?: number; runs?: number };
}

/** Where the configuration's JSON Schema is: it ships with the package, for editors and for this validator. */
export const RUN_CONFIG_SCHEMA_FILE = fileURLToPath(new URL('./run-config.schema.json', import.meta.url));

/**
 * The JSON Schema of the run configuration (`run-config.schema.json`): every key with its shape,
 * what it means and which rules need it. The validator, doctor's texts and the README's
 * configuration section read it.
 */
export const RUN_CONFIG_SCHEMA = JSON.parse(readFileSync(RUN_CONFIG_SCHEMA_FILE, 'utf8')) as SchemaNode;

/**
 * How a configuration written to `configFile` names its schema for editors: the path of the
 * schema this package ships, relative to the file's folder (`./node_modules/platform-conformance/…`
 * when the package is installed in the project the file is in), else as a file URL.
 */
export function configSchemaReference(configFile: string): string {
  const rel = relative(dirname(resolve(configFile)), RUN_CONFIG_SCHEMA_FILE);
  if (isAbsolute(rel)) return pathToFileURL(RUN_CONFIG_SCHEMA_FILE).href;
  const posix = rel.split(sep).join('/');
  return posix.startsWith('.') ? posix : `./${posix}`;
}

export { ConfigError };

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(RUN_CONFIG_SCHEMA);

/** A URL's parts, or undefined when it does not parse. */
function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Why a target URL is not the host root the suites need (they add `/api/<service>/v3` to it),
 * or undefined when it is one. `serve` prints each service's base URL, which is the usual slip.
 * The message shows the URL without what could be a secret: no user or password, no query.
 */
export function targetRootProblem(target: string): string | undefined {
  const url = parsedUrl(target); // undefined: the schema names a URL that does not parse
  if (!url) return undefined;
  const extras = [
    url.pathname === '/' ? '' : `a path (${url.pathname})`,
    url.search ? 'a query' : '',
    url.hash ? 'a fragment' : '',
  ].filter(Boolean);
  return extras.length
    ? `${url.origin}${url.pathname} has ${extras.join(' and ')}: give the host root (${url.origin}); the tool adds /api/<service>/v3`
    : undefined;
}

/** Why a target URL carries credentials (`https://user:password@host`), or undefined: the credentials are never shown. */
function targetCredentialsProblem(target: string): string | undefined {
  const url = parsedUrl(target);
  return url?.username || url?.password
    ? `target ${url.origin} carries a user name or password before its host: give the host root alone; credentials belong in tokenManager or principals`
    : undefined;
}

/** A node of the configuration's JSON Schema, as far as the messages read it. */
export interface SchemaNode {
  $ref?: string;
  type?: string;
  description?: string;
  enum?: readonly string[];
  required?: readonly string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  oneOf?: readonly SchemaNode[];
  definitions?: Record<string, SchemaNode>;
}

/** The node a `$ref` names (`#/definitions/…`), with the referring node's own description kept. */
function resolved(node: SchemaNode | undefined): SchemaNode | undefined {
  if (!node?.$ref) return node;
  const target = RUN_CONFIG_SCHEMA.definitions?.[node.$ref.replace('#/definitions/', '')];
  return target && { ...target, description: node.description ?? target.description };
}

/** What a value of a node looks like, for a message: `an object keyed by sub-tenant ID`, `a string`. */
export function shapeOf(raw: SchemaNode | undefined): string {
  const node = resolved(raw);
  if (!node) return 'a value';
  if (node.oneOf) return shapes(node);
  if (node.enum) return `one of ${node.enum.join(', ')}`;
  switch (node.type) {
    case 'object': {
      const keys = Object.keys(node.properties ?? {}).filter((k) => k !== '$schema');
      if (keys.length) return `an object keyed ${keys.join(', ')}`;
      const by = node.propertyNames?.description;
      return by ? `an object keyed by ${by}` : 'an object';
    }
    case 'array':
      return `a list (JSON array) of ${shapeOf(node.items).replace(/^an? /, '')}s`;
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    default:
      return `a ${node.type ?? 'value'}`;
  }
}

/** What a value of `oneOf`'s branches looks like, for a message: `an object with token`, `one of default, json-operators`. */
function shapes(node: SchemaNode | undefined): string {
  return (node?.oneOf ?? [])
    .map(resolved)
    .map((b) =>
      b?.enum
        ? `one of ${b.enum.join(', ')}`
        : b?.type === 'object'
          ? `an object with ${(b.required ?? []).join(', ')}`
          : `a ${b?.type ?? 'value'}`,
    )
    .join(', or ');
}

/** The properties a schema node names, over every branch of a `oneOf`. */
function propertiesOf(raw: SchemaNode | undefined): Record<string, SchemaNode> {
  const node = resolved(raw);
  if (!node) return {};
  return Object.assign({}, node.properties, ...(node.oneOf ?? []).map(propertiesOf)) as Record<string, SchemaNode>;
}

/**
 * The schema node of a configuration key as the tool names keys (`fixtures.eventManagement.entityIds`,
 * `principals.withoutScope["em.c"]`, `tokenManager.userTenants:6`), or undefined when the schema has none.
 */
export function schemaNodeAt(key: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = RUN_CONFIG_SCHEMA;
  const parts = [...key.replace(/:\d+$/, '').matchAll(/\["([^"]+)"\]|([^.[\]]+)/g)].map((m) => m[1] ?? m[2]);
  for (const part of parts) {
    const props = propertiesOf(node);
    const here = resolved(node);
    if (Object.hasOwn(props, part)) node = props[part];
    else if (typeof here?.additionalProperties === 'object') {
      // A member of a map (a scope of withoutScope): the map's own words when it has none of its own.
      const member = resolved(here.additionalProperties);
      node = member && { ...member, description: member.description ?? here.description };
    } else return undefined;
  }
  return resolved(node);
}

/** What a configuration key is for, as the schema describes it (doctor's and the README's words). */
export function describeKey(key: string): string | undefined {
  return schemaNodeAt(key)?.description;
}

let scopes: Set<string> | undefined;
/** The keys `principals.withoutScope` may name safely in a message: the contracts' scopes. */
function knownScopes(): Set<string> {
  return (scopes ??= new Set(contractScopes().keys()));
}

function unknownKey(key: string): string {
  return `an unknown key of ${[...key].length} characters`;
}

/**
 * A value's place in the configuration, in the notation the tool names keys by everywhere
 * (`tokenManager.clientSecret`, `principals.withoutScope["em.c"]`, `tokenManager.userTenants[2]`),
 * built from keys the schema or the contracts know only: any other key may be a secret pasted
 * where a key belongs, and is described, never shown. Also the schema node found there.
 */
function placeOf(instancePath: string): { place: string; node: SchemaNode | undefined } {
  const keys = instancePath
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: SchemaNode | undefined = RUN_CONFIG_SCHEMA;
  let place = '';
  for (const key of keys) {
    const props = propertiesOf(node);
    const here = resolved(node);
    if (Object.hasOwn(props, key)) {
      place += place ? `.${key}` : key;
      node = props[key];
    } else if (here?.items && /^(0|[1-9][0-9]*)$/.test(key)) {
      place += `[${key}]`;
      node = here.items;
    } else if (here && typeof here.additionalProperties === 'object' && knownScopes().has(key)) {
      place += `["${key}"]`;
      node = here.additionalProperties;
    } else {
      place += `[${unknownKey(key)}]`;
      node = typeof here?.additionalProperties === 'object' ? here.additionalProperties : undefined;
    }
  }
  return { place: place || '(top level)', node };
}

/** Each secret of a configuration (a client secret, a static token), with its key. */
function secretsOf(config: RunConfig): Array<[string, string]> {
  return configuredPrincipals(config).map(([key, p]): [string, string] =>
    'token' in p ? [`${key}.token`, p.token] : [`${key}.clientSecret`, p.clientSecret],
  );
}

/** Every principal of a configuration with its key: the token manager's credentials and each of `principals`. */
export function configuredPrincipals(config: RunConfig): Array<[string, PrincipalConfig]> {
  const principals: Array<[string, PrincipalConfig | undefined]> = [['tokenManager', config.tokenManager]];
  for (const [name, p] of Object.entries(config.principals ?? {}))
    if (name === 'withoutScope')
      for (const [scope, q] of Object.entries(p as Record<string, PrincipalConfig>))
        principals.push([`principals.withoutScope["${scope}"]`, q]);
    else principals.push([`principals.${name}`, p as PrincipalConfig]);
  return principals.filter((e): e is [string, PrincipalConfig] => !!e[1]);
}

/**
 * Validates a parsed configuration; throws a one-line ConfigError naming the place of each wrong
 * value and what is wrong with it, never a value or an unknown key (either may be a secret).
 */
export function validateRunConfig(value: unknown, origin = 'configuration'): RunConfig {
  if (validate(value)) {
    const config = value as RunConfig;
    const credentials = targetCredentialsProblem(config.target);
    if (credentials) throw new ConfigError(`${origin}: ${credentials}`);
    const notRoot = targetRootProblem(config.target);
    if (notRoot) throw new ConfigError(`${origin}: target ${notRoot}`);
    if (!config.tokenManager && !config.principals?.full) {
      throw new ConfigError(
        `${origin}: needs "tokenManager" (client credentials) or "principals.full" (a static token)`,
      );
    }
    // A secret is redacted wherever it occurs: one that is also a word of the report (`token`,
    // `Bearer`) would erase that word from every rule ID, quote and statement.
    const ownWord = secretsOf(config).find(([, secret]) => hidesOwnWords(secret));
    if (ownWord)
      throw new ConfigError(
        `${origin}: ${ownWord[0]} (${ownWord[1].length} characters) occurs in the report's own words (rule IDs, quotes, statements): redacted as a secret, it would erase them from every report; use a real secret`,
      );
    return config;
  }
  const errors = validate.errors ?? [];
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  const problems = errors.flatMap((e) => {
    const { place, node } = placeOf(e.instancePath);
    // A value that fits no branch of a `oneOf` (a principal: credentials or a token): the shapes
    // it may take, not every branch's own complaint about it.
    if (e.keyword === 'oneOf') return [`${place}: must be ${shapeOf(node)}`];
    // Any other complaint about a value that fits no branch of a `oneOf` is a branch's (through a `$ref` too).
    const branch = oneOfs.some((o) => o !== e && o.instancePath === e.instancePath);
    if (e.keyword === 'additionalProperties') {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(propertiesOf(node)).filter((k) => k !== '$schema');
      // A key another branch takes is known: that branch's complaints say what is wrong.
      if (branch && known.includes(key)) return [];
      return [`${place}: ${unknownKey(key)}${known.length ? ` (the keys are ${known.join(', ')})` : ''}`];
    }
    if (branch || e.keyword === 'if') return [];
    // A value of the wrong shape: the shape it must have, from the schema.
    if (e.keyword === 'type') return [`${place}: must be ${shapeOf(node)}`];
    // A key that is not one the object takes (a scope): its length, never the key.
    if (e.keyword === 'propertyNames') {
      const key = (e.params as { propertyName?: string }).propertyName ?? '';
      const allowed = resolved(node)?.propertyNames?.enum;
      return [`${place}: ${unknownKey(key)}${allowed ? ` (the keys are ${allowed.join(', ')})` : ''}`];
    }
    if (e.schemaPath.includes('/propertyNames/')) return [];
    // ajv's messages name the schema's words only (a type, a pattern, a required key), never the value.
    return [`${place}: ${e.message ?? 'is not valid'}`];
  });
  throw new ConfigError(`${origin} is not valid: ${[...new Set(problems)].join('; ')}`);
}

/** Parses a configuration's JSON text; a syntax error is named by its line and column, never quoted. */
export function parseRunConfigJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON.parse's message: V8 quotes the characters around the error, and they may be a secret.
    throw new ConfigError(`${origin} is not valid JSON: ${jsonSyntaxErrorText(text)}`);
  }
}

/** Reads and validates a configuration file; `target`, when given (`--target`), replaces or supplies the file's. */
export function readRunConfig(file: string, target?: string): RunConfig {
  let text: string;
  try {
    text = readBoundedFile(file, 'a configuration file', INPUT_BOUNDS.config).toString('utf8');
  } catch (e) {
    // `--config "$CONFORMANCE_CONFIG"`: the configuration itself where its file's name belongs.
    if (/^\s*[{[]/.test(file))
      throw new ConfigError(
        'the configuration file named looks like JSON text: --config takes a file name (the JSON itself goes in CONFORMANCE_CONFIG)',
      );
    if (!(e instanceof UntrustedInputError)) throw e;
    // Not a regular file, or too large: refused before it is opened (a FIFO would wait, /dev/zero never ends).
    if (e.errno === undefined) throw new ConfigError(e.message);
    const why = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'a folder, not a file' }[e.errno];
    throw new ConfigError(`cannot read configuration file ${file}: ${why ?? e.errno}`);
  }
  let parsed = parseRunConfigJson(text, `configuration file ${file}`);
  if (target !== undefined && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
    parsed = { ...parsed, target };
  const config = validateRunConfig(parsed, `configuration file ${file}${target !== undefined ? ' with --target' : ''}`);
  // A dialect module is named relative to the configuration file, as a TCK's porting package is.
  if (config.filterDialect !== undefined)
    config.filterDialect = resolveDialectSetting(config.filterDialect, dirname(file));
  return config;
}

/**
 * Every fixture key of the configuration, from its schema, the one list of them: a key of a group
 * (`eventManagement.entityIds`), or a group without keys of its own (`subTenantIds`).
 */
export function fixtureKeys(): string[] {
  const fixtures = RUN_CONFIG_SCHEMA.properties!.fixtures;
  return Object.entries(fixtures.properties ?? {}).flatMap(([group, node]: [string, SchemaNode]) =>
    node.type === 'object' && node.properties ? Object.keys(node.properties).map((k) => `${group}.${k}`) : [group],
  );
}
