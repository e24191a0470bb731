/** Spaces request starts so that no more than `perSecond` begin in any second (0 = unlimited). */
export class RequestPacer {
  private next = 0;
  constructor(private readonly perSecond: number) {}

  async wait(): Promise<void> {
    if (!this.perSecond) return;
    const interval = 1000 / this.perSecond;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + interval;
    if (at > now) await sleep(at - now);
  }

  /** Pushes every later start back, after a 429 told the client to wait. */
  backOff(ms: number): void {
    this.next = Math.max(this.next, performance.now() + ms);
  }
}

/**
 * Bounds the number of requests in flight. A request waiting for a slot is let in by its priority
 * (higher first), then in the order it came.
 */
export class Semaphore {
  private active = 0;
  private readonly queue: Array<{ priority: number; resolve: () => void }> = [];
  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>, priority = 0): Promise<T> {
    if (this.active >= this.limit)
      await new Promise<void>((resolve) => {
        const item = { priority, resolve };
        // Kept sorted: the highest priority first, the oldest first among equals.
        let i = this.queue.length;
        while (i > 0 && this.queue[i - 1].priority < priority) i--;
        this.queue.splice(i, 0, item);
      });
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.resolve();
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
