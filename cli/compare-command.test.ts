import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from '../reporters/conformance-report.ts';
import { tempDir } from '../tests/temp-dir.ts';
import { validReport } from '../tests/untrusted-samples.ts';
import { compareCommand } from './compare-command.ts';

const base = validReport();
const must = base.rules.find((r) => r.level === 'MUST')!;

/** A report file of `base` with the MUST rule `must` as `change` makes it (undefined: left out). */
function reportFile(dir: string, name: string, change: (r: RuleResult) => RuleResult | undefined): string {
  const rules = base.rules.flatMap((r) => (r.id === must.id ? (change(r) ?? []) : [r]));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...base, rules } satisfies ConformanceReport));
  return file;
}

async function exitOf(oldFile: string, newFile: string): Promise<number> {
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    return await compareCommand(oldFile, newFile, {});
  } finally {
    process.stdout.write = write;
  }
}

describe('conformance compare: the gate', () => {
  const failed = (r: RuleResult): RuleResult => ({
    ...r,
    status: 'failed',
    failure: {
      title: 't',
      severity: 'high',
      expected: 'e',
      received: 'r',
      test: 'x',
      replay: `npx conformance replay conformance-report.json ${r.id}`,
    },
  });

  it.each<[string, number, (r: RuleResult) => RuleResult | undefined, (r: RuleResult) => RuleResult | undefined]>([
    ['nothing changed', 0, (r) => ({ ...r, status: 'passed' }), (r) => ({ ...r, status: 'passed' })],
    [
      'a MUST rule passed before, skipped now',
      1,
      (r) => ({ ...r, status: 'passed' }),
      (r) => ({ ...r, status: 'skipped', reasonCode: 'principal' }),
    ],
    ['a MUST rule failed now and absent before', 1, () => undefined, failed],
    [
      'a MUST rule failed now and skipped before',
      1,
      (r) => ({ ...r, status: 'skipped', reasonCode: 'principal' }),
      failed,
    ],
  ])('%s: exit %i', async (_name, code, before, after) => {
    const dir = tempDir('compare-gate');
    expect(await exitOf(reportFile(dir, 'old', before), reportFile(dir, 'new', after))).toBe(code);
  });
});
