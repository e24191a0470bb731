/**
 * Writes what a second reader is given for one service (docs/second-reading.md): every testable
 * rule whose basis is `document`, in catalog order, with its level, the section and sentence it
 * quotes, its statement and what its checks assert (the entry's basis note, else the quoted
 * sentence). It reads the catalog only, never a suite's code.
 *
 *   npx tsx docs/make-checks-list.ts notification > notification.checks.yaml
 */
import yaml from 'js-yaml';
import { basisOf, loadServiceCatalog } from '../contracts/catalog.ts';
import { SERVICES, type ServiceName } from '../contracts/services.ts';

/** The checks list of one service, as YAML. */
export function makeChecksList(service: ServiceName): string {
  const checks = loadServiceCatalog(service)
    .rules.filter((r) => r.testable !== false && r.status !== 'retired' && basisOf(r) === 'document')
    .map((r) => ({
      rule: r.id,
      level: r.level,
      section: r.source.section,
      sentence: r.source.quote,
      statement: r.statement.trim(),
      'what the check asserts': r.basisNote ?? 'settled by the quoted sentence',
    }));
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
