import type { Terminal } from '../terminal.ts';
import { clock, counter, failureLines, type ConsoleReporter } from './console-reporter.ts';

/** A live status line (done/total, failed so far, elapsed, ETA, the last test) and one line per failure. */
export function lineReporter(terminal: Terminal): ConsoleReporter {
  return {
    headline: true,
    onTest(e) {
      failureLines(terminal, e);
      const done = Math.min(e.done, e.total);
      const eta = done > 0 && done < e.total ? ` · ETA ${clock((e.elapsedMs / done) * (e.total - done))}` : '';
      terminal.status(
        { style: 'bold', text: `[${counter(e)}]` },
        ' ',
        e.failedRules
          ? { style: ['bold', 'red'], text: `${e.failedRules} failed` }
          : { style: 'green', text: '0 failed' },
        ` · ${clock(e.elapsedMs)}${eta}${e.stopping ? ' · stopping' : ''} · `,
        { style: 'dim', text: `${e.service} › ${e.test.name}` },
      );
    },
    onTestsEnd() {
      terminal.clearStatus();
    },
  };
}
