import type { Terminal } from '../terminal.ts';
import type { ConsoleReporter } from './console-reporter.ts';

const PER_LINE = 80;

/** One character per selected test: `·` passed, `F` failed, `-` skipped; 80 to a line. */
export function dotReporter(terminal: Terminal): ConsoleReporter {
  let column = 0;
  return {
    headline: true,
    onTest(e) {
      if (e.stopping && e.test.state === 'skipped') return;
      terminal.mark(
        e.test.state === 'failed'
          ? { style: 'red', text: 'F' }
          : e.test.state === 'skipped'
            ? { style: 'yellow', text: '-' }
            : { style: 'green', text: '·' },
      );
      if (++column === PER_LINE) {
        terminal.line();
        column = 0;
      }
    },
    onTestsEnd() {
      if (column) terminal.line();
      column = 0;
    },
  };
}
