import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder in the system temp folder; `tests/temp-dir-setup.ts` removes it after the test file. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `conformance-${name}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
