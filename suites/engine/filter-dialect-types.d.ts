/**
 * The filter dialect interface: what a deployment's own filter and sort grammar implements, as a
 * module the run configuration names (`"filterDialect": { "module": "./my-dialect.ts" }`). It is
 * the package's public interface for that, exported as `platform-conformance/filter-dialect`:
 *
 *   import type { FilterDialectModule, FilterExpr, SortExpr } from 'platform-conformance/filter-dialect';
 *
 * The documents say only that filters and sorts are "JSON-encoded" ("Grammar of the filter and
 * sort JSON: not shown", event-management.md), so the suites state each filter as an expression
 * (which field, which operator, which values) and each sort as a field and a direction; a dialect
 * writes them in the deployment's grammar. The built-ins are `default` and `json-operators`.
 */

/** A value a filter compares with. */
export type Scalar = string | number | boolean;

/** A JSON value: what `encodeFilter` returns. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One filter: a comparison on a field, or a conjunction or disjunction of filters. Timestamps
 * are ISO 8601 texts; `before` and `after` are exclusive, `between` takes `from` inclusive and
 * `to` exclusive.
 */
export type FilterExpr =
  | { op: 'eq' | 'ne'; field: string; value: Scalar }
  | { op: 'in'; field: string; values: Scalar[] }
  | { op: 'before' | 'after'; field: string; value: string }
  | {
      op: 'between';
      field: string;
      from: string;
      to: string;
      /**
       * The default dialect writes between as interval text `[from,to)`; `pair` asks it for the
       * array `[from, to]` (the suite's reading between-interval-text did not hold). Others ignore it.
       */
      pair?: boolean;
    }
  | { op: 'startsWith'; field: string; value: string }
  | { op: 'and'; of: FilterExpr[] }
  | { op: 'or'; of: FilterExpr[] };

/** The comparison operators (every expression but and/or). */
export type ComparisonOp = Exclude<FilterExpr['op'], 'and' | 'or'>;

/** One sort key. */
export interface SortExpr {
  field: string;
  direction: 'asc' | 'desc';
}

/**
 * What a dialect module exports (named exports, or one default export object holding them).
 * For what the grammar cannot say, throw an error whose `name` is `'UnsupportedFilter'`: the
 * checks that need it are skipped, never failed. Any other error is the dialect's defect.
 */
export interface FilterDialectModule {
  /** Shown in reports and skip reasons (default: the module's path). */
  name?: string;
  /**
   * The filter as a JSON value: sent JSON-encoded as `?filter=` on GET /events and GET
   * /eventTypes, and as it is as a delete job's `filter`.
   */
  encodeFilter(expr: FilterExpr): JsonValue;
  /** The text of `?sort=`. */
  encodeSort(sort: SortExpr): string;
}
