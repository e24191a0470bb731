import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult, TestResultContainer } from 'allure-js-commons';
import { FileSystemWriter, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { RunnerTask } from 'vitest';
import type { TestCase, Vitest } from 'vitest/node';
import type { RuleTestMeta } from '../suites/engine/rule-test.ts';
import { type AllureResult, normalisedResultWriter } from './allure-results.ts';

/** Why a test is not this run's: `--rule` did not select it, or `--shard` gave it to another run. */
const NOT_THIS_RUNS = new Set(['not-selected', 'other-shard']);

/** Whether the run left the test out (its rules' outcomes all say so), as its report does. */
function leftOut(task: RunnerTask): boolean {
  const outcomes = Object.values((task.meta as { conformance?: RuleTestMeta }).conformance?.outcomes ?? {});
  return outcomes.length > 0 && outcomes.every((o) => o.reasonCode !== undefined && NOT_THIS_RUNS.has(o.reasonCode));
}

/**
 * Writes each Allure result as the report keeps it (`normalisedResultWriter`: named by its own
 * spec file, no local paths) when the test ends, with a plain write: Allure's own writer (a
 * temporary file, fsync, rename per result) and a read-and-rewrite of every result afterwards
 * spent one to two seconds of a run's end on a busy disk.
 */
class NormalisingWriter implements Writer {
  private readonly base: FileSystemWriter;
  private readonly normalised = normalisedResultWriter();
  constructor(private readonly resultsDir: string) {
    this.base = new FileSystemWriter({ resultsDir });
    mkdirSync(resultsDir, { recursive: true });
  }
  private path(name: string): string {
    return join(this.resultsDir, name);
  }
  writeResult(result: TestResult): void {
    writeFileSync(this.path(`${result.uuid}-result.json`), this.normalised(result as unknown as AllureResult));
  }
  writeGroup(result: TestResultContainer): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result));
  }
  writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.path(distFileName), content);
  }
  writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, this.path(distFileName));
  }
  writeEnvironmentInfo(...args: Parameters<Writer['writeEnvironmentInfo']>): void {
    this.base.writeEnvironmentInfo(...args);
  }
  writeCategoriesDefinitions(...args: Parameters<Writer['writeCategoriesDefinitions']>): void {
    this.base.writeCategoriesDefinitions(...args);
  }
  writeGlobals(...args: Parameters<Writer['writeGlobals']>): void {
    this.base.writeGlobals(...args);
  }
}

/**
 * allure-vitest's reporter, writing each test's result as the test ends instead of all of them
 * once the last one has (the main thread is idle while the tests wait on the target, and a run's
 * end is its time to verdict), through the writer above.
 */
export class AllureReporter extends AllureVitestReporter {
  private readonly handled = new Set<string>();
  constructor(private readonly resultsDir: string) {
    super({ resultsDir });
  }
  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // The runtime is allure-vitest's own (made in onInit); only its writer is replaced.
    (this as unknown as { allureReporterRuntime: { writer: Writer } }).allureReporterRuntime.writer =
      new NormalisingWriter(this.resultsDir);
  }
  onTestCaseResult(testCase: TestCase): void {
    // vitest keeps the runner's task on each test case (allure-vitest reads it from the modules too).
    const { task } = testCase as unknown as { task?: RunnerTask };
    if (task) this.handleTask(task);
  }
  /**
   * A test is written once: as it ends, or at the run's end if it was not reported before (skipped,
   * cancelled); a test the run left out (`--rule`, `--shard`) is not written, as the report does
   * not list it: a one-rule run wrote some 340 skipped results, and each shard of a merged run a
   * skipped twin of every test another shard ran.
   */
  override handleTask(task: RunnerTask): void {
    if (task.type !== 'suite') {
      if (this.handled.has(task.id) || leftOut(task)) return;
      this.handled.add(task.id);
    }
    super.handleTask(task);
  }
}
