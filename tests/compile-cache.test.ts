import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
