import type { ConformanceReport, RuleResult } from './conformance-report.ts';
import { failureBlock, failureBlockLines } from './failure-block.ts';
import { forXml as esc } from './untrusted-text.ts';

function testcase(r: RuleResult, report: ConformanceReport): string {
  const name = esc(r.id);
  const cls = esc(`${r.service}.${r.level}`);
  const open = `    <testcase classname="${cls}" name="${name}" time="0">`;
  const props = `\n      <system-out>${esc(`"${r.quote}"\n${r.statement}`)}</system-out>`;
  const baseline = report.baseline;
  // One verdict in every artifact: a known failure the baseline accepted does not fail CI's JUnit
  // step; a stale entry (the rule now passes) does, as it fails the run.
  if (baseline?.accepted.includes(r.id))
    return `${open}\n      <skipped message="${esc(`known failure, accepted by the baseline ${baseline.file}: ${r.failure?.title ?? 'failed'}`)}"/>${props}\n    </testcase>`;
  if (baseline?.stale.includes(r.id))
    return `${open}\n      <failure message="${esc(`stale baseline entry: the rule now passes; remove it from ${baseline.file}`)}" type="baseline">${esc(`${r.id} is listed in ${baseline.file} as a known failure, but it passed in this run.`)}</failure>${props}\n    </testcase>`;
  switch (r.status) {
    case 'failed': {
      const f = r.failure;
      const text = f ? failureBlockLines(failureBlock(f), '').join('\n') : 'failed';
      return `${open}\n      <failure message="${esc(f?.title ?? 'failed')}" type="${esc(r.level)}">${esc(text)}</failure>${props}\n    </testcase>`;
    }
    case 'skipped':
    case 'not-exercised':
      return `${open}\n      <skipped message="${esc(`${r.status}: ${r.reason ?? ''}`)}"/>${props}\n    </testcase>`;
    case 'warning': {
      const w = r.warning;
      const text = w
        ? `warning: reading ${w.reading}: ${w.text} Expected: ${w.expected}. The deployment: ${w.received}`
        : 'warning';
      return `${open}\n      <skipped message="${esc(text)}"/>${props.replace('</system-out>', esc(w?.curl ? `\nReproduce with:\n${w.curl}` : '') + '</system-out>')}\n    </testcase>`;
    }
    case 'observed':
      return `${open}${props.replace('</system-out>', esc(`\nObserved: ${(r.observed ?? []).join(' | ')}`) + '</system-out>')}\n    </testcase>`;
    default:
      return `${open}${props}\n    </testcase>`;
  }
}

/** Whether a rule's test case is a failure in JUnit: failed and not accepted by the baseline, or a stale baseline entry. */
function junitFailed(r: RuleResult, report: ConformanceReport): boolean {
  if (report.baseline?.stale.includes(r.id)) return true;
  return r.status === 'failed' && r.level !== 'UNSPECIFIED' && !report.baseline?.accepted.includes(r.id);
}

/** JUnit XML with one test case per rule, one test suite per service. */
export function junitXml(report: ConformanceReport): string {
  const services = [...new Set(report.rules.map((r) => r.service))];
  const suites = services.map((s) => {
    const rules = report.rules.filter((r) => r.service === s);
    const failures = rules.filter((r) => junitFailed(r, report)).length;
    const skipped = rules.filter(
      (r) => ['skipped', 'not-exercised', 'warning'].includes(r.status) || report.baseline?.accepted.includes(r.id),
    ).length;
    return `  <testsuite name="${esc(s)}" tests="${rules.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${esc(report.startedAt)}">\n${rules.map((r) => testcase(r, report)).join('\n')}\n  </testsuite>`;
  });
  const failures = report.rules.filter((r) => junitFailed(r, report)).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance" tests="${report.rules.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
