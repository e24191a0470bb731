import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir.ts';
import { normaliseAllureResults } from './allure-results.ts';

const dir = tempDir('allure-results');

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
    const ids = ['conformance-run-aaa', 'conformance-run-bbb'].map((run) => {
      const d = join(dir, run);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'one-result.json'), JSON.stringify(rawResult(run)));
      expect(normaliseAllureResults(d)).toBe(1);
      return JSON.parse(readFileSync(join(d, 'one-result.json'), 'utf8')) as ReturnType<typeof rawResult>;
    });
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
