import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './run-cli.ts';

/** The text of a documentation file of the project (`README.md`, `docs/…`). */
export function docText(file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

/** A figure as the README writes it: `1,234`. */
export function figure(n: number): string {
  return n.toLocaleString('en-US');
}

/** Every match of `pattern` (global) in `text`: the captured groups, with where the match starts and ends. */
export function matchesOf(text: string, pattern: RegExp): { groups: string[]; start: number; end: number }[] {
  if (!pattern.global) throw new Error(`${pattern} must be global`);
  return [...text.matchAll(pattern)].map((m) => ({
    groups: m.slice(1).filter((g) => g !== undefined),
    start: m.index,
    end: m.index + m[0].length,
  }));
}
