import type { Terminal } from '../terminal.ts';
import { counter, failureLines, testMark, type ConsoleReporter } from './console-reporter.ts';

/** One line per selected test (its mark, the run's counter, service and name, time), and one per failure. */
export function listReporter(terminal: Terminal): ConsoleReporter {
  return {
    headline: true,
    onTest(e) {
      // Tests a stopping run never started are counted, not listed.
      if (e.stopping && e.test.state === 'skipped') return;
      terminal.line(
        '  ',
        testMark(e.test.state),
        ' ',
        { style: 'dim', text: counter(e) },
        ` ${e.service} › ${e.test.name} `,
        { style: 'dim', text: `(${(e.test.durationMs / 1000).toFixed(1)} s)` },
      );
      failureLines(terminal, e);
    },
    onTestsEnd() {},
  };
}
