import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import { explain, INSTALLED_SOURCES, renderExplanation, type Explanation } from '../cli/explain-command.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const ID = 'event-management/events/severity-range';
const rule = loadRules().find((r) => r.id === ID)!;

/** The text of line `line` (1-based) of a project file. */
const lineOf = (file: string, line: number) => readFileSync(join(root, file), 'utf8').split('\n')[line - 1];

describe('conformance explain', () => {
  it('shows a known rule: quote, tests at their declaration lines, checks, basis, fault variants, `// rule:` lines', async () => {
    const res = await runCli(['explain', ID]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`"${rule.source.quote}"`);
    expect(res.stdout).toContain(rule.source.section);
    expect(res.stdout).toContain(rule.statement);

    const section = (title: string) => res.stdout.split(/^(?=\S)/m).find((s) => s.startsWith(title)) ?? '';
    const tests = [...section('tests (').matchAll(/^ {2}(suites\/\S+\.spec\.ts):(\d+) {2}/gm)];
    expect(tests.length).toBeGreaterThan(0);
    // Each test line points at the call that declares the test, whose rule list names the rule.
    for (const [, file, line] of tests) {
      expect(lineOf(file, Number(line))).toMatch(/\w*[tT]est\(/);
      const declaration = readFileSync(join(root, file), 'utf8')
        .split('\n')
        .slice(Number(line) - 1, Number(line) + 14);
      expect(declaration.join('\n')).toContain(`'${ID}'`);
    }

    for (const f of (await loadFaults()).filter((x) => x.breaks.includes(ID)))
      expect(res.stdout).toContain(`${f.id}  ${f.description}`);

    expect(section('checks naming it (')).toMatch(/^ {2}suites\/\S+:\d+/m);
    const marks = [...section('reference (').matchAll(/^ {2}(fixtures\/reference\/\S+\.ts):(\d+) {2}/gm)];
    expect(marks.length).toBeGreaterThan(0);
    for (const [, file, line] of marks) expect(lineOf(file, Number(line))).toContain(`// rule: ${ID}`);

    expect(res.stdout).toMatch(/^basis: (document|reading)/m);
    expect(res.stdout).toContain('mutants: no mutation result on record');
  });

  it('refuses an unknown ID with exit 2 and one line naming the closest rule', async () => {
    const res = await runCli(['explain', 'event-management/events/severity-rang']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(`did you mean ${ID}?`);
  });

  it('--json gives the same facts as one object', async () => {
    const res = await runCli(['explain', ID, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const x = JSON.parse(res.stdout) as Explanation;
    expect(Object.keys(x)).toEqual(
      expect.arrayContaining([
        'id',
        'level',
        'source',
        'statement',
        'readings',
        'testable',
        'tests',
        'checks',
        'basis',
        'faults',
        'reference',
        'mutants',
      ]),
    );
    expect(x).toMatchObject({ id: ID, level: rule.level, source: rule.source, testable: true, mutants: null });
    expect(x.tests[0]).toEqual({
      file: expect.stringMatching(/^suites\//),
      line: expect.any(Number),
      name: expect.any(String),
    });
    expect(x.checks.every((c) => c.file.startsWith('suites/') && c.line > 0)).toBe(true);
    expect(x.basis?.basis).toMatch(/^(document|reading)$/);
    expect(x.faults?.map((f) => f.id)).toContain('severity-99-refused');
    expect(x.reference?.[0]).toMatchObject({
      file: expect.stringMatching(/^fixtures\/reference\//),
      line: expect.any(Number),
    });
  });

  it('finds a refusal that names the rule at its call, from the statement that holds it', async () => {
    const x = await explain('event-management/etags/update-event-stale-412');
    const refusals = (x.reference ?? []).filter((r) => r.code.includes('refuses('));
    expect(refusals).toHaveLength(1);
    const [site] = refusals;
    expect(site).toMatchObject({ file: 'fixtures/reference/event-management/event-service.ts', comment: '' });
    expect(site.code.startsWith(lineOf(site.file, site.line).trim())).toBe(true);
    expect(site.code).toMatch(
      /^if \(.*ifMatch !== record\.etag && refuses\(this\.seams, 'event-management\/etags\/update-event-stale-412'\)$/,
    );
  });

  it('finds tests declared through a table, where the rule list is a variable', async () => {
    const x = await explain('notification/categories/name-alphanumeric');
    expect(x.tests.length).toBeGreaterThan(0);
    for (const s of x.tests) expect(lineOf(s.file, s.line!)).toMatch(/\w*[tT]est\(/);
  });

  it('without the fixtures in the installation, says so for the fault variants and the reference', async () => {
    const missing = join(tempDir('explain'), 'absent');
    const x = await explain(
      ID,
      {},
      { faultsRegistry: join(missing, 'registry.ts'), referenceDir: missing, mutationResultsDir: missing },
    );
    expect(x.faults).toBeNull();
    expect(x.reference).toBeNull();
    expect(x.tests.length).toBeGreaterThan(0);
    const text = renderExplanation(x);
    expect(text).toContain('fault variants: not in this installation');
    expect(text).toContain('reference: not in this installation');
  });

  it('reads a mutation result: the mutants the rule killed and those on its `// rule:` lines', async () => {
    const base = await explain(ID);
    const mark = base.reference![0];
    const result = join(tempDir('explain'), 'mutants.json');
    writeFileSync(
      result,
      JSON.stringify({
        mutants: [
          { file: 'fixtures/reference/x.ts', line: 1, mutator: 'EqualityOperator', status: 'killed', killedBy: [ID] },
          { file: mark.file, line: mark.line + 1, mutator: 'BooleanLiteral', status: 'survived', killedBy: [] },
        ],
      }),
    );
    const x = await explain(
      ID,
      { mutationResult: [result] },
      { ...INSTALLED_SOURCES, mutationResultsDir: join(result, 'none') },
    );
    expect(x.mutants).toMatchObject({ killedBy: 1, near: [{ file: mark.file, status: 'survived' }] });
    expect(renderExplanation(x)).toContain(`${mark.file}:${mark.line + 1}  BooleanLiteral survived`);
  });

  it('shows text read from files through the terminal escaping', async () => {
    const x = await explain(ID);
    const hostile = {
      ...x,
      statement: 'ok\u001b]0;PWNED\u0007',
      tests: [{ file: 'suites/a.spec.ts', line: 1, name: 't\u202e' }],
    };
    const text = renderExplanation(hostile);
    for (const c of ['\u001b', '\u0007', '\u202e']) expect(text).not.toContain(c);
    expect(text).toContain('\\x1b]0;PWNED\\x07');
  });
});
