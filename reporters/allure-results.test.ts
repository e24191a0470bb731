import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalisedResultWriter, withoutLocalPaths } from './allure-results.ts';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** A result as vitest's Allure reporter writes it for a test of a run's generated file in `runDir`. */
function rawResult(runDir: string) {
  return {
    uuid: runDir,
    name: 'a recipient is created',
    historyId: `x${runDir}:d41d8cd98f00b204e9800998ecf8427e`,
    testCaseId: `x${runDir}`,
    fullName: `platform-conformance:../../tmp/${runDir}/run.spec.ts#spec:suites/notification/recipients.spec.ts a recipient is created`,
    titlePath: [
      'platform-conformance',
      '..',
      '..',
      'tmp',
      runDir,
      'run.spec.ts',
      'spec:suites/notification/recipients.spec.ts',
    ],
    labels: [
      { name: 'parentSuite', value: 'spec:suites/notification/recipients.spec.ts' },
      { name: 'package', value: `platform-conformance.......tmp.${runDir}.run.spec.ts` },
      { name: 'rule', value: 'notification/recipients/create-201-id' },
    ],
  };
}

describe('the Allure results of a run', () => {
  it('name the spec file and keep the same test IDs from run to run', () => {
    const write = normalisedResultWriter();
    const ids = ['conformance-run-aaa', 'conformance-run-bbb'].map(
      (run) => JSON.parse(write(rawResult(run))) as ReturnType<typeof rawResult>,
    );
    const [a, b] = ids;
    expect(a.testCaseId).toBe(b.testCaseId);
    expect(a.historyId).toBe(b.historyId);
    expect(a.fullName).toBe('platform-conformance:suites/notification/recipients.spec.ts#a recipient is created');
    expect(a.titlePath).toEqual(['platform-conformance', 'suites', 'notification', 'recipients.spec.ts']);
    expect(a.labels).toEqual([
      { name: 'rule', value: 'notification/recipients/create-201-id' },
      { name: 'parentSuite', value: 'notification' },
      { name: 'suite', value: 'recipients.spec.ts' },
      { name: 'package', value: 'suites.notification.recipients.spec' },
    ]);
  });
});

describe("the run's Allure writer", () => {
  it('names files of this machine relative to the package in a result it writes', () => {
    const raw = {
      ...rawResult('conformance-run-ccc'),
      statusDetails: { trace: `at ${join(root, 'suites/x.ts')}:1:2` },
    };
    const written = normalisedResultWriter()(raw);
    expect(JSON.parse(written).statusDetails.trace).toBe('at suites/x.ts:1:2');
    expect(written).not.toContain(root);
  });
});

describe('a stack trace in the Allure results', () => {
  it.each([
    [
      'this package',
      `at check (${join(root, 'suites/engine/rule-test.ts')}:168:12)`,
      'at check (suites/engine/rule-test.ts:168:12)',
    ],
    ['a file: URL', `at async file://${join(root, 'suites/a.spec.ts')}:1:2`, 'at async suites/a.spec.ts:1:2'],
    ["a run's generated file", `at ${join(tmpdir(), 'conformance-run-Ab12/run.spec.ts')}:3:1`, 'at run.spec.ts:3:1'],
    [
      'a node_modules folder elsewhere',
      'at async file:///home/someone/project/node_modules/@vitest/runner/dist/x.js:9:1',
      'at async node_modules/@vitest/runner/dist/x.js:9:1',
    ],
    [
      'node internals',
      'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ],
  ])('names files relative to the package: %s', (_, trace, expected) => {
    expect(withoutLocalPaths(trace)).toBe(expected);
  });
});
