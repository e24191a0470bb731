import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { join } from 'node:path';
import { jsonForFile } from './untrusted-text.ts';
import { SPEC_SUITE } from '../suites/engine/suite-runner.ts';

const PROJECT = 'platform-conformance';
const SUITE_LABELS = new Set(['parentSuite', 'suite', 'subSuite', 'package', '_fallbackTestCaseId']);

interface AllureLabel {
  name: string;
  value: string;
}

interface AllureResult {
  name: string;
  fullName?: string;
  titlePath?: string[];
  labels: AllureLabel[];
  testCaseId?: string;
  historyId?: string;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/**
 * A run imports every spec file into one generated test file in a new temporary folder, so the
 * Allure results vitest's reporter writes name that file: a package and test IDs that change with
 * every run (Allure's history and retries then never line up) and a suite called `spec:…`. This
 * gives each result the names of its own spec file instead: parent suite the service, suite the
 * spec file, sub-suite its describe blocks, and IDs from the spec file and the test's name alone.
 * Returns how many results it rewrote.
 */
export function normaliseAllureResults(dir: string): number {
  let rewritten = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
    const path = join(dir, file);
    const result = JSON.parse(readFileSync(path, 'utf8')) as AllureResult;
    const titles = result.titlePath ?? [];
    const at = titles.findIndex((t) => t.startsWith(SPEC_SUITE));
    if (at < 0) {
      writeOutputFile(path, jsonForFile(result));
      continue;
    }
    const specFile = titles[at].slice(SPEC_SUITE.length);
    const describes = titles.slice(at + 1);
    const service = specFile.split('/')[1] ?? specFile;
    const fullName = `${PROJECT}:${specFile}#${[...describes, result.name].join(' ')}`;
    const testCaseId = md5(fullName);
    const parameters = result.historyId?.split(':')[1] ?? md5('');
    result.fullName = fullName;
    result.titlePath = [PROJECT, ...specFile.split('/'), ...describes];
    result.testCaseId = testCaseId;
    result.historyId = `${testCaseId}:${parameters}`;
    result.labels = [
      ...result.labels.filter((l) => !SUITE_LABELS.has(l.name)),
      { name: 'parentSuite', value: service },
      { name: 'suite', value: specFile.split('/').at(-1) ?? specFile },
      ...(describes.length ? [{ name: 'subSuite', value: describes.join(' › ') }] : []),
      { name: 'package', value: specFile.replace(/\.ts$/, '').replaceAll('/', '.') },
    ];
    writeOutputFile(path, jsonForFile(result));
    rewritten++;
  }
  return rewritten;
}

/**
 * Marks the results of tests whose every failed rule the baseline accepted: "skipped" as a known
 * failure, as JUnit and the summary show them, so that Allure tells the same verdict.
 */
export function markKnownFailures(dir: string, accepted: readonly string[], baselineFile: string): number {
  if (!accepted.length) return 0;
  const known = new Set(accepted);
  let marked = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
    const path = join(dir, file);
    const result = JSON.parse(readFileSync(path, 'utf8')) as AllureResult & {
      status?: string;
      statusDetails?: { message?: string };
      labels: AllureLabel[];
    };
    if (result.status !== 'failed') continue;
    const failedRules = result.labels.filter((l) => l.name === 'conformance-failed').map((l) => l.value);
    const rules = failedRules.length ? failedRules : result.labels.filter((l) => l.name === 'rule').map((l) => l.value);
    if (!rules.length || !rules.every((r) => known.has(r))) continue;
    result.status = 'skipped';
    result.statusDetails = {
      ...result.statusDetails,
      message: `known failure, accepted by the baseline ${baselineFile}: ${result.statusDetails?.message ?? ''}`,
    };
    writeOutputFile(path, jsonForFile(result));
    marked++;
  }
  return marked;
}
