import { describe, expect, it } from 'vitest';
import { loadServiceCatalog } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { MIN_RUNS } from '../certification/certification-profile.ts';
import { buildProgram } from '../cli/program.ts';
import { DEFAULT_CONCURRENCY, EXIT } from '../cli/run-command.ts';
import { DEFAULT_CLEANUP_TIMEOUT_MS } from '../suites/engine/ledger.ts';
import { THROTTLE_PROBE } from '../suites/engine/throttle-probe.ts';
import { INPUT_BOUNDS } from '../reporters/untrusted-input.ts';
import { docText, figure, matchesOf } from './readme-text.ts';

// The README states the tool's interface: the documents' versions, the defaults of options, the
// exit codes, the commands. Each is read here from the code that sets it, so it cannot drift.
// Counts about the rules (rules, levels, readings, checks, variants, warnings) are not kept in
// the pages: `npx conformance rules --summary` computes them.

interface Figure {
  what: string;
  /** Global; each capture group is one figure. */
  pattern: RegExp;
  /** The figures the groups must read, in order. */
  expected: (string | number)[];
}

const readmeFigures: Figure[] = [
  {
    what: 'the versions of the service documents',
    pattern:
      /platform REST services — the \*\*Technical Token Manager\*\*\s+\((\S+)\), the \*\*Notification Service\*\* \((\S+)\) and the \*\*Event Management Service\*\* \((\S+)\)/g,
    expected: SERVICES.map((s) => loadServiceCatalog(s).version),
  },
  {
    what: 'the default concurrency',
    pattern: /\(default ([\d,]+) requests in flight\)/g,
    expected: [DEFAULT_CONCURRENCY],
  },
  {
    what: 'the default cleanup budget',
    pattern: /`--cleanup-timeout` \(default `(\d+)s`\)/g,
    expected: [DEFAULT_CLEANUP_TIMEOUT_MS / 1000],
  },
  {
    what: 'the bounds of the throttle probe',
    pattern: /bursts of (\d+) requests[^.]*?at most (\d+) requests or (\d+) s/g,
    expected: [THROTTLE_PROBE.burst, THROTTLE_PROBE.maxRequests, THROTTLE_PROBE.maxMs / 1000],
  },
  {
    what: 'the fewest runs of certification',
    pattern: /at least the default (\d+) runs per property/g,
    expected: [MIN_RUNS],
  },
  {
    what: 'the bounds of the files it reads',
    pattern:
      /within a bound of its kind: (\d+) MiB for reports, HARs and\s+mutation results, (\d+) MiB for configurations, baselines and CA files, (\d+) KiB for keys/g,
    expected: [INPUT_BOUNDS.report / 2 ** 20, INPUT_BOUNDS.config / 2 ** 20, INPUT_BOUNDS.key / 2 ** 10],
  },
];

describe('the README', () => {
  const readme = docText('README.md');

  it.each(readmeFigures)('$what', ({ pattern, expected }) => {
    const found = matchesOf(readme, pattern);
    expect(found.length, `README.md no longer says ${pattern}`).toBeGreaterThan(0);
    const want = expected.map((e) => (typeof e === 'number' ? figure(e) : e));
    for (const m of found) expect(m.groups).toEqual(want);
  });

  it('names only commands and options that exist', () => {
    const program = buildProgram();
    const commands = new Map(program.commands.map((c) => [c.name(), c]));
    const wrong = matchesOf(readme, /\bnpx conformance ([a-z][a-z-]*)((?: [^\s`]+)*)/g).flatMap(({ groups }) => {
      const [name, rest = ''] = groups;
      const command = commands.get(name);
      if (!command) return name.startsWith('-') ? [] : [`conformance ${name}`];
      const options = new Set(['--help', ...command.options.flatMap((o) => [o.long, o.short])]);
      return [...rest.matchAll(/ (--[a-z][a-z-]*)/g)]
        .map((m) => m[1])
        .filter((o) => !options.has(o))
        .map((o) => `conformance ${name} ${o}`);
    });
    expect(wrong).toEqual([]);
  });
});

describe('the exit codes of `run`', () => {
  const codes = [...new Set(Object.values(EXIT))].sort((a, b) => a - b).map(String);

  it('the README’s table lists every code, and no other', () => {
    const table = docText('README.md').split('Exit codes of `run`')[1]?.split('\n\n')[1] ?? '';
    expect(matchesOf(table, /^\| `(\d+)` \|/gm).map((m) => m.groups[0])).toEqual(codes);
  });

  it('the CI example’s comment names every code a run ends with', () => {
    const comment = /# default in GitHub Actions\)\. (Exit [^\n]+\n(?:\s+#[^\n]+\n)*)/.exec(
      docText('docs/ci/conformance.yml'),
    )?.[1];
    expect(matchesOf(comment ?? '', /\b(\d+) [a-z]/g).map((m) => m.groups[0])).toEqual(
      codes.filter((c) => Number(c) < 128),
    );
  });
});
