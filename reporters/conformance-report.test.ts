import { describe, expect, test } from 'vitest';
import { replayCommand, replayReportFile } from './conformance-report.ts';

describe('the report a replay line names', () => {
  test.each([
    ['/tmp/vendor/reports/ttm1', '/work/main', '/tmp/vendor/reports/ttm1/conformance-report.json'],
    ['/tmp/vendor/reports/ttm1/', '/work/main', '/tmp/vendor/reports/ttm1/conformance-report.json'],
    ['conformance-report', '/work/main', 'conformance-report/conformance-report.json'],
    ['../reports/a', '/work/main', '../reports/a/conformance-report.json'],
    ['.', '/work/main', './conformance-report.json'],
    ['./out/../r', '/work/main', 'r/conformance-report.json'],
  ])('--report-dir %s from %s: %s', (given, cwd, expected) => {
    expect(replayReportFile(given, cwd)).toBe(expected);
  });

  test('a folder the user gave as absolute stays absolute in the line, which then runs from any folder', () => {
    const file = replayReportFile('/tmp/vendor/reports/ttm1', '/work/main');
    expect(replayCommand({ reportFile: file, configFile: '/tmp/vendor/cfg/ttm1.json' }, 'a/b/c')).toBe(
      'npx conformance replay /tmp/vendor/reports/ttm1/conformance-report.json a/b/c --config /tmp/vendor/cfg/ttm1.json',
    );
  });
});
