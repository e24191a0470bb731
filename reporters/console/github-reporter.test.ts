import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import type { TestRecord } from '../../suites/engine/suite-runner.ts';
import { commandShapedLines, honouredCommands } from '../../tests/github-runner.ts';
import { buildReport } from '../conformance-report.ts';
import { consoleHeadline, consoleSummary } from '../console-summary.ts';
import { annotations, exitAnnotation, runExitReason } from '../github-annotations.ts';
import { keepRawWrite, Terminal } from '../terminal.ts';
import { guardStream } from '../untrusted-text.ts';
import { githubReporter } from './github-reporter.ts';

/**
 * What a target can write to make GitHub's runner act on a run's log: mask a word everywhere
 * after it, plant an annotation, set an output, stop the tool's own annotations.
 */
const HOSTILE = [
  '##[add-mask]Expected',
  '##[error title=planted]the target planted this annotation',
  '##[set-output name=verdict;]passed',
  '\n::set-output name=verdict::passed',
  '\n  ::add-mask::Received',
  '\n::stop-commands::planted',
  '\r::error::after a carriage return',
].join(' ');

const rule = loadRules(['technical-token-manager'])[0];

function hostileReport() {
  const record: TestRecord = {
    file: 'suites/technical-token-manager/x.spec.ts',
    name: `a test named ${HOSTILE}`,
    service: 'technical-token-manager',
    state: 'failed',
    durationMs: 1,
    rules: [rule.id],
    outcomes: {
      [rule.id]: {
        status: 'failed',
        failure: {
          title: `error body: ${HOSTILE}`,
          severity: 'high',
          expected: 'an error body',
          received: HOSTILE,
          counterexample: { name: HOSTILE },
          seed: 1,
          path: '0',
          curl: `curl -X POST 'http://127.0.0.1:1/${HOSTILE}'`,
        },
      },
    },
    budget: 1,
    readOnly: true,
    errors: [HOSTILE],
  };
  const report = buildReport([rule], [record], {
    services: ['technical-token-manager'],
    interrupted: false,
    reportFile: 'r.json',
    toolVersion: '0',
    target: 'http://127.0.0.1:1',
    embedded: false,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    seed: 1,
    options: {},
    errors: [HOSTILE],
  });
  return { record, report };
}

/** The console of a run under the github reporter, in the run's order (cli/run-command.ts). */
function githubLog(
  from = hostileReport(),
  exitCode = 1,
): { log: string; report: ReturnType<typeof hostileReport>['report'] } {
  const { record, report } = from;
  let log = '';
  const stream = { write: (c: string | Uint8Array) => ((log += String(c)), true) };
  // As the command's console is (cli/main.ts): the Terminal's own raw write, the rest guarded.
  keepRawWrite(stream);
  guardStream(stream);
  const terminal = new Terminal(stream, { colour: false });
  const reporter = githubReporter(terminal, {});
  reporter.onStart?.();
  terminal.line('conformance run — seed 1');
  reporter.onTest({
    service: 'technical-token-manager',
    testsDone: 1,
    testsTotal: 1,
    done: 1,
    total: 1,
    failedRules: 1,
    newlyFailed: [rule.id],
    test: record,
    elapsedMs: 1,
    stopping: false,
  });
  reporter.onTestsEnd();
  terminal.line(consoleHeadline(report));
  // The summary is written to the guarded console as one chunk, as the run does.
  stream.write(consoleSummary(report, ['r.json'], { headline: false }));
  reporter.onReport?.(report, exitCode);
  reporter.onEnd?.();
  return { log, report };
}

describe('the github reporter keeps a target’s workflow commands inert', () => {
  it('the runner acts only on the tool’s own commands: stop, resume, then one ::error per failed rule and one for the exit', () => {
    const { log, report } = githubLog();
    expect(log).toContain('the target planted this annotation');
    const acted = honouredCommands(log);
    const [stop, resume, ...errors] = acted;
    expect(stop.command).toBe('stop-commands');
    expect(stop.data).toMatch(/^[0-9a-f]{32}$/);
    expect(resume.line).toBe(`::${stop.data}::`);
    expect(errors.map((c) => c.line)).toEqual([
      ...annotations(report),
      exitAnnotation('run', runExitReason(report, 1)),
    ]);
    expect(errors).toHaveLength(2);
    expect(errors.map((c) => c.command)).toEqual(['error', 'error']);
    // What the tool prints before it resumes commands is inside the block: everything but the annotations.
    expect(log.indexOf(resume.line)).toBeLessThan(log.indexOf(errors[0].line));
  });

  it('no line but the tool’s own holds a command of any form, even where commands are stopped', () => {
    const { log } = githubLog();
    const own = /^::(stop-commands::[0-9a-f]{32}|[0-9a-f]{32}::|error title=[^:]+::)/;
    expect(commandShapedLines(log).filter((l) => !own.test(l))).toEqual([]);
    // The tool's annotation holds the target's text, its commands broken.
    expect(log).toContain('##\\[add-mask]Expected');
    expect(log).not.toContain('##[');
  });

  it('each run stops commands with a token of its own', () => {
    const token = (log: string) => honouredCommands(log)[0].data;
    expect(token(githubLog().log)).not.toBe(token(githubLog().log));
  });

  it('a run that ends early still resumes commands, once', () => {
    let log = '';
    const terminal = new Terminal({ write: (c: string) => ((log += c), true) }, { colour: false });
    const reporter = githubReporter(terminal, {});
    reporter.onStart?.();
    reporter.onEnd?.();
    reporter.onEnd?.();
    expect(honouredCommands(log).map((c) => c.command)).toEqual(['stop-commands', honouredCommands(log)[0].data]);
  });
});

/** A report of one passed rule, with what `over` says (an early end, a baseline). */
function endedReport(over: Partial<ReturnType<typeof hostileReport>['report']>) {
  const { record } = hostileReport();
  const passed: TestRecord = {
    ...record,
    name: 'a test',
    state: 'passed',
    errors: [],
    outcomes: { [rule.id]: { status: 'passed', checks: 1 } },
  };
  const base = buildReport([rule, ...loadRules(['technical-token-manager']).slice(1, 4)], [passed], {
    services: ['technical-token-manager'],
    interrupted: false,
    reportFile: 'r.json',
    toolVersion: '0',
    target: 'http://127.0.0.1:1',
    embedded: false,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    seed: 1,
    options: {},
    errors: [],
  });
  return { record: passed, report: { ...base, verdict: 'failed' as const, ...over } };
}

// Every non-zero exit leaves one annotation that says why, read by the runner (outside the
// stop-commands block): a run that failed no rule would otherwise leave the panel empty.
describe('the github reporter says why a run exits non-zero', () => {
  const stopped = (reason: 'timed-out' | 'target-unresponsive', detail: string) => ({
    interrupted: true,
    stopped: { reason, detail },
  });
  const baseline = (stale: string[], accepted: string[] = []) => ({
    baseline: { file: 'known-failures.json', entries: [...stale, ...accepted], accepted, stale, newFailures: [] },
  });
  it.each([
    [1, () => hostileReport(), /^exit 1: 1 rule failed \(technical-token-manager\/[^)]+\); 1 error outside the tests/],
    [
      4,
      () => endedReport(stopped('timed-out', 'the run reached --max-time 10m')),
      /^exit 4: timed out: the run reached --max-time 10m; 3 rules not exercised$/,
    ],
    [
      5,
      () => endedReport(stopped('target-unresponsive', 'target unresponsive since 2026-01-01T00:00:00.000Z')),
      /^exit 5: the target stopped answering: target unresponsive since 2026-01-01T00:00:00\.000Z; 3 rules not exercised$/,
    ],
    [
      6,
      () => endedReport(baseline([rule.id], ['technical-token-manager/x/y'])),
      new RegExp(
        `^exit 6: stale baseline entries, listed in known-failures\\.json and now passing \\(remove them\\): ${rule.id}; 1 known failure accepted by the baseline$`,
      ),
    ],
    [130, () => endedReport({ interrupted: true }), /^exit 130: the run was interrupted; 3 rules not exercised$/],
  ])('exit %i', (code, make, why) => {
    const { log } = githubLog(make(), code);
    const runAnnotations = honouredCommands(log).filter((c) => c.line.startsWith('::error title=conformance run::'));
    expect(runAnnotations).toHaveLength(1);
    expect(runAnnotations[0].data).toMatch(why);
  });

  it('none when the run passed', () => {
    const { log } = githubLog(endedReport({ verdict: 'passed' }), 0);
    expect(honouredCommands(log).filter((c) => c.command === 'error')).toEqual([]);
  });
});
