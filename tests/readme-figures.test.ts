import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { LEVELS, loadRules, loadServiceCatalog } from '../contracts/catalog.ts';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { MIN_RUNS } from '../certification/certification-profile.ts';
import { DEFAULT_CONCURRENCY, EXIT } from '../cli/run-command.ts';
import { REPORT_FAULTS } from '../docs/make-screenshots.ts';
import { DEFAULT_CLEANUP_TIMEOUT_MS } from '../suites/engine/ledger.ts';
import { THROTTLE_PROBE, THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { docText, figure, matchesOf } from './readme-text.ts';

// Every count the README states (rules, levels, readings, warnings, fault variants, services) is
// computed here from its source, so a figure cannot drift: a change to the catalog or the
// variants that changes a count fails here until the README says the new one.

const rules = loadRules();
const byService = (s: ServiceName) => loadServiceCatalog(s).rules;
const withReadings = rules.filter((r) => r.readings?.length);
const readingIds = SERVICES.map((s) => new Set(byService(s).flatMap((r) => (r.readings ?? []).map((x) => x.id))).size);
const faults = await loadFaults();
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The rules the alternate profile does not take the other side of yet: the list its test keeps. */
function alternateNotYet(): string[] {
  const source = docText('tests/alternate-profile.e2e.test.ts');
  const list = /const ALTERNATE_NOT_YET(?:: string\[\])? = \[([^\]]*)\]/.exec(source)?.[1];
  if (list === undefined) throw new Error('tests/alternate-profile.e2e.test.ts no longer holds ALTERNATE_NOT_YET');
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}
const notYet = alternateNotYet();

interface Figure {
  what: string;
  /** Global; each capture group is one figure. */
  pattern: RegExp;
  /** The figures the groups must read, in order. */
  expected: (string | number)[];
}

const readmeFigures: Figure[] = [
  {
    what: 'the services and their documents’ versions',
    pattern:
      /(\w+) platform REST services — the \*\*Technical Token Manager\*\*\s+\((\S+)\), the \*\*Notification Service\*\* \((\S+)\) and the \*\*Event Management Service\*\* \((\S+)\)/g,
    expected: [WORDS[SERVICES.length], ...SERVICES.map((s) => loadServiceCatalog(s).version)],
  },
  { what: 'the service documents', pattern: /\b(\w+) service documents\b/g, expected: [WORDS[SERVICES.length]] },
  {
    what: 'rules in all and per service',
    pattern:
      /The catalog holds ([\d,]+) rules: ([\d,]+) of the token manager, ([\d,]+) of notification and ([\d,]+) of event\s+management/g,
    expected: [rules.length, ...SERVICES.map((s) => byService(s).length)],
  },
  {
    what: 'rules per level',
    pattern: /([\d,]+) MUST, ([\d,]+) SHOULD, ([\d,]+) MAY and ([\d,]+) UNSPECIFIED/g,
    expected: LEVELS.map((l) => rules.filter((r) => r.level === l).length),
  },
  {
    what: 'rules testable from outside, and the others',
    pattern: /([\d,]+) of them testable from outside\s+\(the other ([\d,]+) are reported as skipped/g,
    expected: [rules.filter((r) => r.testable).length, rules.filter((r) => !r.testable).length],
  },
  {
    what: 'readings, and the rules that have them',
    pattern: /([\d,]+) readings on ([\d,]+) rules/g,
    expected: [readingIds.reduce((a, b) => a + b, 0), withReadings.length],
  },
  { what: 'fault variants', pattern: /its\s+([\d,]+) fault variants/g, expected: [faults.length] },
  {
    what: 'warnings of the alternate profile',
    // Every rule with a reading, less those the alternate profile's test lists as not taken yet.
    pattern:
      /exits 0 with\s+([\d,]+) warnings, one for each of the ([\d,]+) rules with readings(?: but ([\d,]+) whose)?/g,
    expected: [withReadings.length - notYet.length, withReadings.length, ...(notYet.length ? [notYet.length] : [])],
  },
  {
    what: 'rules per service beside the read-only profile’s judged counts',
    pattern:
      /of the token manager's ([\d,]+) rules, [\d,]+ of\s+notification's ([\d,]+) and [\d,]+ of event management's ([\d,]+)/g,
    expected: SERVICES.map((s) => byService(s).length),
  },
  {
    what: 'rules the screenshot’s deployment breaks (docs/make-screenshots.ts)',
    pattern: /a deployment that breaks (\w+) rules/g,
    expected: [WORDS[new Set(faults.filter((f) => REPORT_FAULTS.includes(f.id)).flatMap((f) => f.breaks)).size]],
  },
  {
    what: 'the default concurrency',
    pattern: /\(default ([\d,]+) requests in flight\)/g,
    expected: [DEFAULT_CONCURRENCY],
  },
  {
    what: 'the default cleanup budget',
    pattern: /`--cleanup-timeout` \(default `(\d+)s`\)/g,
    expected: [DEFAULT_CLEANUP_TIMEOUT_MS / 1000],
  },
  {
    what: 'the 429 rules',
    pattern: /\bthe (\w+) 429 rules\b/g,
    expected: [WORDS[THROTTLE_RULES.length]],
  },
  {
    what: 'the bounds of the throttle probe',
    pattern: /bursts of (\d+) requests[^.]*?at most (\d+) requests or (\d+) s/g,
    expected: [THROTTLE_PROBE.burst, THROTTLE_PROBE.maxRequests, THROTTLE_PROBE.maxMs / 1000],
  },
  {
    what: 'the fewest runs of certification',
    pattern: /at least the default (\d+) runs per property/g,
    expected: [MIN_RUNS],
  },
];

/** Figures the guard below lets stand: not counts of the catalog (HTTP 429 is a status code). */
const NOT_COUNTS = ['429 rules'];

describe('the figures of the README', () => {
  const readme = docText('README.md');

  it.each(readmeFigures)('$what', ({ pattern, expected }) => {
    const found = matchesOf(readme, pattern);
    expect(found.length, `README.md no longer says ${pattern}`).toBeGreaterThan(0);
    const want = expected.map((e) => (typeof e === 'number' ? figure(e) : e));
    for (const m of found) expect(m.groups).toEqual(want);
  });

  it('states no count of rules, readings, warnings, variants or services that a row above does not check', () => {
    const checked = readmeFigures.flatMap((f) => matchesOf(readme, f.pattern));
    const stray = matchesOf(
      readme,
      /\b(\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten) (?:\w+ )?(rules|readings|warnings|(?:fault )?variants|services)\b/g,
    )
      .filter((m) => !checked.some((c) => c.start <= m.start && m.end <= c.end))
      .map((m) => readme.slice(m.start, m.end))
      .filter((text) => !NOT_COUNTS.includes(text));
    expect(stray, 'counts in README.md no test checks: add a row to readmeFigures').toEqual([]);
  });
});

describe('the exit codes of `run`', () => {
  const codes = [...new Set(Object.values(EXIT))].sort((a, b) => a - b).map(String);

  it('the README’s table lists every code, and no other', () => {
    const table = docText('README.md').split('Exit codes of `run`')[1]?.split('\n\n')[1] ?? '';
    expect(matchesOf(table, /^\| `(\d+)` \|/gm).map((m) => m.groups[0])).toEqual(codes);
  });

  it('the CI example’s comment names every code a run ends with', () => {
    const comment = /# default in GitHub Actions\)\. (Exit [^\n]+\n(?:\s+#[^\n]+\n)*)/.exec(
      docText('docs/ci/conformance.yml'),
    )?.[1];
    expect(matchesOf(comment ?? '', /\b(\d+) [a-z]/g).map((m) => m.groups[0])).toEqual(
      codes.filter((c) => Number(c) < 128),
    );
  });
});

interface AuditEntry {
  rule: string;
  basis: 'document' | 'reading' | 'observed';
  checks?: number;
}

describe('the figures of docs/self-test.md', () => {
  const page = docText('docs/self-test.md');
  const NAMES: Record<ServiceName, string> = {
    'technical-token-manager': 'Technical Token Manager',
    notification: 'Notification',
    'event-management': 'Event Management',
  };

  it.each(SERVICES)('the check audit table’s row for %s', (service) => {
    const audit = (yaml.load(docText(join('suites', service, 'check-audit.yaml'))) as { rules: AuditEntry[] }).rules;
    const basis = (b: AuditEntry['basis']) => audit.filter((e) => e.basis === b).length;
    const row = new RegExp(
      `^\\| ${NAMES[service]} \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$`,
      'gm',
    );
    const found = matchesOf(page, row);
    expect(found).toHaveLength(1);
    expect(found[0].groups).toEqual(
      [
        audit.reduce((n, e) => n + (e.checks ?? 0), 0),
        audit.length,
        basis('document'),
        basis('reading'),
        basis('observed'),
        readingIds[SERVICES.indexOf(service)],
      ].map(String),
    );
  });

  it('the alternate profile’s warnings', () => {
    const found = matchesOf(page, /passes with (\d+) warnings/g);
    expect(found).toHaveLength(1);
    expect(found[0].groups).toEqual([String(withReadings.length - notYet.length)]);
  });
});
