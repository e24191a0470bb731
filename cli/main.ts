import { ConfigError } from '../suites/engine/config-error.ts';
import { buildProgram } from './program.ts';
import { UnreachableError, UsageError } from './usage-error.ts';
import { UntrustedInputError } from '../reporters/untrusted-input.ts';
import { forTerminalLine, guardStream } from '../reporters/untrusted-text.ts';
import { keepRawWrite } from '../reporters/terminal.ts';

// Each command's module is loaded when the command runs (`program.ts`), so `--help` and small commands start fast.
// A reader that goes away (`conformance run | head`) must not crash the run: the report is
// still written; only the console output stops.
// Whatever reaches the console passes the terminal guard: a target's, a bundle's or a report's
// escape sequences and CI workflow commands are shown as text, never acted on by the terminal or
// the CI runner reading the log.
// The tool's own colour, status line and workflow commands go through `Terminal`
// (reporters/terminal.ts), which keeps the raw write and neutralises all text it is given.
for (const stream of [process.stdout, process.stderr]) {
  keepRawWrite(stream);
  guardStream(stream);
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

const program = buildProgram();

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const e = err as Error & { exitCode?: number; code?: string };
  if (e.code?.startsWith('commander.')) {
    process.exitCode = e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2;
  } else if (err instanceof UsageError || err instanceof ConfigError) {
    process.stderr.write(`conformance: ${e.message}\n`);
    process.exitCode = 2;
  } else if (err instanceof UntrustedInputError) {
    // A report, HAR or bundle that does not fit what the tool reads: one line, never a stack trace.
    process.stderr.write(`conformance: ${forTerminalLine(e.message)}\n`);
    process.exitCode = 2;
  } else if (err instanceof UnreachableError) {
    process.stderr.write(`conformance: ${e.message}\n`);
    process.exitCode = 3;
  } else {
    process.stderr.write(`conformance: internal error: ${e.stack ?? e.message}\n`);
    process.exitCode = 70;
  }
}
