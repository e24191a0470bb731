/**
 * How GitHub's runner reads workflow commands in a step's output (actions/runner:
 * `ActionCommand.TryParseV2` and `TryParse` in src/Runner.Common/ActionCommand.cs,
 * `ActionCommandManager.TryProcessCommand` in src/Runner.Worker/ActionCommandManager.cs), for
 * tests that check that only the tool's own commands act.
 */

/** A workflow command the runner read in one line of the log. */
export interface WorkflowCommand {
  /** The line, as printed. */
  line: string;
  /** The command's name as written (`error`, `add-mask`, a stop token). */
  command: string;
  /** What follows the command: the annotation's message, the masked word, the output's value. */
  data: string;
}

// The runner's command extensions, and the stop command (ActionCommandManager.Initialize).
const REGISTERED = [
  'add-mask',
  'add-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'notice',
  'remove-matcher',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
];

/** A command's name and what follows it, as one of the two forms reads a line. */
type Form = { name: string; data: string };

/** `::name props::data` at the line's start once leading white space is trimmed (TryParseV2). */
function lineStartForm(line: string): Form | undefined {
  const m = line.trimStart();
  if (!m.startsWith('::')) return undefined;
  const end = m.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = m.slice(2, end);
  return { name: info.split(' ')[0], data: m.slice(end + 2) };
}

/** `##[name props]data` anywhere in the line: its first `##[` (TryParse). */
function legacyForm(line: string): Form | undefined {
  const at = line.indexOf('##[');
  if (at < 0) return undefined;
  const rb = line.indexOf(']', at);
  if (rb < 0) return undefined;
  return { name: line.slice(at + 3, rb).split(' ')[0], data: line.slice(rb + 1) };
}

function lines(log: string): string[] {
  return log.split(/\r\n|\r|\n/);
}

/**
 * The lines the runner could read as a command of any name (a command it does not know today is
 * one it may know tomorrow), whether or not commands are stopped there.
 */
export function commandShapedLines(log: string): string[] {
  return lines(log).filter((l) => lineStartForm(l) !== undefined || legacyForm(l) !== undefined);
}

/**
 * The commands the runner acts on in `log`, in order: the line-start form tried first, then the
 * legacy form; while commands are stopped, only the stop token's own command (in either form)
 * is read, and it resumes them.
 */
export function honouredCommands(log: string): WorkflowCommand[] {
  const registered = new Set(REGISTERED);
  let stopToken: string | undefined;
  const out: WorkflowCommand[] = [];
  for (const line of lines(log)) {
    const known = (f: Form | undefined) => (f && registered.has(f.name.toLowerCase()) ? f : undefined);
    const c = known(lineStartForm(line)) ?? known(legacyForm(line));
    if (!c) continue;
    if (stopToken !== undefined) {
      if (c.name.toLowerCase() !== stopToken) continue;
      registered.delete(stopToken);
      stopToken = undefined;
    } else if (c.name.toLowerCase() === 'stop-commands') {
      stopToken = c.data.toLowerCase();
      registered.add(stopToken);
    }
    out.push({ line, command: c.name, data: c.data });
  }
  return out;
}
