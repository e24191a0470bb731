import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { judgeHar } from '../audit/judge-har.ts';
import { readHar } from '../audit/read-har.ts';
import { compareReports } from '../certification/compare-reports.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { mergeReports } from '../reporters/merge-reports.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { parseReport, readReportFile } from '../reporters/read-report.ts';
import { UntrustedInputError } from '../reporters/untrusted-input.ts';
import type { Har } from '../suites/engine/har.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';
import { EM, entry, validHar, validReport } from './untrusted-samples.ts';

/** What a reader of untrusted input may do: give a value or refuse it with the typed error. */
function readsOrRefuses(read: () => unknown): 'read' | 'refused' {
  try {
    read();
    return 'read';
  } catch (e) {
    if (e instanceof UntrustedInputError) {
      expect(e.message).not.toContain('\n');
      return 'refused';
    }
    throw e;
  }
}

/** Byte-level mutations of a valid file: flips, cuts, insertions, splices. */
const mutated = (valid: Buffer) =>
  fc
    .array(
      fc.oneof(
        fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
        fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 64 }) }),
        fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 32 }) }),
        fc.record({
          kind: fc.constant('text' as const),
          at: fc.nat(),
          text: fc.constantFrom('{', '[', ']', '}', '"', '\\', 'null', '-1e999', '"%zz"', '{"__proto__":{"x":1}}', ','),
        }),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((ops) => {
      let b = Buffer.from(valid);
      for (const op of ops) {
        const at = b.length ? op.at % b.length : 0;
        if (op.kind === 'flip') b[at] = op.byte;
        else if (op.kind === 'cut') b = Buffer.concat([b.subarray(0, at), b.subarray(at + op.len)]);
        else if (op.kind === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.from(op.bytes), b.subarray(at)]);
        else b = Buffer.concat([b.subarray(0, at), Buffer.from(op.text), b.subarray(at)]);
      }
      return b;
    });

/**
 * Writes arbitrary bytes and mutations of `valid` to files of `dir` and hands each to `read`, which
 * says whether it was read or refused; counts both.
 */
function fuzzFiles(
  dir: string,
  valid: Buffer,
  ext: string,
  numRuns: number,
  read: (file: string) => 'read' | 'refused',
): { read: number; refused: number } {
  const seen = { read: 0, refused: 0 };
  let n = 0;
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
        mutated(valid),
      ),
      (bytes) => {
        const file = join(dir, `${n++}${ext}`);
        writeFileSync(file, bytes);
        seen[read(file)]++;
      },
    ),
    { numRuns },
  );
  return seen;
}

describe('readers of untrusted input refuse with a typed error and never throw anything else', () => {
  test('HAR: arbitrary bytes and mutations of a valid HAR; what is read can be judged and reported', () => {
    const dir = tempDir('fuzz-har');
    const valid = Buffer.from(JSON.stringify(validHar()));
    const seen = fuzzFiles(dir, valid, '.har', 300, (file) => {
      let har: Har | undefined;
      const outcome = readsOrRefuses(() => (har = readHar(file)));
      if (har) expect(typeof judgeHar(har, ['event-management']).exchanges).toBe('number');
      return outcome;
    });
    expect(seen.refused).toBeGreaterThan(0);
    expect(readdirSync(dir).every((f) => f.endsWith('.har'))).toBe(true);
  });

  test('report: arbitrary bytes and mutations of a valid report; what is read can be compared, merged and written', () => {
    const dir = tempDir('fuzz-report');
    const report = validReport();
    const valid = Buffer.from(JSON.stringify(report));
    expect(parseReport(valid.toString('utf8'), 'valid').rules.length).toBe(report.rules.length);
    let n = 0;
    const seen = fuzzFiles(dir, valid, '.json', 200, (file) => {
      let read: ConformanceReport | undefined;
      const outcome = readsOrRefuses(() => (read = readReportFile(file)));
      if (read) {
        compareReports(report, read);
        const out = join(dir, `out-${n++}`);
        mkdirSync(out);
        writeOutputs(out, mergeReports([report, read]));
      }
      return outcome;
    });
    expect(seen.refused).toBeGreaterThan(0);
  });
});

describe('bounded work on any input', () => {
  test.each([
    ['an observed value nested 100,000 deep', 'compare', 'deep.json'],
    ['a HAR with a URL that is not one', 'audit', 'bad-url.har'],
    ['a HAR with a malformed % escape', 'audit', 'bad-escape.har'],
    ['a HAR with a numeric header name', 'audit', 'numeric-header.har'],
    ['a report that is not JSON', 'merge', 'not-json.json'],
    ['a file of 70 MB', 'audit', 'huge.har'],
  ])('%s is refused with one line and exit 2', async (_name, command, file) => {
    const dir = tempDir('refused');
    const report = validReport();
    const har = validHar() as unknown as { log: { entries: Array<ReturnType<typeof entry>> } };
    const path = join(dir, file);
    if (file === 'deep.json') {
      const rules = report.rules.map((r, i) => (i ? r : { ...r, status: 'observed', observed: ['x'] }));
      const text = JSON.stringify({ ...report, rules }).replace(
        '"observed":["x"]',
        `"observed":[${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
      );
      writeFileSync(path, text);
    } else if (file === 'bad-url.har') {
      har.log.entries[0].request.url = 'http://[::1';
      writeFileSync(path, JSON.stringify(har));
    } else if (file === 'bad-escape.har') {
      har.log.entries[0].request.url = `http://127.0.0.1:1${EM}/events/%E0%A4%A`;
      writeFileSync(path, JSON.stringify(har));
    } else if (file === 'numeric-header.har') {
      (har.log.entries[0].request.headers as unknown as Array<{ name: unknown; value: string }>).push({
        name: 42,
        value: 'x',
      });
      writeFileSync(path, JSON.stringify(har));
    } else if (file === 'not-json.json') writeFileSync(path, '{"rules": [');
    else writeFileSync(path, Buffer.alloc(70 * 1024 * 1024, 0x20));
    const args =
      command === 'compare'
        ? ['compare', path, path]
        : command === 'merge'
          ? ['merge', path, '--report-dir', join(dir, 'out')]
          : ['audit', path, '--report-dir', join(dir, 'out')];
    const res = await runCli(args);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
