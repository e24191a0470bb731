import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FORBIDDEN_OPTIONS, MIN_RUNS } from '../certification/certification-profile.ts';
import { missingRequirements } from '../certification/config-requirements.ts';
import { SERVICE_INFO } from '../contracts/services.ts';
import { generateSigningKey, readKeyFile } from '../certification/signing-key.ts';
import { writeBundle } from '../certification/write-bundle.ts';
import type { Manifest } from '../certification/manifest.ts';
import { gates } from '../reporters/conformance-report.ts';
import { resolveServices } from './rules-command.ts';
import { EXIT, runCommand } from './run-command.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';
import { UsageError } from './usage-error.ts';

export interface CertifyOptions {
  config?: string;
  /** The deployment certified, when the configuration leaves it out or names another (also CONFORMANCE_TARGET). */
  target?: string;
  vendor?: string;
  product?: string;
  productVersion?: string;
  service?: string[];
  key?: string;
  out: string;
  seed?: string;
  runs?: string;
  rate?: string;
  concurrency?: string;
  timeout?: string;
  ca?: string;
  insecure?: boolean;
  /** Send the bounded burst that meets the target's throttle; default: on when principals.throttled is configured. */
  probeThrottling?: boolean;
  // Options of `run` that the certification profile refuses (accepted only to say why).
  rule?: unknown;
  shard?: unknown;
  baseline?: unknown;
  profile?: unknown;
}

/** A file-system-safe name part. */
function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}

/** Why a certificate is not conformant, one line each: the profile, failed rules, rules not judged. */
function notConformantBecause(m: Manifest): string[] {
  const f = m.findings;
  const some = (ids: string[]) => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
  return [
    ...m.profile.problems.map((p) => `  profile incomplete: ${p}`),
    ...(
      [
        ['failed', f.failed.filter((r) => gates(r.level))],
        ['MAY rules not met (they do not decide the verdict)', f.failed.filter((r) => !gates(r.level))],
      ] as const
    ).flatMap(([what, rules]) =>
      rules.length ? [`  ${what}: ${rules.length} rules (${some(rules.map((r) => r.id))})`] : [],
    ),
    ...(f.notJudged.length
      ? [
          `  not judged: ${f.notJudged.length} testable MUST/SHOULD rules (${some(f.notJudged.map((r) => r.id))}); a certificate claims only what was judged`,
          ...f.throttling.notJudged.slice(0, 1).map((r) => `  the 429 rules: ${r.reason}`),
        ]
      : []),
  ];
}

/** `conformance certify`: runs the certification profile and writes a signed evidence bundle; returns the exit code. */
export async function certifyCommand(opts: CertifyOptions): Promise<number> {
  for (const k of Object.keys(FORBIDDEN_OPTIONS))
    if (opts[k as keyof CertifyOptions] !== undefined)
      throw new UsageError(`--${k} is not allowed: ${FORBIDDEN_OPTIONS[k]}`);
  for (const [flag, v] of [
    ['--vendor', opts.vendor],
    ['--product', opts.product],
    ['--product-version', opts.productVersion],
  ] as const)
    if (!v?.trim()) throw new UsageError(`certify needs ${flag}`);
  if (opts.runs !== undefined && !(Number(opts.runs) >= MIN_RUNS))
    throw new UsageError(
      `--runs takes ${MIN_RUNS} or more in certification (the default of a run), not "${opts.runs}"`,
    );
  const services = resolveServices(opts.service);
  const source = loadRunConfig(opts.config, process.env, opts.target);
  if (!source) throw new UsageError(`certify needs --config (or ${CONFIG_ENV} holding the configuration)`);
  const config = source.config;
  if (opts.runs === undefined && config.options?.runs !== undefined && config.options.runs < MIN_RUNS)
    throw new UsageError(
      `${source.origin}: options.runs is ${config.options.runs}; certification runs at least ${MIN_RUNS} per property (remove it or pass --runs)`,
    );
  const missing = new Map<string, { what: string; services: string[] }>();
  for (const m of missingRequirements(config, services)) {
    const seen = missing.get(m.path) ?? { what: m.what, services: [] };
    seen.services.push(m.service);
    missing.set(m.path, seen);
  }
  if (missing.size) {
    throw new UsageError(
      `${source.origin}: certification judges every testable MUST and SHOULD rule of ${services.join(', ')}, and ${missing.size} of what they need ${missing.size === 1 ? 'is' : 'are'} not configured:\n${[
        ...missing,
      ]
        .map(([path, m]) => `  - ${path}: ${m.what} (${m.services.join(', ')})`)
        .join('\n')}\n(see "Testing your deployment" in the README for each key)`,
    );
  }
  const key = opts.key
    ? {
        ...(await readKeyFile(opts.key, true).catch((e: Error) =>
          Promise.reject(new UsageError(`--key ${e.message}`)),
        )),
        origin: 'given' as const,
      }
    : { ...(await generateSigningKey()), origin: 'ephemeral' as const };

  // The 429 rules are judged on a burst sent as the throttled principal (the client the target
  // throttles, so the rest of the run is not); without one, only on throttling met by chance.
  const probeThrottling = opts.probeThrottling ?? !!config.principals?.throttled;
  if (probeThrottling && !config.principals?.throttled)
    throw new UsageError(
      `${source.origin}: --probe-throttling sends its burst as principals.throttled (a client the target throttles), which is not configured`,
    );

  const out = resolve(opts.out);
  const dir = join(out, `${slug(opts.vendor!)}-${slug(opts.product!)}-${slug(opts.productVersion!)}`);
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.tar.gz`, { force: true });
  mkdirSync(dir, { recursive: true });
  process.stdout.write(
    `conformance certify — ${opts.vendor} ${opts.product} ${opts.productVersion}; services: ${services.map((s) => `${SERVICE_INFO[s].title} ${SERVICE_INFO[s].version}`).join(', ')}\n`,
  );
  const code = await runCommand({
    config: opts.config,
    target: opts.target,
    service: services,
    seed: opts.seed,
    runs: opts.runs,
    rate: opts.rate,
    concurrency: opts.concurrency,
    timeout: opts.timeout,
    ca: opts.ca,
    insecure: opts.insecure,
    probeThrottling,
    profile: 'full',
    reportDir: dir,
  });
  // Interrupted by a signal: no bundle of a partial run. A target that stopped answering is evidence
  // like a failed rule (the bundle says NOT CONFORMANT).
  if (code !== EXIT.passed && code !== EXIT.failed && code !== EXIT.unresponsive) return code;
  if (!existsSync(join(dir, 'conformance-report.json'))) return EXIT.failed;
  const bundle = await writeBundle(
    dir,
    { vendor: opts.vendor!, product: opts.product!, productVersion: opts.productVersion!, services },
    key,
  );
  const m = bundle.manifest;
  process.stdout.write(
    [
      '',
      `certification: ${m.verdict.toUpperCase()}`,
      ...notConformantBecause(m),
      `  bundle:  ${bundle.dir}/`,
      `  archive: ${bundle.archive}`,
      `  bundle hash: ${m.bundleHash}`,
      `  signed with key ${m.key.thumbprint}${key.origin === 'ephemeral' ? ' (made for this bundle: pass --key, from `conformance keygen`, so that others can check who signed it)' : ''}`,
      `  check it with: npx conformance verify ${bundle.archive}${key.origin === 'given' ? ' --key PUBLIC.jwk' : ''}`,
      '',
    ].join('\n'),
  );
  return m.verdict === 'conformant' ? EXIT.passed : EXIT.failed;
}
