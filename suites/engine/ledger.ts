import { appendFileSync } from 'node:fs';
import { redactText } from './redact.ts';

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
  /** Its cleanup once outlasted a pass's budget (later passes try it last). */
  slow?: boolean;
}

export interface LedgerStats {
  created: number;
  deleted: number;
  cleanupFailures: Array<{ service: string; kind: string; id: string; error: string }>;
  /** Cleanup passes that ran out of their budget (what they left is retried at the end, then listed). */
  passesOverBudget: number;
}

/** Default of `--cleanup-timeout`: most time one cleanup pass may take. */
export const DEFAULT_CLEANUP_TIMEOUT_MS = 60_000;

/** A cleanup abandoned because the run's cleanup budget was spent. */
export class CleanupBudgetSpent extends Error {
  override name = 'CleanupBudgetSpent';
}

/**
 * Everything the suites create on the target, recorded with a way to delete it: each test's
 * resources are deleted after it (also when it failed), the rest in a sweep at the end. Each
 * cleanup pass (after a test, after a file) ends within the run's cleanup budget: what it did
 * not delete in time stays outstanding for the next pass, and what the last pass leaves is
 * listed in the report for the leftover sweep; the run goes on.
 */
export class ResourceLedger {
  private readonly entries: Entry[] = [];
  readonly stats: LedgerStats = { created: 0, deleted: 0, cleanupFailures: [], passesOverBudget: 0 };

  constructor(
    private readonly file?: string,
    /** The run's cleanup budget in ms (`--cleanup-timeout`). */
    private readonly budgetMs = Infinity,
  ) {}

  private log(event: string, e: TrackedResource, extra: Record<string, unknown> = {}): void {
    if (!this.file) return;
    try {
      appendFileSync(
        this.file,
        `${JSON.stringify({ at: new Date().toISOString(), event, service: e.service, kind: e.kind, id: e.id, label: e.label, ...extra })}\n`,
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
   * Deletes what `scope` still holds, newest first (those that outlasted a budget before last),
   * within the cleanup budget; failures are kept for the final sweep.
   */
  async cleanup(scope?: string): Promise<void> {
    const mine = this.entries
      .filter((e) => !e.released && (scope === undefined || e.scope === scope))
      .reverse()
      .sort((a, b) => Number(!!a.slow) - Number(!!b.slow));
    const deadline = performance.now() + this.budgetMs;
    for (const e of mine) {
      const left = deadline - performance.now();
      if (left <= 0) {
        this.stats.passesOverBudget++;
        break;
      }
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          e.cleanup(),
          new Promise<never>((_, reject) => {
            if (Number.isFinite(left))
              timer = setTimeout(
                () => reject(new CleanupBudgetSpent(`not deleted within the cleanup budget of ${this.budgetMs} ms`)),
                left,
              );
          }),
        ]);
        e.released = true;
        this.stats.deleted++;
        this.log('deleted', e, { by: 'ledger' });
      } catch (err) {
        if (err instanceof CleanupBudgetSpent) {
          e.slow = true;
          this.stats.passesOverBudget++;
          break;
        }
        if (scope === undefined) {
          const error = redactText((err as Error).message);
          // One line per resource: the final pass runs after every file and may meet it again.
          const known = this.stats.cleanupFailures.findIndex(
            (f) => f.service === e.service && f.kind === e.kind && f.id === e.id,
          );
          if (known >= 0) this.stats.cleanupFailures.splice(known, 1);
          this.stats.cleanupFailures.push({ service: e.service, kind: e.kind, id: e.id, error });
          this.log('cleanup-failed', e, { error });
        }
      } finally {
        clearTimeout(timer);
      }
    }
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
