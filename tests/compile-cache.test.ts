import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// tsx keeps transformed modules in `$TMPDIR/tsx-<uid>/` and runs what it finds there. A user who
// creates that folder first (mode 777) and plants an entry runs code in the next run of the CLI.
describe('the compile cache of another local user', () => {
  it('runs none of its code: a planted cache folder is not read', () => {
    const tmp = tempDir('planted-cache');
    const marker = join(tmp, 'planted-code-ran');
    // Make the entries tsx would read (a launcher of tsx with its cache on), then plant a line in each.
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(join(root, 'cli/tool-version.ts'))}); await new Promise((r) => setTimeout(r, 1000));`,
      ],
      { cwd: root, env: { ...process.env, TMPDIR: tmp, TSX_DISABLE_CACHE: '' } },
    );
    const cache = readdirSync(tmp).find((f) => f.startsWith('tsx-'));
    expect(cache, 'tsx made its cache folder').toBeDefined();
    const dir = join(tmp, cache!);
    const entries = readdirSync(dir);
    expect(entries.length).toBeGreaterThan(0);
    const planted = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");`;
    for (const e of entries) {
      const entry = JSON.parse(readFileSync(join(dir, e), 'utf8')) as { code: string };
      writeFileSync(
        join(dir, e),
        JSON.stringify({
          ...entry,
          code: `import{createRequire as __c}from"node:module";const require=__c(import.meta.url);${planted}${entry.code}`,
        }),
      );
    }
    chmodSync(dir, 0o777);
    // The planted entries do run code when read: the same launcher, cache on, shows it.
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(join(root, 'cli/tool-version.ts'))});`,
      ],
      { cwd: root, env: { ...process.env, TMPDIR: tmp, TSX_DISABLE_CACHE: '' } },
    );
    expect(existsSync(marker), 'a planted entry runs when read').toBe(true);
    execFileSync('rm', [marker]);
    const out = execFileSync(process.execPath, [join(root, 'bin/conformance.js'), '--version'], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      encoding: 'utf8',
    });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});

// The launcher keeps tsx's cache for its loader in `$TMPDIR/conformance-tsx-<uid>/`, made with
// mode 0700; a folder of that name that another user could enter or that is a link is not used.
describe("the launcher's own compile cache", () => {
  const name = `conformance-tsx-${process.getuid!()}`;
  const version = (tmp: string) =>
    execFileSync(process.execPath, [join(root, 'bin/conformance.js'), '--version'], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      encoding: 'utf8',
    }).trim();
  let planted: string;
  let marker: string;

  // One first start writes the entries; a line that leaves `marker` is planted in each.
  beforeAll(() => {
    const tmp = tempDir('own-cache');
    marker = join(tmp, 'planted-code-ran');
    expect(version(tmp)).toMatch(/^\d+\.\d+\.\d+/);
    planted = join(tmp, name);
    expect(statSync(planted).mode & 0o777).toBe(0o700);
    const cache = join(
      planted,
      readdirSync(planted).find((f) => f.startsWith('tsx-'))!,
    );
    const line = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");`;
    for (const e of readdirSync(cache)) {
      const entry = JSON.parse(readFileSync(join(cache, e), 'utf8')) as { code: string };
      writeFileSync(
        join(cache, e),
        JSON.stringify({
          ...entry,
          code: `import{createRequire as __c}from"node:module";const require=__c(import.meta.url);${line}${entry.code}`,
        }),
      );
    }
  }, 60_000);

  it.each<{ what: string; loosen: (parent: string, tmp: string) => void; read: boolean }>([
    { what: 'kept private (mode 0700): the cache is read', loosen: () => {}, read: true },
    { what: 'opened to others (mode 0777): not read', loosen: (parent) => chmodSync(parent, 0o777), read: false },
    {
      what: 'in a temporary folder others may write to, not sticky (mode 0777): not read',
      loosen: (_parent, tmp) => chmodSync(tmp, 0o777),
      read: false,
    },
    {
      what: 'in a sticky temporary folder others may write to (mode 1777, as /tmp): the cache is read',
      loosen: (_parent, tmp) => chmodSync(tmp, 0o1777),
      read: true,
    },
    {
      what: 'a link to a private folder: not read',
      loosen: (parent, tmp) => {
        renameSync(parent, join(tmp, 'elsewhere'));
        symlinkSync(join(tmp, 'elsewhere'), parent);
      },
      read: false,
    },
  ])(
    'a cache folder $what',
    ({ loosen, read }) => {
      rmSync(marker, { force: true });
      const tmp = tempDir('own-cache');
      const parent = join(tmp, name);
      cpSync(planted, parent, { recursive: true });
      chmodSync(parent, 0o700);
      loosen(parent, tmp);
      expect(version(tmp)).toMatch(/^\d+\.\d+\.\d+/);
      expect(existsSync(marker)).toBe(read);
    },
    60_000,
  );
});
