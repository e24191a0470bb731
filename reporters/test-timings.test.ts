import { describe, expect, it } from 'vitest';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { testTimings } from './conformance-report.ts';

const started = '2026-11-21T00:00:00.000Z';
const t0 = Date.parse(started);

function record(name: string, startedAt: number | undefined, durationMs: number): TestRecord {
  return {
    file: 'suites/notification/recipients.spec.ts',
    name,
    service: 'notification',
    state: 'passed',
    durationMs,
    ...(startedAt === undefined ? {} : { startedAt }),
    rules: [],
    outcomes: {},
    budget: 1,
    readOnly: true,
    errors: [],
  };
}

describe("the report's time line of tests", () => {
  it('gives each test that ran its start after the run started and its duration, in order of start', () => {
    const timings = testTimings(
      [record('late', t0 + 5000, 1200.4), record('early', t0 + 1500, 300), record('never ran', undefined, 0)],
      started,
    );
    expect(timings).toEqual([
      {
        name: 'early',
        file: 'suites/notification/recipients.spec.ts',
        service: 'notification',
        state: 'passed',
        startMs: 1500,
        durationMs: 300,
      },
      {
        name: 'late',
        file: 'suites/notification/recipients.spec.ts',
        service: 'notification',
        state: 'passed',
        startMs: 5000,
        durationMs: 1200,
      },
    ]);
  });
});
