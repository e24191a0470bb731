import { UsageError } from './usage-error.ts';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export interface DurationOptions {
  /** What a bare number counts: `ms` for the options that always took milliseconds, else `s`. */
  bare: 'ms' | 's';
  /** Shortest duration taken, in ms. */
  minMs: number;
}

/**
 * A duration option (`500ms`, `10s`, `2m`, `1h`, or a bare number in the option's historical unit)
 * in milliseconds; every time option of the command line takes one.
 */
export function parseDuration(value: string | undefined, flag: string, opts: DurationOptions): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? opts.bare] : NaN;
  if (!Number.isFinite(ms) || ms < opts.minMs) {
    const least = opts.minMs % 1000 ? `${opts.minMs} ms` : `${opts.minMs / 1000} s`;
    throw new UsageError(
      `${flag} takes a duration of at least ${least} such as 500ms, 10s, 2m or 1h (a bare number is ${opts.bare === 'ms' ? 'milliseconds' : 'seconds'}), not "${value}"`,
    );
  }
  return Math.round(ms);
}
