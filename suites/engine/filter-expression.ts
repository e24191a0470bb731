/**
 * Filters and sorts as the suites state them: what the documents settle (which field, which
 * operator, which values), never how a deployment spells it. "Grammar of the filter and sort
 * JSON: not shown" (event-management.md, Endpoints, rule 8): a dialect (`filter-dialect.ts`)
 * turns an expression into the deployment's own spelling. Builders and evaluation here; the types
 * in `filter-dialect-types.d.ts`.
 */

// The expression types are the package's public interface (`platform-conformance/filter-dialect`):
// they live in filter-dialect-types.d.ts, which vendors import without reading the suites.
import type { FilterExpr, Scalar, SortExpr } from './filter-dialect-types.d.ts';
export type { ComparisonOp, FilterExpr, Scalar, SortExpr } from './filter-dialect-types.d.ts';

export const eq = (field: string, value: Scalar): FilterExpr => ({ op: 'eq', field, value });
/** Negation ("no negation" in the document names it): the field differs from the value. */
export const ne = (field: string, value: Scalar): FilterExpr => ({ op: 'ne', field, value });
export const isIn = (field: string, values: Scalar[]): FilterExpr => ({ op: 'in', field, values });
export const before = (field: string, value: string): FilterExpr => ({ op: 'before', field, value });
export const after = (field: string, value: string): FilterExpr => ({ op: 'after', field, value });
export const between = (field: string, from: string, to: string, pair?: boolean): FilterExpr =>
  pair ? { op: 'between', field, from, to, pair } : { op: 'between', field, from, to };
export const startsWith = (field: string, value: string): FilterExpr => ({ op: 'startsWith', field, value });
export const and = (...of: FilterExpr[]): FilterExpr => ({ op: 'and', of });
export const or = (...of: FilterExpr[]): FilterExpr => ({ op: 'or', of });
export const sortBy = (field: string, direction: SortExpr['direction'] = 'asc'): SortExpr => ({ field, direction });

/**
 * The conjunction of its arguments, flat: a record `{ field: value }` stands for equalities, in
 * its key order; an `and` gives its members; other expressions are taken as they are. One
 * operand is returned alone. (`and()` keeps a nested conjunction nested.)
 */
export function where(...parts: Array<Record<string, Scalar> | FilterExpr>): FilterExpr {
  const of = parts.flatMap((p) =>
    isFilterExpr(p) ? (p.op === 'and' ? p.of : [p]) : Object.entries(p).map(([field, value]) => eq(field, value)),
  );
  return of.length === 1 ? of[0] : and(...of);
}

/** Whether a value is a filter expression (not a record of equalities). */
export function isFilterExpr(v: unknown): v is FilterExpr {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.op === 'string' &&
    (((o.op === 'and' || o.op === 'or') && Array.isArray(o.of)) || typeof o.field === 'string')
  );
}

/** The expression in a short neutral notation, for titles and Expected/Received. */
export function describeFilter(e: FilterExpr): string {
  const v = (x: unknown) => JSON.stringify(x);
  switch (e.op) {
    case 'and':
    case 'or':
      return `(${e.of.map(describeFilter).join(` ${e.op} `)})`;
    case 'eq':
      return `${e.field} = ${v(e.value)}`;
    case 'ne':
      return `${e.field} != ${v(e.value)}`;
    case 'in':
      return `${e.field} in ${v(e.values)}`;
    case 'between':
      return `${e.field} between ${v(e.from)} and ${v(e.to)}`;
    default:
      return `${e.field} ${e.op} ${v(e.value)}`;
  }
}

/** A sort key in the same notation. */
export const describeSort = (s: SortExpr) => `${s.field} ${s.direction}`;

/**
 * The operators an expression uses: its comparison operators, `and` for the conjunction at its
 * top (fields side by side in most grammars), `nested-and` for one under another and/or, and `or`.
 */
export function operatorsOf(e: FilterExpr, top = true): Set<string> {
  if (e.op !== 'and' && e.op !== 'or') return new Set([e.op]);
  const out = new Set<string>([e.op === 'and' && !top ? 'nested-and' : e.op]);
  for (const x of e.of) for (const o of operatorsOf(x, false)) out.add(o);
  return out;
}

/**
 * Whether a record satisfies an expression, as the documents give the operators: timestamps
 * compare as instants (before, after exclusive; between from inclusive, to exclusive, the
 * bounds the suite only ever puts between records), everything else by strict equality.
 */
export function satisfies(record: Record<string, unknown>, e: FilterExpr): boolean {
  if (e.op === 'and') return e.of.every((x) => satisfies(record, x));
  if (e.op === 'or') return e.of.some((x) => satisfies(record, x));
  const raw = record[e.field];
  const instant = (x: unknown) => Date.parse(String(x));
  switch (e.op) {
    case 'eq':
      return e.field === 'timestamp' ? instant(raw) === instant(e.value) : raw === e.value;
    case 'ne':
      return raw !== e.value;
    case 'in':
      return e.values.includes(raw as Scalar);
    case 'before':
      return instant(raw) < instant(e.value);
    case 'after':
      return instant(raw) > instant(e.value);
    case 'between':
      return instant(raw) >= instant(e.from) && instant(raw) < instant(e.to);
    case 'startsWith':
      return typeof raw === 'string' && raw.startsWith(e.value);
  }
}
