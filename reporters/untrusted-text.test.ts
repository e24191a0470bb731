import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  forHtml,
  forMarkdown,
  forTerminal,
  forTerminalLine,
  forWorkflowCommand,
  forWorkflowCommandProperty,
  forXml,
  guardStream,
  markdownCode,
} from './untrusted-text.ts';
import { commandShapedLines } from '../tests/github-runner.ts';

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const PAYLOAD =
  '\u001b]0;PWNED\u0007\u001b]52;c;Y3VybCBodHRwOi8vZXZpbC9zaHxzaA==\u0007\r\u001b[2K\u009b31mConformance PASSED\u202e<script>alert(1)</script>|**x**[a](javascript:alert(1))`@team';

describe('untrusted text', () => {
  test('the terminal form holds no control character but newline and tab, and shows every other one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = forTerminal(s);
        expect(UNSAFE.test(out)).toBe(false);
        expect(forTerminalLine(s)).not.toMatch(/[\n\t]/);
      }),
    );
    expect(forTerminal(PAYLOAD)).toContain('\\x1b]0;PWNED\\x07');
    expect(forTerminal('a\tb\nc')).toBe('a\tb\nc');
    expect(forTerminalLine('a\nConformance PASSED')).toBe('a\\nConformance PASSED');
  });

  test('HTML and XML forms hold no markup, no quote and no control character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        for (const out of [forHtml(s), forXml(s)]) {
          expect(out).not.toMatch(/[<>"']/);
          expect(UNSAFE.test(out)).toBe(false);
          expect(out.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
        }
        // XML 1.0 forbids lone surrogates and U+FFFE/U+FFFF even escaped.
        expect(forXml(s)).not.toMatch(
          /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/,
        );
      }),
    );
    expect(forHtml(PAYLOAD)).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('Markdown forms stay on one line, inert: no HTML, link, emphasis, table cell or mention', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const inline = forMarkdown(s);
        expect(inline).not.toMatch(/\n|<|(?<!\\)[|*_`[\]@]/);
        expect(UNSAFE.test(inline)).toBe(false);
        const code = markdownCode(s);
        expect(code).not.toMatch(/\n|<|\|/);
        const fence = /^`+/.exec(code)![0];
        expect(code.endsWith(fence)).toBe(true);
        expect(code.slice(fence.length, -fence.length)).not.toContain(fence);
      }),
    );
    expect(forMarkdown('a'.repeat(50), 10)).toBe(`${'a'.repeat(10)}…`);
  });

  test('no workflow command of a CI runner survives the terminal and workflow-command forms', () => {
    // Strings made of the characters of workflow commands, so that the property meets them often.
    const commandish = fc.string({
      unit: fc.constantFrom('#', '#', '[', ']', ':', ':', ' ', '\t', '\n', '\r', 'a', '\u00a0'),
    });
    fc.assert(
      fc.property(fc.oneof(commandish, fc.string({ unit: 'binary' })), (s) => {
        expect(commandShapedLines(forTerminal(s))).toEqual([]);
        expect(commandShapedLines(forTerminalLine(s))).toEqual([]);
        expect(commandShapedLines(markdownCode(s))).toEqual([]);
        expect(commandShapedLines(forXml(s))).toEqual([]);
        expect(forMarkdown(s)).not.toContain('##[');
        // Inside one of the tool's own commands: one line, whose data holds no legacy command.
        const data = forWorkflowCommand(s);
        expect(data).not.toMatch(/[\r\n]/);
        expect(data).not.toContain('##[');
        expect(forWorkflowCommandProperty(s)).not.toMatch(/[\r\n:,]/);
      }),
    );
    expect(forTerminal('##[add-mask]word')).toBe('##\\[add-mask]word');
    expect(forTerminal('a\n  ::set-output name=verdict::passed')).toBe('a\n  :\\:set-output name=verdict::passed');
    expect(forTerminal('::error::x')).toBe(':\\:error::x');
    // Not at a line's start, `::` is left alone (an IPv6 address, a C++ name).
    expect(forTerminal('http://[::1]:80 a::b')).toBe('http://[::1]:80 a::b');
    // HTML is no log: it shows the text as it was.
    expect(forHtml('##[add-mask]x')).toBe('##[add-mask]x');
  });

  test('a workflow command’s data and properties are escaped as the runner unescapes them', () => {
    expect(forWorkflowCommand('100% done\nnext')).toBe('100%25 done%0Anext');
    expect(forWorkflowCommandProperty('a: b, c%\n')).toBe('a%3A b%2C c%25%0A');
    expect(forWorkflowCommand('bell\u0007, \r and \u001b[31mred')).toBe('bell\\x07, \\x0d and \\x1b[31mred');
  });

  test('the guarded stream shows what any writer sends it', () => {
    const written: string[] = [];
    const stream = { write: (c: string | Uint8Array) => written.push(String(c)) > 0 };
    guardStream(stream);
    guardStream(stream);
    stream.write(PAYLOAD);
    stream.write(Buffer.from('\u001b[31mred\n'));
    expect(written.join('')).not.toMatch(UNSAFE);
    expect(written[1]).toBe('\\x1b[31mred\n');
    stream.write('##[add-mask]x\n::error::planted\n');
    expect(commandShapedLines(written[2])).toEqual([]);
  });
});
