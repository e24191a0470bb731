// `npm run bench:bounded`: a run ends in bounded time whatever the target does. Prints figures,
// never pass/fail: a target reporting an undocumented job state, the hostile target with 20 s
// stalls at the default timeout, the reference behind a proxy adding 100 ms to every request,
// and runs against answers spoiled by the mutation proxy (30 seeds or more).
//
//   npm run bench:bounded [-- --only jobs,hostile,slow,mutation] [--seeds N] [--slow-service NAME]
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { hostileRunConfig, startHostileTarget } from '../tests/hostile-target.ts';
import { mutationRun, type MutationRunResult } from '../tests/mutation-run.ts';
import { runCli } from '../tests/run-cli.ts';
import { tempDir } from '../tests/temp-dir.ts';
import { fmtSpread } from './stats.ts';

const line = (s = '') => process.stdout.write(`${s}\n`);
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('--only')?.split(',');
const wanted = (section: string) => !only || only.includes(section);
const SERVICES = ['technical-token-manager', 'notification', 'event-management'];

/** Job status answers with the undocumented `COMPLETED` where the reference says `FINISHED`. */
async function undocumentedJobState(): Promise<void> {
  line('## A target reporting an undocumented job state (COMPLETED for FINISHED), full run');
  const r = await mutationRun({
    seed: 1,
    budgetMs: 600_000,
    rewrite: (method, path, a) =>
      method === 'GET' && /\/(create|delete)EventsJobs\//.test(path)
        ? { ...a, body: Buffer.from(a.body.toString('utf8').replace(/"state":"FINISHED"/g, '"state":"COMPLETED"')) }
        : a,
  });
  const state = r.report?.rules.find((x) => x.id === 'event-management/jobs/initial-state-accepted');
  line(`  wall time:        ${r.seconds.toFixed(1)} s (target: under 120 s), exit ${r.code}`);
  line(`  jobs state rule:  ${state?.status ?? 'absent'} (${state?.failure?.received ?? state?.reason ?? ''})`);
  line(
    `  report:           ${r.schemaErrors.length ? `schema errors ${r.schemaErrors.join('; ')}` : 'schema-valid'}; suite errors ${r.suiteErrors.length}; outstanding resources ${r.report?.cleanup?.outstanding.length ?? '?'}`,
  );
  line();
}

/** tests/hostile-target.ts with stalls of 20 s, at the default options. */
async function hostile(): Promise<void> {
  line('## The hostile target with 20 s stalls, default options (timeout 10 s)');
  const target = await startHostileTarget({ stallMs: 20_000 });
  const dir = tempDir('bench-hostile');
  try {
    const config = join(dir, 'run.json');
    writeFileSync(config, hostileRunConfig(target, 'hostile-secret'));
    const started = Date.now();
    const res = await runCli(['run', '--config', config, '--report-dir', join(dir, 'r')], { timeoutMs: 900_000 });
    const seconds = (Date.now() - started) / 1000;
    const file = join(dir, 'r', 'conformance-report.json');
    const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
    line(`  wall time:  ${seconds.toFixed(1)} s (target: under 120 s), exit ${res.code}`);
    line(
      `  report:     ${report ? `written, ${report.counts.byStatus.failed} rules failed, ${report.counts.byStatus['not-exercised']} not exercised` : 'NOT written'}`,
    );
    line(`  stopped:    ${report?.stopped ? `${report.stopped.reason}: ${report.stopped.detail}` : 'no'}`);
    line(`  requests:   ${report?.http?.requests}, transport errors ${report?.http?.transportErrors}`);
    line(`  behaviours: ${JSON.stringify(target.counts)}`);
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
  line();
}

/** The conformant reference behind a proxy that adds 100 ms to every request: no false failure. */
async function slowNetwork(): Promise<void> {
  const service = arg('--slow-service');
  line(`## The reference behind a proxy adding 100 ms to every request (${service ?? 'every service'})`);
  const r = await mutationRun({ service, seed: 1, delayMs: 100, budgetMs: 900_000 });
  const failed = r.report?.rules.filter((x) => x.status === 'failed') ?? [];
  line(`  wall time:     ${r.seconds.toFixed(1)} s, exit ${r.code}, requests ${r.report?.http?.requests}`);
  line(
    `  false failures: ${failed.length}${failed.length ? ` (${failed.map((x) => `${x.id}: ${x.failure?.received.slice(0, 120)}`).join('; ')})` : ''}; run errors ${r.report?.errors.length ?? '?'}`,
  );
  line();
}

/** Runs against the mutation proxy, seeds spread over the three services. */
async function mutation(): Promise<void> {
  const seeds = Number(arg('--seeds') ?? 30);
  line(`## Mutation proxy: ${seeds} seeds over the three services, 15% of answers spoiled, budget 180 s a run`);
  const results: MutationRunResult[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const r = await mutationRun({
      service: SERVICES[seed % 3],
      seed,
      share: 0.15,
      budgetMs: 180_000,
      args: ['--runs', '10'],
    });
    results.push(r);
    const spoiled = Object.entries(r.mutations)
      .filter(([k]) => k !== 'untouched')
      .reduce((n, [, v]) => n + v, 0);
    line(
      `  seed ${String(seed).padStart(3)} ${r.service.padEnd(24)} ${r.seconds.toFixed(1).padStart(6)} s  exit ${r.code}  answers spoiled ${String(spoiled).padStart(3)}  rules failed ${String(r.failedRules).padStart(3)}  schema ${r.schemaErrors.length ? 'INVALID' : 'ok'}  suite errors ${r.suiteErrors.length}`,
    );
    for (const e of [...r.schemaErrors, ...r.suiteErrors]) line(`      ${e.slice(0, 300)}`);
  }
  line(`  runs:                 ${results.length}`);
  line(`  over budget:          ${results.filter((r) => r.overBudget).length}`);
  line(`  schema-invalid:       ${results.filter((r) => r.schemaErrors.length).length}`);
  line(`  with suite errors:    ${results.filter((r) => r.suiteErrors.length).length}`);
  line(`  exit other than 1:    ${results.filter((r) => r.code !== 1).length}`);
  line(
    `  wall time per run:    ${fmtSpread(
      results.map((r) => r.seconds),
      's',
    )}`,
  );
  line(
    `  rules failed per run: ${fmtSpread(
      results.map((r) => r.failedRules),
      '',
      0,
    )}`,
  );
  line();
}

if (wanted('jobs')) await undocumentedJobState();
if (wanted('hostile')) await hostile();
if (wanted('slow')) await slowNetwork();
if (wanted('mutation')) await mutation();
