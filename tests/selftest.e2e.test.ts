import { describe, expect, it } from 'vitest';
import type { SelftestResult } from '../cli/selftest-command.ts';
import { runCli } from './run-cli.ts';

// A representative slice of the fault variants, run on every change: a boundary, an auth, a
// body-shape and a stateful fault of each service. The whole matrix is `npx conformance selftest`.
export const CI_SLICE = [
  'size-above-500-accepted',
  'scope-not-checked-on-user-tenants',
  'error-body-without-errors-array',
  'jti-repeated',
  'scope-not-checked-on-publish',
  'india-phone-accepted-on-create',
  'category-list-all-tenants',
  'publish-priority-5-accepted',
];

describe('selftest (CI slice)', () => {
  it('kills every variant of the slice by an expected rule, with no false failure on the reference', async () => {
    const res = await runCli(['selftest', '--json', '--faults', ...CI_SLICE], { timeoutMs: 280_000 });
    const result = JSON.parse(res.stdout) as SelftestResult;
    process.stdout.write(
      `selftest slice: ${result.variants.length} variants, score ${result.score}, ${(result.durationMs / 1000).toFixed(1)} s\n`,
    );
    // As text, so that a failure shows what failed rather than `[ Array(1) ]`.
    expect(result.reference.falseFailures.map((f) => JSON.stringify(f).slice(0, 600))).toEqual([]);
    expect(result.reference.errors.map((e) => JSON.stringify(e).slice(0, 600))).toEqual([]);
    expect(result.variants.map((v) => `${v.variant}: ${v.verdict}`)).toEqual(
      CI_SLICE.map((id) => `${id}: killed`).sort(),
    );
    expect(res.code).toBe(0);
  }, 300_000);
});
