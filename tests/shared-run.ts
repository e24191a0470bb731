import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { cliEnv, root } from './run-cli.ts';

/**
 * One full run of every suite against the embedded reference, made once per `npm test` and read by
 * every test that only reads what a run leaves behind (the report, the HAR): started by the global
 * setup and left to run beside the first test files, awaited by `sharedRun()` where it is read.
 */

export interface SharedRunInfo {
  /** The report folder. */
  dir: string;
  /** The seed it ran with. */
  seed: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedRun: SharedRunInfo;
  }
}

export const SHARED_SEED = 1;

/** Global setup: starts the run in the background (after the temp-folder guard, inside its folder). */
export default function setup(project: TestProject): () => Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'conformance-shared-run-'));
  const dir = join(base, 'report');
  const log = openSync(join(base, 'run.log'), 'w');
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'bin/conformance.js'), 'run', '--seed', String(SHARED_SEED), '--runs', '5', '--report-dir', dir],
    {
      cwd: root,
      env: cliEnv(),
      stdio: ['ignore', log, log],
    },
  );
  const ended = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      try {
        writeFileSync(join(base, 'exit'), String(code ?? signal));
      } catch {
        // The folder is gone: the tests are over.
      }
      resolve();
    }),
  );
  project.provide('sharedRun', { dir, seed: SHARED_SEED });
  return async () => {
    // A run still going (a few test files were run alone) is interrupted as a user would, so that it
    // cleans up after itself, its temp folder included; one that does not end in time is killed.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const late = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await ended;
      clearTimeout(late);
    }
    await ended;
    rmSync(base, { recursive: true, force: true });
  };
}
