import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { runCli } from './run-cli.ts';

/**
 * References (with fault variants) started for a test file and stopped after it, each with a run
 * configuration written into `dir`; and a run against one, whose report and HAR a test audits.
 */
export function referenceStarter(dir: string): {
  reference: (faults?: string[]) => Promise<{ ref: RunningReference; config: RunConfig; file: string }>;
  runAndAudit: (faults: string[], args: string[]) => Promise<{ report: ConformanceReport; out: string }>;
} {
  const running: RunningReference[] = [];
  afterAll(async () => {
    for (const r of running) await r.close();
  });
  const reference = async (
    faults: string[] = [],
  ): Promise<{ ref: RunningReference; config: RunConfig; file: string }> => {
    const ref = await startReference({ port: 0, faults, throttle: 8, throttledClients: ['conformance-throttled'] });
    running.push(ref);
    const config = referenceRunConfig(ref, ref.baseUrl);
    const file = join(dir, `run-${running.length}.json`);
    writeFileSync(file, JSON.stringify(config));
    return { ref, config, file };
  };

  const runAndAudit = async (faults: string[], args: string[]): Promise<{ report: ConformanceReport; out: string }> => {
    const { file } = await reference(faults);
    const out = join(dir, `out-${running.length}`);
    const res = await runCli(['run', '--config', file, '--seed', '1', '--runs', '5', '--report-dir', out, ...args], {
      timeoutMs: 240_000,
    });
    expect([0, 1]).toContain(res.code);
    return { report: JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as ConformanceReport, out };
  };

  return { reference, runAndAudit };
}
