import type { Terminal } from '../terminal.ts';
import type { ConsoleReporter } from './console-reporter.ts';
import { dotReporter } from './dot-reporter.ts';
import { githubReporter } from './github-reporter.ts';
import { lineReporter } from './line-reporter.ts';
import { listReporter } from './list-reporter.ts';
import { quietReporter } from './quiet-reporter.ts';

// The one registry of console reporters, apart from what they share (`console-reporter.ts`), so
// that a reporter imports its helpers without importing every other reporter.

export const REPORTER_NAMES = ['list', 'line', 'dot', 'github', 'quiet'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** Every console reporter, by the name `--reporter` takes. */
export const CONSOLE_REPORTERS: Record<ReporterName, (terminal: Terminal) => ConsoleReporter> = {
  list: listReporter,
  line: lineReporter,
  dot: dotReporter,
  github: githubReporter,
  quiet: quietReporter,
};

/** The reporter when `--reporter` is not given: github in GitHub Actions, line on a terminal outside CI, else list. */
export function defaultReporter(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): ReporterName {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  const ci = !!env.CI && env.CI !== 'false' && env.CI !== '0';
  return stream.isTTY && !ci ? 'line' : 'list';
}
