// Round trip of the HAR: runs the suites of one service against the reference and against fault
// variants whose rules can be judged from traffic, audits each run's own exchanges.har offline,
// and prints, per run, how many passively judgeable rules agree with the run's status.
//   npx tsx bench/har-round-trip.ts [--variants N] [--service NAME…]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passiveRuleIds } from '../audit/passive-checks.ts';
import { readHar } from '../audit/read-har.ts';
import { roundTrip } from '../audit/round-trip.ts';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { runCli } from '../tests/run-cli.ts';

const args = process.argv.slice(2);
const perService = Number(args[args.indexOf('--variants') + 1] || 7);
const services = (
  args.includes('--service') ? args.slice(args.indexOf('--service') + 1) : [...SERVICES]
) as ServiceName[];
const passive = passiveRuleIds();
const faults = await loadFaults();
const dir = mkdtempSync(join(tmpdir(), 'har-round-trip-'));

interface Row {
  service: string;
  variant: string;
  compared: number;
  agreed: number;
  differences: string[];
  brokenFailedInAudit?: boolean;
}
const rows: Row[] = [];

for (const service of services) {
  const variants = [
    undefined,
    ...faults.filter((f) => f.service === service && f.breaks.some((r) => passive.has(r))).slice(0, perService),
  ];
  for (const v of variants) {
    const ref = await startReference({
      port: 0,
      faults: v ? [v.id] : [],
      throttle: v?.options?.throttle ?? 8,
      throttledClients: v?.options?.throttle ? undefined : ['conformance-throttled'],
      visibilityDelayMs: v?.options?.visibilityDelayMs,
    });
    try {
      const config = join(dir, 'run.json');
      writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
      const out = join(dir, `${service}-${v?.id ?? 'reference'}`);
      const res = await runCli(
        [
          'run',
          '--config',
          config,
          '--service',
          service,
          '--probe-throttling',
          '--seed',
          '1',
          '--runs',
          '10',
          '--report-dir',
          out,
        ],
        {
          timeoutMs: 300_000,
        },
      );
      if (res.code !== 0 && res.code !== 1)
        throw new Error(`run against ${v?.id ?? 'the reference'} ended with ${res.code}: ${res.stderr.slice(0, 400)}`);
      const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as ConformanceReport;
      const rt = roundTrip(report, readHar(join(out, 'exchanges.har')));
      const row: Row = {
        service,
        variant: v?.id ?? '(reference)',
        compared: rt.compared,
        agreed: rt.agreed,
        differences: rt.differences.map((d) => `${d.rule}: run ${d.run}, audit ${d.audit}`),
      };
      rows.push(row);
      process.stdout.write(
        `${service.padEnd(24)} ${row.variant.padEnd(44)} ${row.agreed}/${row.compared} agree${row.differences.length ? `\n    ${row.differences.join('\n    ')}` : ''}\n`,
      );
    } finally {
      await ref.close();
    }
  }
}
const compared = rows.reduce((n, r) => n + r.compared, 0);
const agreed = rows.reduce((n, r) => n + r.agreed, 0);
process.stdout.write(
  `\n${rows.length} runs (${rows.filter((r) => r.variant !== '(reference)').length} fault variants): ${agreed}/${compared} rule statuses agree; ${rows.filter((r) => r.differences.length === 0).length}/${rows.length} runs agree on every passive rule\n`,
);
rmSync(dir, { recursive: true, force: true });
