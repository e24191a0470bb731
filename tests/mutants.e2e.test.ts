import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { carryKills } from '../selftest/mutants.ts';
import { isTransportFailure } from '../selftest/mutant-lane.ts';
import { listMutants, mutatedFiles } from '../selftest/instrument.ts';
import { messageTextIgnorer } from '../selftest/message-text.ts';
import { PASS_THROUGH_SEAMS, seamArgumentIgnorer } from '../selftest/seam-arguments.ts';
import { loadTriage, names, referenceFileOf, selectorOf, triageFiles, type TriageClass } from '../selftest/triage.ts';
import { regionsOf } from '../selftest/regions.ts';
import { projectRoot } from '../selftest/lane-worker.ts';
import type { MutantRow, MutantsResult } from '../selftest/mutant-row.ts';
import { SERVICES } from '../contracts/services.ts';
import { runCli } from './run-cli.ts';

// The mutation self-test's CI sample: a fixed sample of Stryker's mutants of the reference (chosen
// by a hash of each mutant's key, so unrelated edits do not change it). Every mutant of it must be
// killed, or held by a class of fixtures/mutants/triage/ (one file per reference file) as equivalent or irrelevant with its reason.
// The whole set is `npx conformance selftest --mutants` (see the README's Performance section).
const CI_SAMPLE = ['--sample', '12', '--seed', '1'];

/** The mutants Stryker makes of `code` as the file `name`, with `ignorer`, each as `Mutator: original text`. */
async function mutantsMade(name: string, code: string, ignorer: object): Promise<string[]> {
  const { Instrumenter } = await import('@stryker-mutator/instrumenter');
  const quiet = new Proxy({}, { get: (_t, k) => (String(k).startsWith('is') ? () => false : () => undefined) });
  const lines = code.split('\n');
  const result = await new Instrumenter(quiet as never).instrument([{ name, content: code, mutate: true }], {
    plugins: null,
    excludedMutations: [],
    ignorers: [ignorer as never],
  });
  return result.mutants
    .filter((m) => m.status !== 'Ignored')
    .map(
      (m) => `${m.mutatorName}: ${lines[m.location.start.line].slice(m.location.start.column, m.location.end.column)}`,
    );
}

describe('mutation self-test', () => {
  it('keeps a triage whose every class has a reason, a region of its file and mutants the reference yields, and no mutant with two reasons', async () => {
    const triage = loadTriage();
    for (const t of triage) expect(t.reason.trim().length, `${t.file} ${t.region}: no reason`).toBeGreaterThan(10);
    const files = mutatedFiles([...SERVICES], []);
    expect
      .soft(
        triageFiles().filter((f) => !files.includes(referenceFileOf(f))),
        'a triage file names no rule-enforcing file of the reference',
      )
      .toEqual([]);
    // A region the file no longer has, or a class that holds no mutant (the code is gone or
    // changed), is a triage to fix, never one that silently explains nothing. Soft: every problem
    // is listed at once.
    const regions = new Map(
      files.map((f) => [f, new Set(regionsOf(f, readFileSync(join(projectRoot, f), 'utf8')).map((r) => r.path))]),
    );
    const where = (t: TriageClass) => `${t.file} ${t.region}${t.line === undefined ? '' : ` @ ${t.line}`}`;
    expect
      .soft(triage.filter((t) => !regions.get(t.file)?.has(t.region)).map(where), 'a region not found in its file')
      .toEqual([]);
    const made = await listMutants([...SERVICES]);
    const held = (t: TriageClass) => made.filter((m) => names(t, m));
    expect
      .soft(
        triage.filter((t) => !held(t).length).map((t) => `${where(t)}: ${selectorOf(t) ?? 'every mutant'}`),
        'a class that holds no mutant',
      )
      .toEqual([]);
    // Classes may overlap only where they give the same reason.
    expect
      .soft(
        made
          .filter((m) => new Set(triage.filter((t) => names(t, m)).map((t) => t.reason)).size > 1)
          .map((m) => `${m.file}:${m.line} [${m.region}] ${m.mutator}: ${m.original} -> ${m.replacement}`),
        'a mutant two classes explain with different reasons',
      )
      .toEqual([]);
  }, 60_000);

  it('tells a failure on a transport error (re-run before it counts) from a judged answer', () => {
    expect(isTransportFailure({ title: 'transport error (TIMEOUT)', received: 'x' })).toBe(true);
    expect(
      isTransportFailure({
        title: 'property raised an error',
        received: 'POST /api/eventmanagement/v3/events: timeout: response not complete after 10000 ms',
      }),
    ).toBe(true);
    expect(isTransportFailure({ title: 'status', received: '500 Internal Server Error' })).toBe(false);
    expect(isTransportFailure({ title: 'property raised an error', received: 'TypeError: x is undefined' })).toBe(
      false,
    );
    expect(isTransportFailure(undefined)).toBe(false);
  });

  it('leaves out the words of an error message, never its status, code or the value it reads', async () => {
    const code = [
      "export const a = (n: number) => (n > 2 ? invalidBody(`too long: ${n > 9 ? 'x' : 'y'}`) : noMatch('none'));",
      "export const b = (reply: unknown) => sendError(reply, 'invalidParameter', 'bad page');",
      "export const c = () => new NotificationError('conflict', 'taken');",
      "export const d = (v: string) => requiredString({}, 'name', v);",
    ].join('\n');
    const mutantsOf = (name: string) => mutantsMade(name, code, messageTextIgnorer);
    const notification = await mutantsOf('/x/fixtures/reference/notification/t.ts');
    // the status decision stays, and the codes, and a literal that is not a message
    expect(notification).toContain('ConditionalExpression: n > 2');
    expect(notification).toContain("StringLiteral: 'invalidParameter'");
    expect(notification).toContain("StringLiteral: 'conflict'");
    expect(notification).toContain("StringLiteral: 'name'");
    // the words of the messages, and all that only builds them, go
    const gone = [
      "StringLiteral: `too long: ${n > 9 ? 'x' : 'y'}`",
      "StringLiteral: 'x'",
      'ConditionalExpression: n > 9',
      "StringLiteral: 'none'",
      "StringLiteral: 'bad page'",
      "StringLiteral: 'taken'",
    ];
    expect(notification.filter((m) => gone.includes(m))).toEqual([]);
    // the token manager's messages come from per-code templates and stay mutated
    const tokenManager = await mutantsOf('/x/fixtures/reference/technical-token-manager/t.ts');
    expect(tokenManager).toContain("StringLiteral: 'none'");
  });

  it('leaves out what only seams read: the where of a pass-through seam, what a refusal is about, whose rule it is', async () => {
    const code = [
      "export const a = (seams: S, at: At, v: string) => seams.body(v.trim(), { ...at, field: 'x' });",
      "export const b = (seams: S, v: string) => seams.checks.address(v, 'y');",
      "export const c = (e: E) => about(e, { kind: 'not-held' });",
    ].join('\n');
    const made = await mutantsMade('/x/fixtures/reference/notification/t.ts', code, seamArgumentIgnorer);
    expect(PASS_THROUGH_SEAMS.notification.has('body')).toBe(true);
    // the value a seam passes through, and a named validator's arguments (not a pass-through seam), stay
    expect(made).toContain('MethodExpression: v.trim()');
    expect(made).toContain("StringLiteral: 'y'");
    expect(made).not.toContain("ObjectLiteral: { ...at, field: 'x' }");
    expect(made).not.toContain("StringLiteral: 'x'");
    expect(made).not.toContain("StringLiteral: 'not-held'");
    // the rule whose refusal an event-management check asks for; the check's own condition stays
    const refusal = await mutantsMade(
      '/x/fixtures/reference/event-management/t.ts',
      "export const d = (seams: S, n: number) => n > 1 && refuses(seams, 'event-management/x/y-400', 'f');",
      seamArgumentIgnorer,
    );
    expect(refusal).toContain('EqualityOperator: n > 1');
    expect(refusal).not.toContain("StringLiteral: 'event-management/x/y-400'");
    expect(refusal).not.toContain("StringLiteral: 'f'");
  });

  it('carries an earlier kill over to the same mutant only (--since), never a survivor', () => {
    const row = (over: Partial<MutantRow>): MutantRow => ({
      id: '0',
      file: 'fixtures/reference/x.ts',
      line: 3,
      group: 'notification',
      mutator: 'EqualityOperator',
      original: 'a === b',
      replacement: 'a !== b',
      at: 'if (a === b) return;',
      nth: 1,
      region: 'f',
      status: 'not-run',
      killedBy: [],
      specFiles: 0,
      tests: 0,
      durationMs: 0,
      ...over,
    });
    const earlier = [
      row({ status: 'killed', killedBy: ['notification/r'] }),
      row({ original: 'c', replacement: 'd', status: 'survived' }),
      row({ at: 'while (a === b) go();', status: 'killed', killedBy: ['notification/s'] }),
    ];
    const now = [row({}), row({ original: 'c', replacement: 'd' }), row({ at: 'if (a === b) stop();' })];
    expect(carryKills(earlier, now)).toBe(1);
    expect(now.map((m) => [m.status, m.carried ?? false, m.killedBy])).toEqual([
      ['killed', true, ['notification/r']],
      ['not-run', false, []],
      ['not-run', false, []],
    ]);
  });

  it('kills every mutant of the CI sample that no triage class explains', async () => {
    const res = await runCli(['selftest', '--mutants', '--json', ...CI_SAMPLE], { timeoutMs: 560_000 });
    const result = JSON.parse(res.stdout) as MutantsResult;
    process.stdout.write(
      `mutants CI sample: ${result.mutants.length} mutants, ${result.mutants.filter((m) => m.status === 'killed').length} killed, ${(result.durationMs / 1000).toFixed(1)} s\n`,
    );
    expect(result.mutants).toHaveLength(12);
    expect(
      result.mutants
        .filter((m) => !['killed', 'timeout', 'crashed', 'equivalent'].includes(m.status))
        .map((m) => `${m.status} ${m.file}:${m.line} [${m.region}] ${m.mutator}: ${m.original} -> ${m.replacement}`),
    ).toEqual([]);
    expect(res.code).toBe(0);
  }, 600_000);
});
