import { loadRules } from '../contracts/catalog.ts';
import type { ServiceName } from '../contracts/services.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';
import { unjudgedRules } from './certification-profile.ts';

/** What a certificate lists besides the counts; every field follows from the report and the catalog. */
export interface CertificateFindings {
  /** Failed rules of the claimed services (a NOT CONFORMANT certificate names them). */
  failed: Array<{ id: string; level: string; title: string }>;
  /** MUST rules of the claimed services the catalog marks not testable from outside, with why. */
  untestable: Array<{ id: string; reason: string }>;
  /** Testable MUST and SHOULD rules of the claimed services the run skipped or did not exercise, with why. */
  notJudged: Array<{ id: string; level: string; status: string; reason: string }>;
  /** The target was plain HTTP (the documents say HTTPS only). */
  plainHttp: boolean;
  /** The 429 rules of the claimed services: whether the run probed the throttle, which it judged and which not. */
  throttling: {
    /** The run sent its bursts as the throttled principal (`--probe-throttling`). */
    probed: boolean;
    judged: string[];
    notJudged: Array<{ id: string; reason: string }>;
  };
}

/** The findings of a certification run of `claimed`, from its report and this tool's catalog. */
export function certificateFindings(report: ConformanceReport, claimed: readonly ServiceName[]): CertificateFindings {
  const mine = report.rules.filter((r) => claimed.includes(r.service));
  const untestable = loadRules(claimed).filter(
    (r) => r.level === 'MUST' && r.testable === false && r.status !== 'retired',
  );
  let plainHttp = false;
  try {
    plainHttp = new URL(report.target).protocol === 'http:';
  } catch {
    // A target that is not a URL is refused by the report schema; nothing to flag here.
  }
  const throttleRules = mine.filter((r) => (THROTTLE_RULES as readonly string[]).includes(r.id));
  const unjudged = (r: { status: string }) => r.status === 'skipped' || r.status === 'not-exercised';
  return {
    failed: mine
      .filter((r) => r.status === 'failed')
      .map((r) => ({ id: r.id, level: r.level, title: r.failure?.title ?? '' })),
    untestable: untestable.map((r) => ({ id: r.id, reason: r.note ?? 'not testable from outside' })),
    notJudged: unjudgedRules(report, claimed).map((r) => ({
      id: r.id,
      level: r.level,
      status: r.status,
      reason: r.reason ?? '',
    })),
    plainHttp,
    throttling: {
      probed: report.options?.probeThrottling === true,
      judged: throttleRules.filter((r) => !unjudged(r)).map((r) => r.id),
      notJudged: throttleRules.filter(unjudged).map((r) => ({ id: r.id, reason: r.reason ?? '' })),
    },
  };
}
