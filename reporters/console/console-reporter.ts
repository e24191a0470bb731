import type { ConformanceReport } from '../conformance-report.ts';
import type { Piece, Terminal } from '../terminal.ts';
import type { ProgressEvent } from '../../suites/engine/suite-runner.ts';

/** One selected test's end as the console sees it. */
export interface TestEnd extends ProgressEvent {
  /** Since the tests started. */
  elapsedMs: number;
  /** The run is stopping (a signal, `--max-time`): tests skipped now were never started. */
  stopping: boolean;
}

/** What a run shows on its console while it runs; the summary is printed by the run itself. */
export interface ConsoleReporter {
  /** Prints the run's headline and notes (seed, target, services, stopping). */
  readonly headline: boolean;
  /** Before the run's first line (GitHub's stops the runner reading workflow commands in the log). */
  onStart?(): void;
  onTest(e: TestEnd): void;
  /** The tests are over: a live status line goes away before the summary. */
  onTestsEnd(): void;
  /** After the summary: what else the reporter writes (GitHub's annotations and step summary); `exitCode` is the run's. */
  onReport?(report: ConformanceReport, exitCode: number): void;
  /** The run is over, however it ended: what `onStart` began is ended. */
  onEnd?(): void;
}

/** `1:05` (or `1:02:05`) for a number of milliseconds. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return (hms[0] ? hms : hms.slice(1)).map((n, i) => (i ? String(n).padStart(2, '0') : String(n))).join(':');
}

/** The mark of a test's end: ✓ passed, ✗ failed, - skipped. */
export function testMark(state: string): Piece {
  return state === 'failed'
    ? { style: 'red', text: '✗' }
    : state === 'skipped'
      ? { style: 'yellow', text: '-' }
      : { style: 'green', text: '✓' };
}

/** One line per rule that failed for the first time in this test: its ID and the failure's title. */
export function failureLines(terminal: Terminal, e: TestEnd): void {
  for (const id of e.newlyFailed) {
    const title = e.test.outcomes[id]?.failure?.title;
    terminal.line(
      '  ',
      { style: 'red', text: '✗' },
      ' ',
      { style: ['bold', 'red'], text: id },
      title ? ` — ${title}` : '',
    );
  }
}

/** The counter `12/140`. */
export function counter(e: Pick<ProgressEvent, 'done' | 'total'>): string {
  return `${Math.min(e.done, e.total)}/${e.total}`;
}
