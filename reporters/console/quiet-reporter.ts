import type { ConsoleReporter } from './console-reporter.ts';

/** Nothing while the run runs: only the summary (for CI logs). */
export function quietReporter(): ConsoleReporter {
  return { headline: false, onTest() {}, onTestsEnd() {} };
}
