import { ConfigError } from '../suites/engine/config-error.ts';
import { buildProgram } from './program.ts';
import { UnreachableError, UsageError } from './usage-error.ts';
import { UntrustedInputError } from '../reporters/untrusted-input.ts';
import { forTerminalLine, guardStream } from '../reporters/untrusted-text.ts';
import { keepRawWrite } from '../reporters/terminal.ts';
import { EXIT } from './exit-codes.ts';

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

/**
 * In GitHub Actions (or with `--reporter github`), a command that ends before writing a report
 * leaves the one annotation that says why: the log's error alone leaves the job's annotations
 * panel empty. Printed after the run resumed workflow commands, through the terminal's own way.
 */
async function annotateExit(argv: string[], code: number, why: string): Promise<void> {
  const at = argv.indexOf('--reporter');
  const named = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--reporter='))?.slice('--reporter='.length);
  if (named !== undefined ? named !== 'github' : process.env.GITHUB_ACTIONS !== 'true') return;
  // Only a command's own name goes in the title; the message is neutralised whole.
  const commands = new Set(program.commands.map((c) => c.name()));
  const name = argv.slice(2).find((a) => commands.has(a)) ?? 'command';
  const { exitAnnotation } = await import('../reporters/github-annotations.ts');
  const { Terminal } = await import('../reporters/terminal.ts');
  new Terminal(process.stdout, { colour: false }).workflowCommand(exitAnnotation(name, `exit ${code}: ${why}`));
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const e = err as Error & { exitCode?: number; code?: string };
  let why: string | undefined;
  if (e.code?.startsWith('commander.')) {
    process.exitCode = e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : EXIT.usage;
    why = `bad usage: ${e.message.replace(/^error: /, '')}`;
  } else if (err instanceof UsageError || err instanceof ConfigError) {
    process.stderr.write(`conformance: ${e.message}\n`);
    process.exitCode = EXIT.usage;
    why = `bad usage or configuration: ${e.message}`;
  } else if (err instanceof UntrustedInputError) {
    // A report, HAR or bundle that does not fit what the tool reads: one line, never a stack trace.
    process.stderr.write(`conformance: ${forTerminalLine(e.message)}\n`);
    process.exitCode = EXIT.usage;
    why = e.message;
  } else if (err instanceof UnreachableError) {
    process.stderr.write(`conformance: ${e.message}\n`);
    process.exitCode = EXIT.unreachable;
    why = `target unreachable: ${e.message}`;
  } else {
    process.stderr.write(`conformance: internal error: ${e.stack ?? e.message}\n`);
    process.exitCode = EXIT.internal;
    why = `internal error: ${e.message}`;
  }
  if (process.exitCode) await annotateExit(process.argv, Number(process.exitCode), why);
}
