import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from './config-error.ts';
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
 */
export function targetRootProblem(target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined; // the schema names a URL that does not parse
  }
  const extra = `${url.pathname === '/' ? '' : url.pathname}${url.search}${url.hash}`;
  return extra
    ? `${target} has a path (${extra}): give the host root (${url.origin}); the tool adds /api/<service>/v3`
    : undefined;
}

/** Validates a parsed configuration; throws a ConfigError naming each wrong field. */
export function validateRunConfig(value: unknown, origin = 'configuration'): RunConfig {
  if (validate(value)) {
    const config = value as RunConfig;
    const notRoot = targetRootProblem(config.target);
    if (notRoot) throw new ConfigError(`${origin}: target ${notRoot}`);
    if (!config.tokenManager && !config.principals?.full) {
      throw new ConfigError(
        `${origin}: needs "tokenManager" (client credentials) or "principals.full" (a static token)`,
      );
    }
    return config;
  }
  const problems = (validate.errors ?? [])
    .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if')
    .map((e) => {
      const field = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(top level)';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"`
          : '';
      return `  - ${field}: ${e.message}${extra}`;
    });
  throw new ConfigError(`${origin} is not valid:\n${[...new Set(problems)].join('\n')}`);
}

/** Reads and validates a configuration file; `target`, when given (`--target`), replaces or supplies the file's. */
export function readRunConfig(file: string, target?: string): RunConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read configuration file ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`configuration file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (target !== undefined && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
    parsed = { ...parsed, target };
  const config = validateRunConfig(parsed, `configuration file ${file}${target !== undefined ? ' with --target' : ''}`);
  // A dialect module is named relative to the configuration file, as a TCK's porting package is.
  if (config.filterDialect !== undefined)
    config.filterDialect = resolveDialectSetting(config.filterDialect, dirname(file));
  return config;
}
