import { loadFaults } from '../fixtures/faults/registry.ts';
import { runSelftest, type SelftestOptions } from '../selftest/variants.ts';

export type { SelftestResult } from '../selftest/variants.ts';

/** `conformance selftest`: the suite against the reference and every fault variant (see selftest/). */
export async function selftestCommand(opts: SelftestOptions): Promise<number> {
  const log = (line: string) => {
    if (!opts.json) process.stdout.write(`${line}\n`);
  };
  const result = await runSelftest(opts, log);
  const rows = result.variants;
  const killed = rows.filter((r) => r.verdict === 'killed').length;
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    log('');
    log(`${'variant'.padEnd(48)} ${'verdict'.padEnd(17)} failed rules`);
    for (const r of rows)
      log(
        `${r.variant.padEnd(48)} ${r.verdict.padEnd(17)} ${r.error ? r.error.split('\n')[0] : r.failed.join(', ') || '-'}`,
      );
    log('');
    log(
      `reference: ${result.reference.falseFailures.length} false failures${result.reference.falseFailures.length ? ` (${result.reference.falseFailures.join(', ')})` : ''}${result.reference.errors.length ? `, errors: ${result.reference.errors.join('; ')}` : ''}`,
    );
    log(
      `mutation score: ${killed}/${rows.length} = ${(result.score * 100).toFixed(1)}%   time: ${(result.durationMs / 1000).toFixed(1)} s`,
    );
  }
  const bad =
    rows.some((r) => r.verdict !== 'killed') ||
    result.reference.falseFailures.length > 0 ||
    result.reference.errors.length > 0;
  return bad ? 1 : 0;
}

/** `conformance faults`: the variants and the rules each must make fail. */
export async function faultsCommand(opts: { json?: boolean }): Promise<void> {
  const faults = await loadFaults();
  if (opts.json) {
    // Seams are code (functions, patterns): the listing names what each variant breaks.
    const listed = faults.map(({ seams: _seams, ...fault }) => fault);
    process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    return;
  }
  for (const f of faults)
    process.stdout.write(`${f.id}  [${f.service}]\n    ${f.description}\n    breaks: ${f.breaks.join(', ')}\n`);
  process.stdout.write(`\n${faults.length} fault variants\n`);
}
