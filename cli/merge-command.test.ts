import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir.ts';
import { validReport } from '../tests/untrusted-samples.ts';
import { mergeCommand } from './merge-command.ts';
import { UsageError } from './usage-error.ts';

/** A report folder holding the report of shard `shard` (none: a whole run) of the run of `seed`. */
function reportDir(dir: string, name: string, shard: string | undefined, seed = 7): string {
  const d = join(dir, name);
  mkdirSync(d);
  writeFileSync(join(d, 'conformance-report.json'), JSON.stringify({ ...validReport(), seed, shard }));
  return d;
}

describe('conformance merge', () => {
  it.each<[string, Array<[string | undefined, number?]>]>([
    ['a shard missing', [['1/3'], ['3/3']]],
    [
      'shards of two runs',
      [
        ['1/2', 7],
        ['2/2', 8],
      ],
    ],
    ['two whole runs', [[undefined], [undefined]]],
  ])('refuses %s with exit 2 and writes nothing', (_name, shards) => {
    const dir = tempDir('merge-refused');
    const dirs = shards.map(([shard, seed], i) => reportDir(dir, `r${i}`, shard, seed));
    const out = join(dir, 'merged');
    expect(() => mergeCommand(dirs, { reportDir: out })).toThrow(UsageError);
    expect(() => mergeCommand(dirs, { reportDir: out })).toThrow(/^merge refused, nothing written: /);
    expect(existsSync(out)).toBe(false);
  });

  it('merges every shard of one run', () => {
    const dir = tempDir('merge-whole');
    const dirs = ['2/2', '1/2'].map((shard, i) => reportDir(dir, `r${i}`, shard));
    const write = process.stdout.write;
    process.stdout.write = () => true;
    try {
      expect(mergeCommand(dirs, { reportDir: join(dir, 'merged') })).toBe(1);
    } finally {
      process.stdout.write = write;
    }
    const merged = JSON.parse(readFileSync(join(dir, 'merged', 'conformance-report.json'), 'utf8')) as {
      shard: string;
    };
    expect(merged.shard).toBe('merged 1/2, 2/2');
  });
});
