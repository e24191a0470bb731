import { loadRules } from '../contracts/catalog.ts';
import { SERVICES, isServiceName, type ServiceName } from '../contracts/services.ts';
import { didYouMean } from './did-you-mean.ts';
import { UsageError } from './usage-error.ts';

export interface RulesOptions {
  service?: string[];
  json?: boolean;
  level?: string;
  summary?: boolean;
}

/** `conformance rules`: the catalog, for a person or as JSON. */
export function rulesCommand(opts: RulesOptions): void {
  const services = resolveServices(opts.service);
  let rules = loadRules(services);
  if (opts.level) rules = rules.filter((r) => r.level === opts.level!.toUpperCase());
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
    return;
  }
  let current = '';
  for (const r of rules) {
    const service = r.id.split('/')[0];
    if (service !== current) {
      current = service;
      process.stdout.write(`\n${service} (${rules.filter((x) => x.id.startsWith(`${service}/`)).length} rules)\n`);
    }
    const flag = r.testable === false ? ' [not testable]' : '';
    process.stdout.write(`  ${r.level.padEnd(11)} ${r.id}${flag}\n              ${r.statement}\n`);
    for (const x of r.readings ?? []) process.stdout.write(`              reading ${x.id}: ${x.reading}\n`);
  }
  const readings = rules.reduce((n, r) => n + (r.readings?.length ?? 0), 0);
  process.stdout.write(`\n${rules.length} rules, ${readings} readings (a reading that does not hold is a warning)\n`);
}

/** Validates `--service` values (none: all three). */
export function resolveServices(values: string[] | undefined): ServiceName[] {
  if (!values?.length) return [...SERVICES];
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = names.filter((n) => !isServiceName(n));
  if (bad.length) {
    const hints = bad.map((b) => didYouMean(b, SERVICES)).filter(Boolean);
    throw new UsageError(
      `unknown service ${bad.join(', ')}${hints.length ? ` (did you mean ${hints.join(', ')}?)` : ''}; expected one of ${SERVICES.join(', ')}`,
    );
  }
  return names as ServiceName[];
}
