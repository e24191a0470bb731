import { appendFileSync } from 'node:fs';
import { redactText, redactValue } from './redact.ts';
import { STOP_CLEANUP_MS, asCleanup } from './run-stop.ts';

export interface TrackedResource {
  service: string;
  kind: string;
  id: string;
  label?: string;
  /** Deletes the resource on the target; throws when it could not. */
  cleanup: () => Promise<void>;
}

interface Entry extends TrackedResource {
  scope: string;
  released: boolean;
  /** Its cleanup once outlasted the budget (later passes try it last). */
  slow?: boolean;
}

export interface LedgerStats {
  created: number;
  deleted: number;
  cleanupFailures: Array<{ service: string; kind: string; id: string; error: string }>;
  /** Time spent on deletions that failed or outlasted the budget (ms); it counts against the budget. */
  wastedMs: number;
  /** The budget is spent: no cleanup is tried any more, what is left is outstanding. */
  gaveUp: boolean;
}

/** Default of `--cleanup-timeout`: the time cleanups that fail or hang may cost a run. */
export const DEFAULT_CLEANUP_TIMEOUT_MS = 60_000;

/** A cleanup abandoned because the run's cleanup budget was spent. */
export class CleanupBudgetSpent extends Error {
  override name = 'CleanupBudgetSpent';
}

/**
 * Everything the suites create on the target, recorded with a way to delete it: each test's
 * resources are deleted after it (also when it failed), the rest in a sweep at the end.
 * Deletions that fail or hang share one budget (`--cleanup-timeout`): no deletion outlasts what
 * is left of it, and once it is spent no more cleanups are tried, so a target that will not
 * delete cannot stretch the run; what is left is listed in the report for the leftover sweep,
 * and the run goes on. Deletions that succeed cost the budget nothing.
 */
export class ResourceLedger {
  private readonly entries: Entry[] = [];
  readonly stats: LedgerStats = { created: 0, deleted: 0, cleanupFailures: [], wastedMs: 0, gaveUp: false };

  /** When the run began to stop (performance.now()), once it does. */
  private stoppedAt?: number;

  constructor(
    private readonly file?: string,
    /** The run's cleanup budget in ms (`--cleanup-timeout`). */
    private readonly budgetMs = Infinity,
    /** Aborts when the run is stopping: then the cleanup has STOP_CLEANUP_MS left, whatever the budget. */
    stop?: AbortSignal,
  ) {
    const stopped = () => (this.stoppedAt ??= performance.now());
    if (stop?.aborted) stopped();
    else stop?.addEventListener('abort', stopped, { once: true });
  }

  /** What is left of the cleanup budget (ms): its failures' share, and once the run stops, what the stop leaves. */
  private left(): number {
    const left = this.budgetMs - this.stats.wastedMs;
    return this.stoppedAt === undefined ? left : Math.min(left, this.stoppedAt + STOP_CLEANUP_MS - performance.now());
  }

  private log(event: string, e: TrackedResource, extra: Record<string, unknown> = {}): void {
    if (!this.file) return;
    try {
      appendFileSync(
        this.file,
        `${JSON.stringify(redactValue({ at: new Date().toISOString(), event, service: e.service, kind: e.kind, id: e.id, label: e.label, ...extra }))}\n`,
      );
    } catch {
      // The ledger file is a record, not a dependency: losing a line must not fail a test.
    }
  }

  /** Records a created resource in `scope`; returns a function that marks it deleted by the test itself. */
  track(scope: string, resource: TrackedResource): () => void {
    const entry: Entry = { ...resource, scope, released: false };
    this.entries.push(entry);
    this.stats.created++;
    this.log('created', resource);
    return () => {
      if (!entry.released) {
        entry.released = true;
        this.stats.deleted++;
        this.log('deleted', resource, { by: 'test' });
      }
    };
  }

  /**
   * Deletes what `scope` still holds, newest first (those that outlasted the budget before last),
   * within what is left of the cleanup budget; failures are kept for the final sweep. Resources of
   * one kind next to each other in that order are deleted at once: one holds no other of its kind
   * (an event type's events, a category's templates are of other kinds), so only the order
   * between kinds matters. The HTTP client's request slots bound what is sent at once.
   */
  async cleanup(scope?: string): Promise<void> {
    const mine = this.entries
      .filter((e) => !e.released && (scope === undefined || e.scope === scope))
      .reverse()
      .sort((a, b) => Number(!!a.slow) - Number(!!b.slow));
    const waves: Entry[][] = [];
    for (const e of mine) {
      const last = waves.at(-1)?.[0];
      if (last && last.service === e.service && last.kind === e.kind && !!last.slow === !!e.slow) waves.at(-1)!.push(e);
      else waves.push([e]);
    }
    for (const wave of waves) {
      const left = this.left();
      if (left <= 0) {
        this.stats.gaveUp = true;
        return;
      }
      await Promise.all(wave.map((e) => this.delete(e, left, scope)));
    }
  }

  /** Deletes one resource within `left` ms; a failure is noted (the final pass's, or the budget's). */
  private async delete(e: Entry, left: number, scope: string | undefined): Promise<void> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        asCleanup(() => e.cleanup()),
        new Promise<never>((_, reject) => {
          if (Number.isFinite(left))
            timer = setTimeout(
              () =>
                reject(
                  new CleanupBudgetSpent(
                    this.stoppedAt === undefined
                      ? `not deleted within the cleanup budget of ${this.budgetMs} ms`
                      : `not deleted within the ${STOP_CLEANUP_MS} ms a stopping run leaves its cleanup`,
                  ),
                ),
              left,
            );
        }),
      ]);
      e.released = true;
      this.stats.deleted++;
      this.log('deleted', e, { by: 'ledger' });
      // A failure of an earlier pass that this one made good is no failure of the run.
      this.forgetFailure(e);
    } catch (err) {
      this.stats.wastedMs += performance.now() - started;
      if (err instanceof CleanupBudgetSpent) {
        e.slow = true;
        // Its timer ran out what was left: the budget is spent, whatever a clock read just before says.
        this.stats.wastedMs = Math.max(this.stats.wastedMs, this.budgetMs);
      }
      if (scope === undefined || err instanceof CleanupBudgetSpent) {
        const error = redactText((err as Error).message);
        // One line per resource: the final pass runs after every file and may meet it again.
        this.forgetFailure(e);
        this.stats.cleanupFailures.push({ service: e.service, kind: e.kind, id: e.id, error });
        this.log('cleanup-failed', e, { error });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops the failure line of a resource, if an earlier pass left one. */
  private forgetFailure(e: TrackedResource): void {
    const i = this.stats.cleanupFailures.findIndex(
      (f) => f.service === e.service && f.kind === e.kind && f.id === e.id,
    );
    if (i >= 0) this.stats.cleanupFailures.splice(i, 1);
  }

  /**
   * The resource this run created that a request's URL names (a path segment or a query value
   * that is its ID), newest first, deleted or not: a failure on it cannot be reproduced by its
   * curl alone once the cleanup deleted it.
   */
  createdIn(url: string): Pick<TrackedResource, 'service' | 'kind' | 'id'> | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const named = new Set<string>(parsed.searchParams.values());
    for (const segment of parsed.pathname.split('/')) {
      try {
        named.add(decodeURIComponent(segment));
      } catch {
        named.add(segment);
      }
    }
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const { service, kind, id } = this.entries[i];
      if (id && named.has(id)) return { service, kind, id };
    }
    for (const id of named) {
      const bulk = this.inBulk.get(id);
      if (bulk) return bulk;
    }
    return undefined;
  }

  /** Resources the run created that a bulk cleanup deletes (events, by their type or marker), by ID. */
  private readonly inBulk = new Map<string, Pick<TrackedResource, 'service' | 'kind' | 'id'>>();

  /**
   * Notes a resource the run created that no entry of its own deletes (a bulk cleanup does), so
   * that a failure naming it can say the run created it.
   */
  noteCreated(resource: Pick<TrackedResource, 'service' | 'kind' | 'id'>): void {
    if (resource.id && this.inBulk.size < 100_000) this.inBulk.set(resource.id, resource);
  }

  /** How many resources were tracked so far (deleted ones included). */
  get size(): number {
    return this.entries.length;
  }

  /** Resources not yet deleted. */
  outstanding(): Array<Pick<TrackedResource, 'service' | 'kind' | 'id' | 'label'>> {
    const seen = new Set<string>();
    return this.entries
      .filter((e) => !e.released)
      .filter((e) => !seen.has(`${e.service} ${e.kind} ${e.id}`) && !!seen.add(`${e.service} ${e.kind} ${e.id}`))
      .map(({ service, kind, id, label }) => ({ service, kind, id, label }));
  }
}
