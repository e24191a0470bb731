import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkRegularFile, INPUT_BOUNDS } from '../../reporters/untrusted-input.ts';
import { ConfigError } from './config-error.ts';
import { describeFilter, type FilterExpr } from './filter-expression.ts';
import type { FilterDialectModule } from './filter-dialect-types.d.ts';

/**
 * How a deployment spells filters and sorts ("Grammar of the filter and sort JSON: not shown"): a
 * dialect module (`FilterDialectModule`, the public interface) with its name settled. The suites
 * call it for every filter and sort.
 */
export interface FilterDialect extends Omit<FilterDialectModule, 'name' | 'encodeFilter'> {
  /** Shown in reports and skip reasons. */
  name: string;
  /**
   * The filter as a JSON value: sent JSON-encoded as `?filter=`, and as it is as a delete job's
   * `filter`. Throws UnsupportedFilter for what the grammar cannot express.
   */
  encodeFilter(expr: FilterExpr): unknown;
}

/** The `filterDialect` of a run configuration: a built-in's name, or a module of the user's. */
export type FilterDialectSetting = string | { module: string };

/** What a dialect throws for an expression its grammar has no spelling for. */
export class UnsupportedFilter extends Error {
  override name = 'UnsupportedFilter';
  constructor(
    readonly expr: FilterExpr,
    why: string,
  ) {
    super(`${why} (${describeFilter(expr)})`);
  }
}

type Json = Record<string, unknown>;

/** The one member of a one-member object. */
const only = (o: Json): [string, unknown] => Object.entries(o)[0];
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The members of a conjunction in one object, as both built-ins write it: distinct fields side by
 * side, operator objects on one field merged when their operators differ; anything else that
 * collides goes to the list under `andKey`.
 */
function conjunction(parts: Json[], andKey: string): Json {
  const out: Json = {};
  const rest: Json[] = [];
  for (const part of parts) {
    const [k, v] = only(part);
    const prev = out[k];
    if (!(k in out)) out[k] = v;
    else if (k !== andKey && isObject(prev) && isObject(v) && Object.keys(v).every((op) => !(op in prev)))
      out[k] = { ...prev, ...v };
    else rest.push(part);
  }
  if (rest.length) out[andKey] = [...((out[andKey] as Json[] | undefined) ?? []), ...rest];
  return out;
}

/**
 * The suite's own conventions (the contract's `x-convention`, what the reference parses):
 * `{"f": v}`, `{"f": {"not": v}}`, `{"f": {"in": {"value": [...]}}}`, `{"f": {"before"|"after": ts}}`,
 * `{"f": {"between": "[from,to)"}}`, `{"f": {"startsWith": s}}`, members side by side for and,
 * `{"and"|"or": [...]}`; sort `field,asc|desc`.
 */
export const defaultDialect: FilterDialect = {
  name: 'default',
  encodeFilter(expr) {
    const one = (e: FilterExpr): Json => {
      switch (e.op) {
        case 'and':
          return conjunction(
            e.of.map((x) => (x.op === 'and' ? { and: x.of.map(one) } : one(x))),
            'and',
          );
        case 'or':
          return { or: e.of.map(one) };
        case 'eq':
          return { [e.field]: e.value };
        case 'ne':
          return { [e.field]: { not: e.value } };
        case 'in':
          return { [e.field]: { in: { value: e.values } } };
        case 'between':
          return { [e.field]: { between: e.pair ? [e.from, e.to] : `[${e.from},${e.to})` } };
        default:
          return { [e.field]: { [e.op]: e.value } };
      }
    };
    return one(expr);
  },
  encodeSort: (s) => `${s.field},${s.direction}`,
};

/** A regular expression matching exactly the text `s`. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * MongoDB's query operators, the common JSON-operators spelling: `{"f": v}`, `{"f": {"$ne": v}}`,
 * `{"f": {"$in": [...]}}`, before `{"$lt": ts}`, after `{"$gt": ts}`, between
 * `{"$gte": from, "$lt": to}`, startsWith `{"$regex": "^…"}`, members side by side for and (else
 * `{"$and": [...]}`), `{"$or": [...]}`; sort `{"field": 1}` ascending, `{"field": -1}` descending.
 */
export const jsonOperatorsDialect: FilterDialect = {
  name: 'json-operators',
  encodeFilter(expr) {
    const one = (e: FilterExpr): Json => {
      switch (e.op) {
        case 'and':
          return conjunction(
            e.of.map((x) => (x.op === 'and' ? { $and: x.of.map(one) } : one(x))),
            '$and',
          );
        case 'or':
          return { $or: e.of.map(one) };
        case 'eq':
          return { [e.field]: e.value };
        case 'ne':
          return { [e.field]: { $ne: e.value } };
        case 'in':
          return { [e.field]: { $in: e.values } };
        case 'before':
          return { [e.field]: { $lt: e.value } };
        case 'after':
          return { [e.field]: { $gt: e.value } };
        case 'between':
          return { [e.field]: { $gte: e.from, $lt: e.to } };
        case 'startsWith':
          return { [e.field]: { $regex: `^${literal(e.value)}` } };
      }
    };
    return one(expr);
  },
  encodeSort: (s) => JSON.stringify({ [s.field]: s.direction === 'asc' ? 1 : -1 }),
};

/** The built-in dialects by the name `filterDialect` gives. */
export const BUILT_IN_DIALECTS: Readonly<Record<string, FilterDialect>> = {
  default: defaultDialect,
  'json-operators': jsonOperatorsDialect,
};

/** A module setting with its path made absolute against the configuration file's folder. */
export function resolveDialectSetting(setting: FilterDialectSetting, configDir: string): FilterDialectSetting {
  if (typeof setting === 'string' || isAbsolute(setting.module)) return setting;
  return { module: resolve(configDir, setting.module) };
}

/**
 * The dialect a configuration names (the default without one). A module is imported (tsx or
 * vitest transform TypeScript) and must export `encodeFilter` and `encodeSort`; anything else
 * is a ConfigError naming `filterDialect`.
 */
export async function loadFilterDialect(setting: FilterDialectSetting | undefined): Promise<FilterDialect> {
  if (setting === undefined) return defaultDialect;
  if (typeof setting === 'string') {
    const builtIn = BUILT_IN_DIALECTS[setting];
    if (!builtIn)
      throw new ConfigError(
        `filterDialect: unknown dialect "${setting}" (built-ins: ${Object.keys(BUILT_IN_DIALECTS).join(', ')}; or { "module": "./file.ts" })`,
      );
    return builtIn;
  }
  const file = setting.module;
  if (!existsSync(file)) throw new ConfigError(`filterDialect.module: no such file ${file}`);
  try {
    checkRegularFile(file, 'a filter dialect module', INPUT_BOUNDS.config); // importing a FIFO would wait for ever
  } catch (e) {
    throw new ConfigError(`filterDialect.module: ${(e as Error).message}`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`filterDialect.module: ${file} cannot be loaded: ${(e as Error).message}`);
  }
  const m = (isObject(mod.default) && typeof mod.encodeFilter !== 'function' ? mod.default : mod) as Json;
  const missing = ['encodeFilter', 'encodeSort'].filter((k) => typeof m[k] !== 'function');
  if (missing.length)
    throw new ConfigError(`filterDialect.module: ${file} does not export ${missing.join(' and ')} (functions)`);
  const encodeFilter = m.encodeFilter as FilterDialect['encodeFilter'];
  const encodeSort = m.encodeSort as FilterDialect['encodeSort'];
  return {
    name: typeof m.name === 'string' && m.name ? m.name : file,
    encodeFilter: (e) => encodeFilter(e),
    encodeSort: (s) => {
      const text = encodeSort(s);
      if (typeof text !== 'string')
        throw new Error(`filterDialect.module: encodeSort returned ${typeof text}, not a string`);
      return text;
    },
  };
}
