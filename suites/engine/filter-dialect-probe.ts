import type { FilterDialect } from './filter-dialect.ts';
import {
  after,
  and,
  before,
  describeFilter,
  describeSort,
  eq,
  isIn,
  satisfies,
  sortBy,
  type FilterExpr,
  type SortExpr,
} from './filter-expression.ts';
import type { HttpResponse, QueryValue } from './http-client.ts';

/** What a deployment made of one probe query. */
export interface DialectProbeStep {
  what: string;
  status?: number;
  /** 2xx, and every item satisfies the filter (or is in the sort's order). */
  understood: boolean;
  /** Answered 400 or 422: the deployment does not take the spelling. */
  refused: boolean;
  detail: string;
}

/** Whether a deployment understands a dialect: one equality, one IN, one timestamp range, one sort on GET /events. */
export interface DialectVerdict {
  dialect: string;
  understood: boolean;
  /** A probe query was refused: the rules that need a filter cannot be judged in this dialect. */
  refused: boolean;
  steps: DialectProbeStep[];
  /** One sentence for doctor, the filter-sort-grammar observation and skip reasons. */
  summary: string;
}

/** The operators each probe query vouches for once understood ('sort' stands for a sort). */
const VOUCHES: Readonly<Record<string, readonly string[]>> = {
  equality: ['eq', 'and'],
  IN: ['in'],
  'timestamp range': ['before', 'after', 'and'],
  sort: ['sort'],
};

/**
 * Whether a request using `operators` (those of its filter, and 'sort') can be judged in this
 * run: always when the deployment refused no probe query; else only when every operator is one
 * an understood probe query vouches for (an operator no probe tried is taken as refused too).
 */
export function refusedOperators(verdict: DialectVerdict, operators: Iterable<string>): string[] {
  if (!verdict.refused) return [];
  const ok = new Set(verdict.steps.filter((s) => s.understood).flatMap((s) => VOUCHES[s.what] ?? []));
  return [...new Set(operators)].filter((op) => !ok.has(op));
}

/** Statuses that say the deployment does not take the filter or sort as written. */
const REFUSALS = [400, 422];

/** The four probe queries; the equality names a configured entity when there is one. */
export function probeQueries(
  entityId: string | undefined,
  now = Date.now(),
): Array<{ what: string; filter?: FilterExpr; sort?: SortExpr }> {
  return [
    { what: 'equality', filter: entityId ? eq('entityId', entityId) : eq('code', 'cfzprobe') },
    // not a contract bound: severities the probe filters on
    { what: 'IN', filter: isIn('severity', [1, 2, 3, 4, 5]) },
    {
      what: 'timestamp range',
      filter: and(
        after('timestamp', new Date(now - 86_400_000).toISOString()),
        before('timestamp', new Date(now + 60_000).toISOString()),
      ),
    },
    { what: 'sort', sort: sortBy('timestamp', 'asc') },
  ];
}

const itemsOf = (res: HttpResponse): Array<Record<string, unknown>> => {
  const list = (res.json as { _embedded?: { events?: unknown } } | undefined)?._embedded?.events;
  return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];
};

const short = (res: HttpResponse) => {
  const text = typeof res.text === 'string' ? res.text.replace(/\s+/g, ' ').slice(0, 120) : '';
  return `HTTP ${res.status}${text ? ` ${text}` : ''}`;
};

/**
 * Sends the probe queries in `dialect` through `get` (a GET /events with the given query) and
 * judges each: understood when the answer is 2xx and its items satisfy the filter or sort.
 */
export async function probeDialect(
  dialect: FilterDialect,
  get: (query: Record<string, QueryValue>) => Promise<HttpResponse>,
  entityId?: string,
): Promise<DialectVerdict> {
  const steps: DialectProbeStep[] = [];
  for (const q of probeQueries(entityId)) {
    const shown = q.filter ? describeFilter(q.filter) : describeSort(q.sort!);
    let query: Record<string, QueryValue>;
    const size = 100; // not a contract bound: a page that holds the probe's events
    try {
      query = q.filter
        ? { filter: JSON.stringify(dialect.encodeFilter(q.filter)), size }
        : { sort: dialect.encodeSort(q.sort!), size };
    } catch (e) {
      steps.push({
        what: q.what,
        understood: false,
        refused: true,
        detail: `${q.what} (${shown}): the dialect cannot write it: ${(e as Error).message}`,
      });
      continue;
    }
    const res = await get(query);
    const written = `${q.what} ${q.filter ? `filter=${query.filter}` : `sort=${query.sort}`}`;
    if (res.status < 200 || res.status > 299) {
      const refused = REFUSALS.includes(res.status);
      steps.push({ what: q.what, status: res.status, understood: false, refused, detail: `${written}: ${short(res)}` });
      continue;
    }
    const items = itemsOf(res);
    let wrong: string | undefined;
    if (q.filter) {
      const bad = items.find((e) => !satisfies(e, q.filter!));
      if (bad) wrong = `an item does not satisfy ${shown}: ${JSON.stringify(bad).slice(0, 160)}`;
    } else {
      const times = items.map((e) => Date.parse(String(e.timestamp)));
      if (!times.every((t, i) => i === 0 || times[i - 1] <= t)) wrong = `the items are not in the order ${shown}`;
    }
    steps.push({
      what: q.what,
      status: res.status,
      understood: !wrong,
      refused: false,
      detail: `${written}: HTTP ${res.status}, ${items.length} item${items.length === 1 ? '' : 's'}${wrong ? `; ${wrong}` : ''}`,
    });
  }
  const refused = steps.filter((s) => s.refused);
  const failing = steps.filter((s) => !s.understood);
  const understood = failing.length === 0;
  const summary = understood
    ? `the deployment understands the filter dialect "${dialect.name}": ${steps.map((s) => s.what).join(', ')} answered 2xx with items that satisfy them`
    : refused.length
      ? `the deployment refuses the filter dialect "${dialect.name}": ${refused.map((s) => s.detail).join('; ')}`
      : `the deployment answers the filter dialect "${dialect.name}" without honouring it: ${failing.map((s) => s.detail).join('; ')}`;
  return { dialect: dialect.name, understood, refused: refused.length > 0, steps, summary };
}
