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
}

export interface LedgerStats {
  created: number;
  deleted: number;
  cleanupFailures: Array<{ service: string; kind: string; id: string; error: string }>;
}

/**
 * Everything the suites create on the target, recorded with a way to delete it: each test's
 * resources are deleted after it (also when it failed), the rest in a sweep at the end.
 */
export class ResourceLedger {
  private readonly entries: Entry[] = [];
  readonly stats: LedgerStats = { created: 0, deleted: 0, cleanupFailures: [] };

  constructor(private readonly file?: string) {}

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

  /** Deletes what `scope` still holds, newest first; failures are kept for the final sweep. */
  async cleanup(scope?: string): Promise<void> {
    const mine = this.entries.filter((e) => !e.released && (scope === undefined || e.scope === scope)).reverse();
    for (const e of mine) {
      try {
        await e.cleanup();
        e.released = true;
        this.stats.deleted++;
        this.log('deleted', e, { by: 'ledger' });
      } catch (err) {
        if (scope === undefined) {
          const error = redactText((err as Error).message);
          this.stats.cleanupFailures.push({ service: e.service, kind: e.kind, id: e.id, error });
          this.log('cleanup-failed', e, { error });
        }
      }
    }
  }

  /** Resources not yet deleted. */
  outstanding(): Array<Pick<TrackedResource, 'service' | 'kind' | 'id' | 'label'>> {
    return this.entries
      .filter((e) => !e.released)
      .map(({ service, kind, id, label }) => ({ service, kind, id, label }));
  }
}
