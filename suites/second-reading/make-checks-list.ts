/**
 * Writes what a second reader is given for one service: every rule whose check audit gives it basis
 * `document`, with its level, the section and sentence it quotes, its statement and the audit's
 * note on what the check asserts, in the order of the check audit. It reads the catalog and the
 * check audit only, never a suite's code.
 *
 *   npx tsx suites/second-reading/make-checks-list.ts notification > notification.checks.yaml
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { contractPath, loadServiceCatalog } from '../../contracts/catalog.ts';
import { SERVICES, type ServiceName } from '../../contracts/services.ts';

interface AuditEntry {
  rule: string;
  basis: 'document' | 'reading' | 'observed';
  note: string;
}

/** The checks list of one service, as YAML. */
export function makeChecksList(service: ServiceName): string {
  const rules = new Map(loadServiceCatalog(service).rules.map((r) => [r.id, r]));
  const auditFile = join(contractPath('..'), 'suites', service, 'check-audit.yaml');
  const audit = (yaml.load(readFileSync(auditFile, 'utf8')) as { rules: AuditEntry[] }).rules;
  const checks = audit
    .filter((e) => e.basis === 'document')
    .map((e) => {
      const rule = rules.get(e.rule);
      if (!rule) throw new Error(`${e.rule}: in the check audit of ${service}, not in its catalog`);
      return {
        rule: rule.id,
        level: rule.level,
        section: rule.source.section,
        sentence: rule.source.quote,
        statement: rule.statement.trim(),
        'what the check asserts': e.note,
      };
    });
  return yaml.dump({ document: `${service}.md`, checks }, { lineWidth: 120, noRefs: true });
}

const service = process.argv[2] as ServiceName | undefined;
if (import.meta.url === `file://${process.argv[1]}`) {
  if (!service || !SERVICES.includes(service)) {
    process.stderr.write(`usage: make-checks-list.ts <${SERVICES.join('|')}>\n`);
    process.exit(2);
  }
  process.stdout.write(makeChecksList(service));
}
