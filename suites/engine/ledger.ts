import { appendFileSync } from 'node:fs';
import { redactText, redactValue } from './redact.ts';
import { STOP_CLEANUP_MS, asCleanup } from './run-stop.ts';
import { SERVICES, SERVICE_INFO } from '../../contracts/services.ts';

/** What of a request may name a resource: its URL, its body and the values of its form parts. */
export interface RequestText {
  url: string;
  body?: string;
  form?: Array<{ value?: string }>;
}

/** The characters an ID is made of; an ID is named only where no such character borders it. */
const ID_CHAR = /[\w.~-]/;
const ID_TOKEN = /[\w.~-]+/g;

/** The whole tokens of a text that an ID may be, with a sentence's full stop taken off too. */
function idTokens(text: string): string[] {
  return (text.match(ID_TOKEN) ?? []).flatMap((t) => (/^\.|\.$/.test(t) ? [t, t.replace(/^\.+|\.+$/g, '')] : [t]));
}

/** Whether `id` stands whole in one of `texts`: a token of them, or (an ID of other characters) bordered by none of its own. */
function namedIn(id: string, texts: readonly string[], tokens: ReadonlySet<string>): boolean {
  if (!/[^\w.~-]/.test(id)) return tokens.has(id);
  return texts.some((text) => {
    for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
      const before = text[at - 1];
      const after = text[at + id.length];
      if ((before === undefined || !ID_CHAR.test(before)) && (after === undefined || !ID_CHAR.test(after))) return true;
    }
    return false;
  });
}

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
   * The resource this run created that a request names, newest first, deleted or not: in its path,
   * its query or its body (a filter or an event naming a type). An ID counts only as a whole token
   * (`1002` is not in `10020`), and only the resources of the request's service are looked for. A
   * failure on such a request cannot be reproduced by its curl alone once the cleanup deleted it.
   */
  createdIn(request: RequestText): Pick<TrackedResource, 'service' | 'kind' | 'id'> | undefined {
    let parsed: URL;
    try {
      parsed = new URL(request.url);
    } catch {
      return undefined;
    }
    const texts = [...parsed.searchParams.values()];
    for (const segment of parsed.pathname.split('/')) {
      try {
        texts.push(decodeURIComponent(segment));
      } catch {
        texts.push(segment);
      }
    }
    if (request.body) texts.push(request.body);
    for (const p of request.form ?? []) if (p.value) texts.push(p.value);
    const service = SERVICES.find((s) => parsed.pathname.startsWith(`${SERVICE_INFO[s].basePath}/`));
    const tokens = new Set(texts.flatMap(idTokens));
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const { service: of, kind, id } = this.entries[i];
      if (id && (service === undefined || of === service) && namedIn(id, texts, tokens))
        return { service: of, kind, id };
    }
    for (const token of tokens) {
      const bulk = this.inBulk.get(token);
      if (bulk && (service === undefined || bulk.service === service)) return bulk;
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
