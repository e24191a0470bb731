import type { ServiceName } from '../contracts/services.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { Har } from '../suites/engine/har.ts';
import { judgeHar } from './judge-har.ts';

/** A passively judgeable rule whose status differs between a run and the audit of its HAR. */
export interface RoundTripDifference {
  rule: string;
  run: string;
  audit: string;
}

/**
 * Audits a run's own HAR and compares, for every passively judgeable rule of the run's services,
 * the audit's status with the run's.
 */
export function roundTrip(
  report: ConformanceReport,
  har: Har,
): { compared: number; agreed: number; differences: RoundTripDifference[] } {
  const services = (report.options.services as ServiceName[] | undefined) ?? [];
  const { outcomes } = judgeHar(har, services);
  const differences: RoundTripDifference[] = [];
  let compared = 0;
  for (const [rule, o] of Object.entries(outcomes)) {
    const run = report.rules.find((r) => r.id === rule);
    // A rule the run left out (--rule, --service) is not compared.
    if (!run || run.reasonCode === 'not-selected') continue;
    compared++;
    if (run.status !== o.status) differences.push({ rule, run: run.status, audit: o.status });
  }
  return { compared, agreed: compared - differences.length, differences };
}
