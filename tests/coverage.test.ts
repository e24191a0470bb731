import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../contracts/services.ts';
import { buildCoverage, COVERAGE_FILE, renderCoverage } from '../cli/coverage-command.ts';
import { root } from './run-cli.ts';

const withSuite = SERVICES.filter((s) => {
  const dir = join(root, 'suites', s);
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.spec.ts'));
});

describe('coverage list (suites/coverage.yaml)', async () => {
  const coverage = await buildCoverage();

  it('is up to date (regenerate with `npx conformance coverage --write`)', () => {
    expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(renderCoverage(coverage));
  });

  for (const service of withSuite) {
    it(`gives every testable ${service} rule a test`, () => {
      const missing = Object.entries(coverage).filter(
        ([id, e]) => id.startsWith(`${service}/`) && e.testable && e.tests.length === 0,
      );
      expect(missing.map(([id]) => id)).toEqual([]);
    });
  }
});
