import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The e2e tier's files, longest first, as measured (each file's time in a fresh clone's `.ci/run`).
 * With two workers the tier ends no sooner than its longest file, and a fresh clone has no vitest
 * duration cache: started in this order, the long files run beside the short ones instead of last.
 * A file not listed runs after these, in vitest's own order. A committed list, not a measure taken
 * at run time: refresh it when a file’s weight changes much.
 */
export const LONGEST_FIRST = [
  'tests/config-slips.e2e.test.ts',
  'tests/certification.e2e.test.ts',
  'tests/shard-merge.e2e.test.ts',
  'tests/mutants.e2e.test.ts',
  'tests/console.e2e.test.ts',
  'certification/config-requirements.e2e.test.ts',
  'tests/container-image.e2e.test.ts',
  'tests/mutation-proxy.e2e.test.ts',
  'tests/cleanup.e2e.test.ts',
  'tests/baseline-and-repro.e2e.test.ts',
  'tests/packed-install.e2e.test.ts',
  'tests/selftest.e2e.test.ts',
  'tests/filter-dialect.e2e.test.ts',
  'tests/interrupt.e2e.test.ts',
  'tests/github-action.e2e.test.ts',
  'tests/independent-deployment.e2e.test.ts',
  'tests/alternate-profile.e2e.test.ts',
  'tests/read-only.e2e.test.ts',
  'tests/har-audit-faults.e2e.test.ts',
  'tests/echo-secrets.e2e.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(this.ctx.config.root, spec.moduleId).replaceAll('\\', '/'));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the unlisted files keep the base order.
    return [...base].sort((a, b) => rank(a) - rank(b));
  }
}
