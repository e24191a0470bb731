import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxError, jsonSyntaxErrorText } from './json-syntax-error.ts';

/** Whether JSON.parse takes `text`: the reader must agree with it on every text. */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// JSON texts, and near misses: a character of JSON's syntax put in, or one taken out.
const jsonText = fc.json({ maxDepth: 3 });
const nearMiss = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', "'", ':', '\\', '\n', '-', '0', '.', 'e', 'x'))
  .map(([t, at, c]) => {
    const i = at % (t.length + 1);
    return c === 'x' ? `${t.slice(0, i)}${t.slice(i + 1)}` : `${t.slice(0, i)}${c}${t.slice(i)}`;
  });

describe('where a JSON text breaks', () => {
  it('agrees with JSON.parse on what is JSON, and places a break inside the text or at its end', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, nearMiss, fc.string()), (text) => {
        const e = jsonSyntaxError(text);
        expect(e === undefined).toBe(parses(text));
        if (!e) return;
        const lines = text.split('\n');
        expect(e.line).toBeLessThanOrEqual(lines.length);
        expect(e.column).toBeLessThanOrEqual(lines[e.line - 1].length + 1);
      }),
      { numRuns: 1000 },
    );
  });

  it('names the line, the column and what JSON expected there, and none of the text', () => {
    expect(jsonSyntaxError(`{'password': 1}`)).toEqual({
      line: 1,
      column: 2,
      expected: 'a property name in double quotes',
    });
    expect(jsonSyntaxError('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1 });
    expect(jsonSyntaxError('[1, 2')).toMatchObject({
      line: 1,
      column: 6,
      expected: "',' or ']' after an element (the text ends)",
    });
    expect(jsonSyntaxError('{"a": "b\nc"}')).toMatchObject({ line: 1, column: 9 });
    expect(jsonSyntaxError('01')).toMatchObject({ column: 2, expected: 'nothing after the value' });
    expect(jsonSyntaxErrorText('{"key": hunter2}')).toBe(
      'line 1, column 9: expected a value: an object, an array, a string in double quotes, a number, true, false or null',
    );
  });
});
