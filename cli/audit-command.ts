import { resolve } from 'node:path';
import { auditReport, judgeHar } from '../audit/judge-har.ts';
import { readHar } from '../audit/read-har.ts';
import { SERVICES, SERVICE_INFO, isServiceName, type ServiceName } from '../contracts/services.ts';
import { consoleSummary } from '../reporters/console-summary.ts';
import { writeOutputs } from '../reporters/outputs.ts';
import { toolVersion } from './tool-version.ts';
import { UsageError } from './usage-error.ts';

/** `conformance audit FILE.har…`: judges every passively judgeable rule on recorded traffic alone. */
export function auditCommand(files: string[], opts: { service?: string[]; reportDir: string }): number {
  for (const s of opts.service ?? []) if (!isServiceName(s)) throw new UsageError(`--service ${s}: no such service`);
  // A HAR that cannot be read, or does not fit, is refused with one line (exit 2).
  const hars = files.map((f) => readHar(f));
  // Without --service: the services the traffic reaches.
  const reached = SERVICES.filter((s) =>
    hars.some((h) => h.log.entries.some((e) => e.request.url.includes(SERVICE_INFO[s].basePath))),
  );
  const services = (opts.service ?? (reached.length ? reached : [...SERVICES])) as ServiceName[];
  const startedAt = new Date().toISOString();
  const judged = judgeHar(hars, services);
  const targets = new Set(hars.flatMap((h) => h.log.entries.map((e) => new URL(e.request.url).origin)));
  const reportDir = resolve(opts.reportDir);
  const { report, coverage } = auditReport(judged, {
    services,
    target: [...targets].join(', ') || '(no exchanges)',
    startedAt,
    toolVersion: toolVersion(),
    reportFile: `${opts.reportDir}/conformance-report.json`,
    sources: files,
  });
  const written = writeOutputs(reportDir, report);
  process.stdout.write(
    `conformance audit — ${coverage.exchanges} exchanges of ${services.join(', ')} in ${files.length} file(s)\n` +
      `  ${coverage.passiveRules} of the catalog's ${coverage.catalogRules} rules can be judged from traffic; this traffic judged ${coverage.judged} of them (the others are not-exercised, with the reason)\n`,
  );
  process.stdout.write(consoleSummary(report, written));
  return report.verdict === 'passed' ? 0 : 1;
}
