/**
 * The one sanctioned way past the console guard (`guardStream`): the tool's own colour (SGR), the
 * live status line's carriage return and erase-line sequences, and the tool's own GitHub workflow
 * commands. Text is given as pieces; every piece is redacted and neutralised with `forTerminalLine`
 * before the tool's sequences are put around it, so a target's escape sequences still print as
 * `\xNN` with colour on, its workflow commands as `##\[` and `:\:`, and a secret as `[REDACTED]`.
 */
import { redactText } from '../suites/engine/redact.ts';
import { asText, forTerminalLine } from './untrusted-text.ts';

type Write = (chunk: string) => boolean;

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

/** Text to print: plain (neutralised) or with the tool's styles around it (neutralised too). */
export type Piece = string | { style: Style | readonly Style[]; text: unknown };

const SGR: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

const ESC = '\u001b';
const ERASE_LINE = `\r${ESC}[2K`;

const rawWrites = new WeakMap<object, Write>();

/** Keeps `stream`'s own write function (call it before `guardStream`): only `Terminal` uses it. */
export function keepRawWrite(stream: { write: (chunk: string) => boolean }): void {
  if (!rawWrites.has(stream)) rawWrites.set(stream, stream.write.bind<Write>(stream));
}

/**
 * Writes `text` past the console guard, unredacted: only for what a command prints on purpose into
 * a pipe (`conformance token`, whose output is a credential the user asked for).
 */
export function writeUnguarded(stream: { write: (chunk: string) => boolean }, text: string): void {
  (rawWrites.get(stream) ?? stream.write.bind(stream))(text);
}

/** Whether to colour: `NO_COLOR` says no, `FORCE_COLOR` (not 0) says yes, else a terminal that is not dumb. */
export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return !!stream.isTTY && env.TERM !== 'dumb';
}

export interface TerminalOptions {
  colour: boolean;
  /** Width the status line is cut to (default: the stream's columns, else 100). */
  columns?: number;
}

/** Writes lines and one live status line to a stream, with colour when asked for. */
export class Terminal {
  private readonly raw: Write | undefined;
  private statusShown = false;
  private lastStatus: Piece[] | undefined;

  constructor(
    private readonly stream: { write: (chunk: string) => boolean; columns?: number },
    private readonly options: TerminalOptions,
  ) {
    this.raw = rawWrites.get(stream);
  }

  /** Colour and the status line need the raw write (or a stream nobody guards, as in a test). */
  get colour(): boolean {
    return this.options.colour;
  }

  private get columns(): number {
    // A pseudo-terminal without a size (script, some CI shells) says 0 columns.
    return Math.max(40, this.options.columns ?? (this.stream.columns || 100));
  }

  private render(pieces: readonly Piece[], max = Infinity): string {
    let out = '';
    let room = max;
    for (const p of pieces) {
      if (room <= 0) break;
      let text = forTerminalLine(redactText(asText(typeof p === 'string' ? p : p.text)));
      if ([...text].length > room) text = `${[...text].slice(0, Math.max(0, room - 1)).join('')}…`;
      room -= [...text].length;
      if (typeof p === 'string' || !this.options.colour) out += text;
      else {
        const styles = (typeof p.style === 'string' ? [p.style] : p.style) as Style[];
        out += `${styles.map((s) => `${ESC}[${SGR[s][0]}m`).join('')}${text}${styles
          .map((s) => `${ESC}[${SGR[s][1]}m`)
          .reverse()
          .join('')}`;
      }
    }
    return out;
  }

  private write(text: string): void {
    (this.raw ?? this.stream.write.bind(this.stream))(text);
  }

  /** One line (its pieces on one line); the status line, if shown, is drawn again below it. */
  line(...pieces: Piece[]): void {
    const status = this.lastStatus;
    this.clearStatus();
    this.write(`${this.render(pieces)}\n`);
    if (status) this.status(...status);
  }

  /** The live status line: drawn over the last one, cut to the terminal's width. */
  status(...pieces: Piece[]): void {
    this.lastStatus = pieces;
    this.write(`${ERASE_LINE}${this.render(pieces, this.columns - 1)}`);
    this.statusShown = true;
  }

  /** Takes the status line off the screen. */
  clearStatus(): void {
    this.lastStatus = undefined;
    if (!this.statusShown) return;
    this.write(ERASE_LINE);
    this.statusShown = false;
  }

  /**
   * One of the tool's own workflow commands (`::error title=…::…`, `::stop-commands::…`), written
   * as it is: the caller has built it with `forWorkflowCommand`, so it is one line without controls.
   */
  workflowCommand(command: string): void {
    // eslint-disable-next-line no-control-regex
    if (!/^::[\w-]+(?: [^:]*)?::/.test(command) || /[\u0000-\u001f\u007f-\u009f]/.test(command))
      throw new Error(`not one workflow command line: ${forTerminalLine(command).slice(0, 80)}`);
    const status = this.lastStatus;
    this.clearStatus();
    this.write(`${command}\n`);
    if (status) this.status(...status);
  }

  /** Raw text without a newline of its own (the dot reporter's marks), neutralised like a line. */
  mark(...pieces: Piece[]): void {
    this.write(this.render(pieces));
  }
}
