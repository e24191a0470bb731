import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { annotations, exitAnnotation, runExitReason } from '../github-annotations.ts';
import { summaryMarkdown } from '../summary-markdown.ts';
import type { Terminal } from '../terminal.ts';
import type { ConsoleReporter } from './console-reporter.ts';
import { listReporter } from './list-reporter.ts';

/**
 * In GitHub Actions: the list's lines for the log, then an `::error` annotation per failed rule
 * and one that says why the run exits non-zero, and the step summary (what summary.md holds) appended to `$GITHUB_STEP_SUMMARY`.
 *
 * Everything the run prints before its annotations is inside `::stop-commands::<token>` …
 * `::<token>::` (GitHub's "Stopping and starting workflow commands"), so that no text of a target
 * the log shows can mask words, annotate or set an output, even one a writer forgot to
 * neutralise. The token is random for each run: text that could guess it could resume commands.
 */
export function githubReporter(terminal: Terminal, env: NodeJS.ProcessEnv = process.env): ConsoleReporter {
  let stopToken: string | undefined;
  const resume = () => {
    if (stopToken === undefined) return;
    terminal.workflowCommand(`::${stopToken}::`);
    stopToken = undefined;
  };
  return {
    ...listReporter(terminal),
    onStart() {
      if (stopToken !== undefined) return;
      // Hex: never the name of a command, which the runner refuses as a token.
      stopToken = randomBytes(16).toString('hex');
      terminal.workflowCommand(`::stop-commands::${stopToken}`);
    },
    onReport(report, exitCode) {
      resume();
      for (const line of annotations(report)) terminal.workflowCommand(line);
      // Every non-zero exit says why in one annotation: an early end or a stale baseline has no rule's.
      if (exitCode !== 0) terminal.workflowCommand(exitAnnotation('run', runExitReason(report, exitCode)));
      if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryMarkdown(report));
    },
    onEnd: resume,
  };
}
