import type { ServiceName } from '../../contracts/services.ts';
import type { FilterDialect } from './filter-dialect.ts';
import type { HttpRequest, HttpResponse } from './http-client.ts';

/** Every name or ID the suites create starts with `cfz` and the run's start time in base 36. */
const RUN_PREFIX = /cfz([0-9a-z]{8})/;

/** Runs last less than this; a prefixed resource older than it was left by a run that crashed. */
export const LEFTOVER_AGE_MS = 60 * 60 * 1000;

/** Whether a name or ID carries the prefix of a run that started more than an hour ago. */
export function isLeftover(name: unknown, now = Date.now(), currentPrefix = ''): boolean {
  if (typeof name !== 'string') return false;
  const m = RUN_PREFIX.exec(name);
  if (!m || (currentPrefix && name.includes(currentPrefix))) return false;
  const started = parseInt(m[1], 36);
  return Number.isFinite(started) && now - started > LEFTOVER_AGE_MS && now - started < 10 * 365 * 24 * 3600 * 1000;
}

/** What a service's sweeper gets: HTTP as the fully granted principal, and the leftover test. */
export interface SweepContext {
  send: (service: ServiceName, req: HttpRequest) => Promise<HttpResponse>;
  isLeftover: (name: unknown) => boolean;
  /** The run configuration's `fixtures`. */
  fixtures: Record<string, unknown>;
  /** How the deployment spells filters (the configuration's `filterDialect`). */
  dialect: FilterDialect;
}

/** A service's sweeper: deletes what crashed runs left behind; returns how many resources went. */
export type Sweeper = (ctx: SweepContext) => Promise<number>;
