import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import type { ServiceName } from '../contracts/services.ts';
import type { FaultVariant } from '../fixtures/faults/fault-variant.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { referenceRunConfig } from './reference-config.ts';
import { resolveServices } from './rules-command.ts';
import { UsageError } from './usage-error.ts';

const launcher = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));

export type Verdict = 'killed' | 'killed-elsewhere' | 'survived' | 'error';

export interface SelftestRow {
  variant: string;
  service: ServiceName;
  expected: string[];
  verdict: Verdict;
  /** Rules that failed against the variant. */
  failed: string[];
  durationMs: number;
  error?: string;
}

export interface SelftestResult {
  reference: { falseFailures: string[]; errors: string[]; durationMs: number };
  variants: SelftestRow[];
  score: number;
  durationMs: number;
}

interface Job {
  id: string;
  services: ServiceName[];
  faults: string[];
  rules: string[];
  options?: FaultVariant['options'];
}

/** Runs one `conformance run` in a child process against a reference started for it. */
async function runJob(job: Job, workDir: string, seed: number, runs: number): Promise<{ report?: ConformanceReport; error?: string; durationMs: number }> {
  const started = Date.now();
  const ref = await startReference({ port: 0, faults: job.faults, throttle: job.options?.throttle, visibilityDelayMs: job.options?.visibilityDelayMs });
  const dir = join(workDir, job.id);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'run.json');
  writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
  const args = [launcher, 'run', '--config', config, '--report-dir', dir, '--seed', String(seed), '--runs', String(runs), '--service', ...job.services];
  if (job.rules.length) args.push('--rule', ...job.rules);
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
      child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve({ code: c, output });
      });
    });
    if (code !== 0 && code !== 1) return { error: `run exited ${code}: ${output.slice(-600)}`, durationMs: Date.now() - started };
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    return { report, durationMs: Date.now() - started };
  } catch (e) {
    return { error: (e as Error).message, durationMs: Date.now() - started };
  } finally {
    await ref.close();
  }
}

async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export interface SelftestOptions {
  faults?: string[];
  service?: string[];
  json?: boolean;
  parallel?: string;
  runs?: string;
  seed?: string;
  keep?: boolean;
}

/** `conformance selftest`: the suite against the reference and every fault variant. */
export async function selftestCommand(opts: SelftestOptions): Promise<number> {
  const services = resolveServices(opts.service);
  const globs = (opts.faults ?? []).flatMap((g) => g.split(',')).filter(Boolean);
  const all = (await loadFaults()).filter((f) => services.includes(f.service));
  const variants = globs.length ? all.filter((f) => globs.some((g) => picomatch.isMatch(f.id, g) || f.id === g)) : all;
  if (globs.length && !variants.length) throw new UsageError(`--faults ${globs.join(' ')} matches no fault variant`);
  const width = Math.max(1, Number(opts.parallel ?? availableParallelism()));
  const runs = Number(opts.runs ?? 10);
  const seed = Number(opts.seed ?? 1);
  const workDir = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const started = Date.now();
  const log = (line: string) => {
    if (!opts.json) process.stdout.write(`${line}\n`);
  };
  log(`selftest: reference + ${variants.length} fault variants, ${width} at a time (seed ${seed}, runs ${runs})`);
  const jobs: Job[] = [
    { id: 'reference', services, faults: [], rules: [] },
    ...variants.map((v) => ({ id: v.id, services: [v.service], faults: [v.id], rules: v.breaks, options: v.options })),
  ];
  const results = await pool(jobs, width, async (job) => {
    const r = await runJob(job, workDir, seed, runs);
    const failed = r.report?.rules.filter((x) => x.status === 'failed').map((x) => x.id) ?? [];
    log(`  ${job.id === 'reference' ? 'reference' : job.id}: ${r.error ? 'error' : failed.length ? `failed ${failed.join(', ')}` : 'no failure'} (${(r.durationMs / 1000).toFixed(1)} s)`);
    return { job, ...r, failed };
  });
  const [ref, ...rest] = results;
  const rows: SelftestRow[] = rest.map((r, i) => {
    const v = variants[i];
    const verdict: Verdict = r.error
      ? 'error'
      : r.failed.some((id) => v.breaks.includes(id))
        ? 'killed'
        : r.report?.verdict === 'failed'
          ? 'killed-elsewhere'
          : 'survived';
    return { variant: v.id, service: v.service, expected: v.breaks, verdict, failed: r.failed, durationMs: r.durationMs, error: r.error };
  });
  const killed = rows.filter((r) => r.verdict === 'killed').length;
  const result: SelftestResult = {
    reference: { falseFailures: ref.failed, errors: ref.error ? [ref.error] : (ref.report?.errors ?? []), durationMs: ref.durationMs },
    variants: rows,
    score: rows.length ? killed / rows.length : 1,
    durationMs: Date.now() - started,
  };
  if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    log('');
    log(`${'variant'.padEnd(48)} ${'verdict'.padEnd(17)} failed rules`);
    for (const r of rows) log(`${r.variant.padEnd(48)} ${r.verdict.padEnd(17)} ${r.error ? r.error.split('\n')[0] : r.failed.join(', ') || '-'}`);
    log('');
    log(`reference: ${result.reference.falseFailures.length} false failures${result.reference.falseFailures.length ? ` (${result.reference.falseFailures.join(', ')})` : ''}${result.reference.errors.length ? `, errors: ${result.reference.errors.join('; ')}` : ''}`);
    log(`mutation score: ${killed}/${rows.length} = ${(result.score * 100).toFixed(1)}%   time: ${(result.durationMs / 1000).toFixed(1)} s`);
  }
  const bad = rows.some((r) => r.verdict !== 'killed') || result.reference.falseFailures.length > 0 || result.reference.errors.length > 0;
  return bad ? 1 : 0;
}

/** `conformance faults`: the variants and the rules each must make fail. */
export async function faultsCommand(opts: { json?: boolean }): Promise<void> {
  const faults = await loadFaults();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(faults, null, 2)}\n`);
    return;
  }
  for (const f of faults) process.stdout.write(`${f.id}  [${f.service}]\n    ${f.description}\n    breaks: ${f.breaks.join(', ')}\n`);
  process.stdout.write(`\n${faults.length} fault variants\n`);
}
