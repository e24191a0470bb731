import { loadRules } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';

/** What a certificate lists besides the counts; every field follows from the report and the catalog. */
export interface CertificateFindings {
  /** Failed rules of the claimed services (a NOT CONFORMANT certificate names them). */
  failed: Array<{ id: string; level: string; title: string }>;
  /** MUST rules of the claimed services the catalog marks not testable from outside, with why. */
  untestable: Array<{ id: string; reason: string }>;
  /** Testable MUST rules of the claimed services the run skipped or did not exercise, with why. */
  notJudged: Array<{ id: string; status: string; reason: string }>;
  /** The target was plain HTTP (the documents say HTTPS only). */
  plainHttp: boolean;
  /** The run sent its bounded burst to meet the target's throttle (`--probe-throttling`). */
  throttlingProbed: boolean;
}

/** The findings of a certification run of `claimed`, from its report and this tool's catalog. */
export function certificateFindings(report: ConformanceReport, claimed: readonly ServiceName[]): CertificateFindings {
  const mine = report.rules.filter((r) => claimed.includes(r.service));
  const untestable = loadRules(claimed).filter(
    (r) => r.level === 'MUST' && r.testable === false && r.status !== 'retired',
  );
  const untestableIds = new Set(untestable.map((r) => r.id));
  let plainHttp = false;
  try {
    plainHttp = new URL(report.target).protocol === 'http:';
  } catch {
    // A target that is not a URL is refused by the report schema; nothing to flag here.
  }
  return {
    failed: mine
      .filter((r) => r.status === 'failed')
      .map((r) => ({ id: r.id, level: r.level, title: r.failure?.title ?? '' })),
    untestable: untestable.map((r) => ({ id: r.id, reason: r.note ?? 'not testable from outside' })),
    notJudged: mine
      .filter(
        (r) =>
          r.level === 'MUST' && !untestableIds.has(r.id) && (r.status === 'skipped' || r.status === 'not-exercised'),
      )
      .map((r) => ({ id: r.id, status: r.status, reason: r.reason ?? '' })),
    plainHttp,
    throttlingProbed: report.options?.probeThrottling === true,
  };
}
