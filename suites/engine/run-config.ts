import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { contractScopes } from '../../contracts/contract.ts';
import { ConfigError } from './config-error.ts';
import { jsonSyntaxErrorText } from './json-syntax-error.ts';
import { BUILT_IN_DIALECTS, resolveDialectSetting, type FilterDialectSetting } from './filter-dialect.ts';

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

const credentials = {
  type: 'object',
  required: ['clientId', 'clientSecret', 'appName', 'appVersion', 'hostTenant'],
  properties: {
    clientId: { type: 'string', minLength: 1 },
    clientSecret: { type: 'string', minLength: 1 },
    appName: { type: 'string', minLength: 1 },
    appVersion: { type: 'string', minLength: 1 },
    hostTenant: { type: 'string', minLength: 1 },
    userTenant: { type: 'string', minLength: 1 },
    userTenants: { type: 'array', items: { type: 'string', minLength: 1 } },
  },
  additionalProperties: false,
} as const;

const principal = {
  oneOf: [
    credentials,
    {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string', minLength: 1 } },
      additionalProperties: false,
    },
  ],
} as const;

export const RUN_CONFIG_SCHEMA = {
  $id: 'https://conformance.local/run-config.json',
  type: 'object',
  required: ['target'],
  properties: {
    $schema: { type: 'string' },
    target: { type: 'string', format: 'uri', pattern: '^https?://' },
    tokenManager: credentials,
    principals: {
      type: 'object',
      properties: {
        full: principal,
        noScopes: principal,
        otherTenant: principal,
        operator: principal,
        throttled: principal,
        withoutScope: { type: 'object', additionalProperties: principal },
      },
      additionalProperties: false,
    },
    fixtures: { type: 'object' },
    filterDialect: {
      oneOf: [
        { type: 'string', enum: Object.keys(BUILT_IN_DIALECTS) },
        {
          type: 'object',
          required: ['module'],
          properties: { module: { type: 'string', minLength: 1 } },
          additionalProperties: false,
        },
      ],
    },
    options: {
      type: 'object',
      properties: {
        rate: { type: 'number', exclusiveMinimum: 0 },
        concurrency: { type: 'integer', minimum: 1, maximum: 64 },
        timeout: { type: 'integer', minimum: 100 },
        runs: { type: 'integer', minimum: 1, maximum: 10000 },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export { ConfigError };

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(RUN_CONFIG_SCHEMA);

/**
 * Why a target URL is not the host root the suites need (they add `/api/<service>/v3` to it),
 * or undefined when it is one. `serve` prints each service's base URL, which is the usual slip.
 * The message shows the URL without what could be a secret: no user or password, no query.
 */
export function targetRootProblem(target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined; // the schema names a URL that does not parse
  }
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
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  return url.username || url.password
    ? `target ${url.origin} carries a user name or password before its host: give the host root alone; credentials belong in tokenManager or principals`
    : undefined;
}

type SchemaNode = {
  type?: string;
  enum?: readonly string[];
  required?: readonly string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  oneOf?: readonly SchemaNode[];
};

/** What a value of `oneOf`'s branches looks like, for a message: `an object with token`, `one of default, json-operators`. */
function shapes(node: SchemaNode | undefined): string {
  return (node?.oneOf ?? [])
    .map((b) =>
      b.enum
        ? `one of ${b.enum.join(', ')}`
        : b.type === 'object'
          ? `an object with ${(b.required ?? []).join(', ')}`
          : `a ${b.type ?? 'value'}`,
    )
    .join(', or ');
}

/** The properties a schema node names, over every branch of a `oneOf`. */
function propertiesOf(node: SchemaNode | undefined): Record<string, SchemaNode> {
  if (!node) return {};
  return Object.assign({}, node.properties, ...(node.oneOf ?? []).map(propertiesOf)) as Record<string, SchemaNode>;
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
    if (Object.hasOwn(props, key)) {
      place += place ? `.${key}` : key;
      node = props[key];
    } else if (node?.items && /^(0|[1-9][0-9]*)$/.test(key)) {
      place += `[${key}]`;
      node = node.items;
    } else if (node && typeof node.additionalProperties === 'object' && knownScopes().has(key)) {
      place += `["${key}"]`;
      node = node.additionalProperties;
    } else {
      place += `[${unknownKey(key)}]`;
      node = typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined;
    }
  }
  return { place: place || '(top level)', node };
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
    return config;
  }
  const errors = validate.errors ?? [];
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  const problems = errors.flatMap((e) => {
    const { place, node } = placeOf(e.instancePath);
    // A value that fits no branch of a `oneOf` (a principal: credentials or a token): the shapes
    // it may take, not every branch's own complaint about it.
    if (e.keyword === 'oneOf') return [`${place}: must be ${shapes(node)}`];
    const branch = oneOfs.some((o) => o.instancePath === e.instancePath && e.schemaPath.startsWith(`${o.schemaPath}/`));
    if (e.keyword === 'additionalProperties') {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(propertiesOf(node)).filter((k) => k !== '$schema');
      // A key another branch takes is known: that branch's complaints say what is wrong.
      if (branch && known.includes(key)) return [];
      return [`${place}: ${unknownKey(key)}${known.length ? ` (the keys are ${known.join(', ')})` : ''}`];
    }
    if (branch || e.keyword === 'if') return [];
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
    text = readFileSync(file, 'utf8');
  } catch (e) {
    // `--config "$CONFORMANCE_CONFIG"`: the configuration itself where its file's name belongs.
    if (/^\s*[{[]/.test(file))
      throw new ConfigError(
        'the configuration file named looks like JSON text: --config takes a file name (the JSON itself goes in CONFORMANCE_CONFIG)',
      );
    const code = (e as NodeJS.ErrnoException).code;
    const why = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'a folder, not a file' }[code ?? ''];
    throw new ConfigError(`cannot read configuration file ${file}: ${why ?? code ?? 'unreadable'}`);
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
