/** Median, min and max of a list of numbers. */
export function spread(values: number[]): { median: number; min: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

/** "median (min–max) unit" */
export function fmtSpread(values: number[], unit: string, digits = 1): string {
  const { median, min, max } = spread(values);
  return values.length > 1
    ? `${fmt(median, digits)} ${unit} (min ${fmt(min, digits)}, max ${fmt(max, digits)}, n=${values.length})`
    : `${fmt(median, digits)} ${unit}`;
}
