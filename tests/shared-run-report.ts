import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { SharedRunInfo } from './shared-run.ts';

/**
 * The shared run's report folder once the run has ended (its exit code 0: the reference passes).
 * Waits for it with a bound; a run that failed or did not end fails the test that needs it, with
 * the run's log.
 */
async function awaitSharedRun(info: SharedRunInfo, boundMs: number): Promise<string> {
  const base = join(info.dir, '..');
  const exit = join(base, 'exit');
  const until = Date.now() + boundMs;
  while (!existsSync(exit)) {
    if (Date.now() > until) throw new Error(`the shared run did not end within ${boundMs} ms\n${tail(base)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const code = readFileSync(exit, 'utf8');
  if (code !== '0') throw new Error(`the shared run ended with ${code}\n${tail(base)}`);
  return info.dir;
}

function tail(base: string): string {
  try {
    return readFileSync(join(base, 'run.log'), 'utf8').slice(-3000);
  } catch {
    return '(no log)';
  }
}

/** The shared run's report folder (see `shared-run.ts`), once it has ended. */
export function sharedRunDir(boundMs = 300_000): Promise<string> {
  return awaitSharedRun(inject('sharedRun'), boundMs);
}

/** The shared run's report. */
export async function sharedRunReport(): Promise<ConformanceReport> {
  return JSON.parse(readFileSync(join(await sharedRunDir(), 'conformance-report.json'), 'utf8')) as ConformanceReport;
}

/** The seed the shared run ran with. */
export function sharedRunSeed(): number {
  return inject('sharedRun').seed;
}
