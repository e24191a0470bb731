import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST } from './e2e-sequencer.ts';
import { root } from './run-cli.ts';

describe("the e2e tier's order", () => {
  it('names e2e test files that exist, each once', () => {
    for (const f of LONGEST_FIRST) {
      expect(f).toMatch(/\.e2e\.test\.ts$/);
      expect(existsSync(join(root, f)), f).toBe(true);
    }
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });
});
