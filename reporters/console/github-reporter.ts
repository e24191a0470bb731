import { appendFileSync } from 'node:fs';
import { annotations } from '../github-annotations.ts';
import { summaryMarkdown } from '../summary-markdown.ts';
import type { Terminal } from '../terminal.ts';
import type { ConsoleReporter } from './console-reporter.ts';
import { listReporter } from './list-reporter.ts';

/**
 * In GitHub Actions: the list's lines for the log, then an `::error` annotation per failed rule,
 * and the step summary (what summary.md holds) appended to `$GITHUB_STEP_SUMMARY`.
 */
export function githubReporter(terminal: Terminal, env: NodeJS.ProcessEnv = process.env): ConsoleReporter {
  return {
    ...listReporter(terminal),
    onReport(report) {
      for (const line of annotations(report)) terminal.line(line);
      if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryMarkdown(report));
    },
  };
}
