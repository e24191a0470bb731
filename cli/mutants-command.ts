import { writeFileSync } from 'node:fs';
import { runMutants } from '../selftest/mutants.ts';
import type { MutantsOptions } from '../selftest/mutant-row.ts';
import { UsageError } from './usage-error.ts';

/** `conformance selftest --mutants`: prints the mutants' verdicts and the score per service (see selftest/). */
export async function mutantsCommand(opts: MutantsOptions): Promise<number> {
  const log = (line: string) => {
    if (!opts.json) process.stdout.write(`${line}\n`);
  };
  if (opts.sample !== undefined && !(Number(opts.sample) > 0))
    throw new UsageError('--sample must be a positive number');
  const result = await runMutants(opts, log);
  if (opts.out) writeFileSync(opts.out, JSON.stringify(result, null, 2));
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    log('');
    const undetected = result.mutants.filter((m) => m.status === 'survived' || m.status === 'no-coverage');
    // As the triage names a class of them: [region] and `Mutator: original -> replacement`.
    for (const m of undetected)
      log(`${m.status.padEnd(12)} ${m.file}:${m.line} [${m.region}] ${m.mutator}: ${m.original} -> ${m.replacement}`);
    log('');
    for (const [g, s] of Object.entries(result.score))
      log(
        `${g.padEnd(24)} killed ${s.killed}${s.byWarning ? ` (${s.byWarning} by a warning)` : ''}, undetected ${s.undetected}, equivalent ${s.equivalent}${s.notRun ? `, not run ${s.notRun}` : ''}: score ${(s.score * 100).toFixed(1)}%`,
      );
    log(`time: ${(result.durationMs / 1000).toFixed(1)} s (coverage run ${(result.coverageMs / 1000).toFixed(1)} s)`);
  }
  return Object.values(result.score).some((s) => s.undetected > 0) ? 1 : 0;
}
