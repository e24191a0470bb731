/** Where a JSON text breaks, and what the grammar expected there: never any of the text itself. */
export interface JsonSyntaxError {
  /** 1-based line of the first character JSON's grammar refuses (or of the end of the text). */
  line: number;
  /** 1-based column of that character on its line. */
  column: number;
  /** What the grammar (RFC 8259) expected there, in words: `a property name in double quotes`. */
  expected: string;
}

class Refused extends Error {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/**
 * The first place `text` breaks JSON's grammar (RFC 8259), or undefined when it is JSON. For a
 * message about a text that holds secrets (a run configuration): JSON.parse's own message quotes
 * the characters around the error, this gives only the line, the column and what was expected.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const refuse = (expected: string): never => {
    throw new Refused(i, i >= text.length ? `${expected} (the text ends)` : expected);
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const digits = (expected: string) => {
    if (!/[0-9]/.test(text[i] ?? '')) refuse(expected);
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) refuse('a closing double quote');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) refuse('no control character inside a string (write it as an escape)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        // not a contract bound: the length of a \uXXXX escape
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else refuse('an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits');
      } else i++;
    }
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits('a digit');
    if (text[i] === '.') {
      i++;
      digits('a digit after the decimal point');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits('a digit of the exponent');
    }
  };
  /** An object's members or an array's elements, each read by `item`, up to `close`. */
  const container = (close: string, between: string, item: () => void): void => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ',') refuse(between);
      i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{')
      return container('}', "',' or '}' after a property value", () => {
        space();
        if (text[i] !== '"') refuse('a property name in double quotes');
        string();
        space();
        if (text[i] !== ':') refuse("':' after a property name");
        i++;
        value();
      });
    if (c === '[') return container(']', "',' or ']' after an element", value);
    if (c === '"') return string();
    if (c === '-' || /[0-9]/.test(c ?? '')) return number();
    for (const literal of ['true', 'false', 'null'])
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    refuse('a value: an object, an array, a string in double quotes, a number, true, false or null');
  };
  try {
    value();
    space();
    if (i < text.length) refuse('nothing after the value');
    return undefined;
  } catch (e) {
    if (!(e instanceof Refused)) return undefined; // nested too deep for this reader's stack
    const before = text.slice(0, e.at);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, column: e.at - lineStart + 1, expected: e.expected };
  }
}

/** `line 3, column 14: expected …`, or `its syntax` when the place is unknown: for a message. */
export function jsonSyntaxErrorText(text: string): string {
  const e = jsonSyntaxError(text);
  return e ? `line ${e.line}, column ${e.column}: expected ${e.expected}` : 'its syntax';
}
