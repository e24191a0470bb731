import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonForFile } from './untrusted-text.ts';
import { SPEC_SUITE } from '../suites/engine/suite-runner.ts';

const PROJECT = 'platform-conformance';
const SUITE_LABELS = new Set(['parentSuite', 'suite', 'subSuite', 'package', '_fallbackTestCaseId']);

interface AllureLabel {
  name: string;
  value: string;
}

interface StatusDetails {
  message?: string;
  trace?: string;
}

interface AllureStep {
  statusDetails?: StatusDetails;
  steps?: AllureStep[];
}

export interface AllureResult extends AllureStep {
  name: string;
  fullName?: string;
  titlePath?: string[];
  labels: AllureLabel[];
  testCaseId?: string;
  historyId?: string;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a stack trace shows of this machine's layout, longest first: this package (as installed and
 * as its real path, which differs when node_modules is a link), the temporary folder of a run's
 * generated file, and whatever leads to a node_modules folder (this package installed in a project).
 */
function localRoots(): RegExp[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const temp = [...new Set([tmpdir(), real(tmpdir())])].map(
    (t) => new RegExp(`(?:file://)?${escapeRegExp(t)}/conformance-run-[^/\\s]+/`, 'g'),
  );
  const roots = [...new Set([root, real(root), dirname(real(join(root, 'node_modules')))])]
    .filter((r) => r.length > 1)
    .sort((a, b) => b.length - a.length)
    .map((r) => new RegExp(`(?:file://)?${escapeRegExp(r)}/`, 'g'));
  return [...temp, ...roots, /(?:file:\/\/)?\/[^\s()'"]*?\/node_modules\//g];
}

/** `trace` with the folders of `localRoots` left out: files named relative to the package. */
export function withoutLocalPaths(trace: string, roots: readonly RegExp[] = localRoots()): string {
  return roots.reduce((t, r) => t.replace(r, (m) => (m.endsWith('/node_modules/') ? 'node_modules/' : '')), trace);
}

/** Strips local paths from the stack traces of a result and of all its steps. */
function stripLocalPaths(step: AllureStep, roots: readonly RegExp[]): void {
  const d = step.statusDetails;
  if (d?.trace) d.trace = withoutLocalPaths(d.trace, roots);
  for (const s of step.steps ?? []) stripLocalPaths(s, roots);
}

/**
 * A run imports every spec file into one generated test file in a new temporary folder, so the
 * Allure results vitest's reporter writes name that file: a package and test IDs that change with
 * every run (Allure's history and retries then never line up) and a suite called `spec:…`. This
 * gives each result the names of its own spec file instead: parent suite the service, suite the
 * spec file, sub-suite its describe blocks, and IDs from the spec file and the test's name alone.
 * Stack traces name files relative to the package, not by the absolute paths of this machine.
 * Returns the file text of a result (normalised in place), for the run's Allure writer
 * (`allure-vitest-reporter.ts`), which writes each result as its test ends.
 */
export function normalisedResultWriter(): (result: AllureResult) => string {
  const roots = localRoots();
  return (result) => {
    normaliseAllureResult(result, roots);
    return jsonForFile(result);
  };
}

/** Normalises one result in place (see `normalisedResultWriter`). */
function normaliseAllureResult(result: AllureResult, roots: readonly RegExp[]): void {
  stripLocalPaths(result, roots);
  const titles = result.titlePath ?? [];
  const at = titles.findIndex((t) => t.startsWith(SPEC_SUITE));
  if (at < 0) return;
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
