import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { READERS, type ReaderName, type ReaderOutcome } from './special-file-readers.ts';
import { cliEnv, root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// A FIFO, a link to /dev/zero or an oversized file where a handed-over file belongs: each reader
// refuses it before opening it for reading, with one line. Before, a FIFO made the command wait
// for ever, /dev/zero was read until memory ran out, and a configuration of 1.5 GB was read whole.
const KINDS = {
  FIFO: { make: (p: string) => execFileSync('mkfifo', [p]), refusal: /not a regular file \(a FIFO; / },
  'link to /dev/zero': { make: (p: string) => symlinkSync('/dev/zero', p), refusal: /not a regular file \(a device; / },
  'file one byte over the bound': {
    make: (p: string, bound: number) => {
      writeFileSync(p, '');
      truncateSync(p, bound + 1); // sparse: no disk and no time
    },
    refusal: /larger than \d+ bytes is not read/,
  },
} as const;

const rows = (Object.keys(READERS) as ReaderName[]).flatMap((reader) =>
  (Object.keys(KINDS) as Array<keyof typeof KINDS>).map((kind) => ({ reader, kind })),
);

/** Runs every row in one child process, killed after `ms`: rows it did not answer hung (or ran away). */
function runReaders(args: Array<{ reader: ReaderName; path: string }>, ms: number): Promise<ReaderOutcome[]> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'tests/special-file-readers.ts'), JSON.stringify(args)],
      {
        cwd: root,
        env: cliEnv({ TSX_DISABLE_CACHE: '1' }),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ReaderOutcome),
      );
    });
  });
}

describe('a special or oversized file where a handed-over file belongs', () => {
  let outcomes: ReaderOutcome[] = [];
  beforeAll(async () => {
    const dir = tempDir('special-files');
    const args = rows.map(({ reader, kind }, i) => {
      const { bound, inFolder } = READERS[reader] as { bound: number; inFolder?: string };
      const folder = join(dir, String(i));
      mkdirSync(folder);
      const file = join(folder, inFolder ?? 'input.json');
      KINDS[kind].make(file, bound);
      return { reader, path: inFolder ? folder : file };
    });
    outcomes = await runReaders(args, 20_000);
  }, 30_000);

  test.each(rows.map((r, i) => [r.reader, r.kind, i] as const))('%s: %s is refused with one line', (_r, kind, i) => {
    const got = outcomes.find((o) => o.row === i);
    expect(got, 'no answer: the reader waited (a FIFO) or kept reading (a device), and was killed').toBeDefined();
    expect(got?.outcome).toBe('refused');
    expect(got?.message).toMatch(KINDS[kind].refusal);
    expect(got?.message).not.toContain('\n');
  });
});
