/** Edit distance (insertions, deletions, substitutions) between two strings. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** The known name closest to `name` when it is close enough to be a slip (`notifications` → `notification`). */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = lower.length >= 4 && (k.includes(lower) || lower.includes(k)) ? 1 : distance(lower, k);
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.name.length / 4)) ? best.name : undefined;
}
