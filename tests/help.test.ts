import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

/** The subcommands `conformance --help` lists. */
function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]).filter((c) => c !== 'help');
}

/** The long options a command's help lists. */
function optionsOf(help: string): Set<string> {
  return new Set([...help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]));
}

describe('--help', () => {
  it('of the program lists the commands and shows an example', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    expect(commandsOf(res.stdout).length).toBeGreaterThanOrEqual(8);
    expect(commandsOf(res.stdout)).toEqual(expect.arrayContaining(['explain', 'coverage', 'rules', 'faults']));
    expect(res.stdout).toMatch(/Examples?:\n {2}\$ npx conformance /);
  });

  it('of every command shows an example of that command whose options the command has', async () => {
    const commands = commandsOf((await runCli(['--help'])).stdout);
    // Four at a time: twenty CLI processes at once on a two-core machine came close to the limit.
    const results: Array<{ c: string; res: Awaited<ReturnType<typeof runCli>> }> = [];
    const queue = [...commands];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let c = queue.shift(); c !== undefined; c = queue.shift())
          results.push({ c, res: await runCli([c, '--help']) });
      }),
    );
    for (const { c, res } of results) {
      expect(res.code, c).toBe(0);
      const [usage, examples] = res.stdout.split(/^Examples?:$/m);
      expect(examples, `${c} --help shows no example`).toBeDefined();
      const lines = examples.split('\n').filter((l) => l.trim().startsWith('$'));
      expect(lines.length, c).toBeGreaterThan(0);
      const known = optionsOf(usage);
      for (const line of lines) {
        expect(line, c).toMatch(new RegExp(`^ {2}\\$ npx conformance ${c}\\b`));
        const command = line.replace(/#.*$/, '');
        for (const flag of command.match(/\s(--[a-z][a-z-]*)/g) ?? [])
          expect(known, `${c}: the example uses ${flag.trim()}, which ${c} does not have`).toContain(flag.trim());
      }
    }
  }, 120_000);
});
