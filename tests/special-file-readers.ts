// Every reader of a file the user or someone else hands over, run on the files named on the command
// line: one JSON line per file as it ends. A child process of `special-files.test.ts`, so that a
// reader that waits on a FIFO or reads /dev/zero for ever is killed by the test, not waited on.
import { fileURLToPath } from 'node:url';
import { readHar } from '../audit/read-har.ts';
import { loadReport } from '../certification/compare-reports.ts';
import { readKeyFile } from '../certification/signing-key.ts';
import { readMutationResult } from '../cli/explain-command.ts';
import { readBaseline } from '../reporters/baseline.ts';
import { readReportFile } from '../reporters/read-report.ts';
import { checkRegularFile, INPUT_BOUNDS } from '../reporters/untrusted-input.ts';
import { readRunConfig } from '../suites/engine/run-config.ts';

/** Each reader, the commands that use it, and the bound of its kind. */
export const READERS = {
  'a report (compare, baseline, replay, merge DIR, run --compare-with)': {
    read: (f: string) => readReportFile(f),
    bound: INPUT_BOUNDS.report,
  },
  "a report directory's conformance-report.json (compare DIR)": {
    read: (f: string) => loadReport(f),
    bound: INPUT_BOUNDS.report,
    inFolder: 'conformance-report.json',
  },
  'a HAR (audit, merge DIR)': { read: (f: string) => readHar(f), bound: INPUT_BOUNDS.har },
  'a configuration (run, doctor, token --config)': {
    read: (f: string) => readRunConfig(f),
    bound: INPUT_BOUNDS.config,
  },
  'a baseline (run, merge --baseline)': { read: (f: string) => readBaseline(f), bound: INPUT_BOUNDS.baseline },
  'a mutation result (explain --mutation-result)': {
    read: (f: string) => readMutationResult(f),
    bound: INPUT_BOUNDS.mutationResult,
  },
  'a signing key (certify, verify --key)': { read: (f: string) => readKeyFile(f, false), bound: INPUT_BOUNDS.key },
  'a CA bundle (run, doctor, token --ca)': {
    read: (f: string) => checkRegularFile(f, 'a CA certificate file', INPUT_BOUNDS.certificate),
    bound: INPUT_BOUNDS.certificate,
  },
} as const satisfies Record<string, { read: (f: string) => unknown; bound: number; inFolder?: string }>;

export type ReaderName = keyof typeof READERS;

/** What a reader did with one file. */
export interface ReaderOutcome {
  row: number;
  outcome: 'read' | 'refused';
  message: string;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = JSON.parse(process.argv[2]) as Array<{ reader: ReaderName; path: string }>;
  for (const [row, { reader, path }] of rows.entries()) {
    let out: ReaderOutcome;
    try {
      await READERS[reader].read(path);
      out = { row, outcome: 'read', message: '' };
    } catch (e) {
      out = { row, outcome: 'refused', message: (e as Error).message };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}
