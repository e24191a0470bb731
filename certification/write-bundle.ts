import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { arch, release, type } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ServiceName } from '../contracts/services.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { certificateHtml } from './certificate-html.ts';
import { certificateFindings } from './certificate-findings.ts';
import { certifiedVerdict, profileProblems } from './certification-profile.ts';
import {
  bundleHash,
  CERTIFICATE_FILE,
  contractDigests,
  countsPerService,
  HAR_FILE,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  PUBLIC_KEY_FILE,
  REPORT_FILE,
  sha256,
  SIGNATURE_FILE,
  type Manifest,
} from './manifest.ts';
import { signPayload, type KeyPair } from './signing-key.ts';
import { tarGz } from './tar-archive.ts';

/** The run's outputs a bundle keeps; everything else in the run's directory is left out. */
export const EVIDENCE_FILES = [REPORT_FILE, 'junit.xml', 'report.html', 'summary.md', HAR_FILE] as const;

export interface BundleClaims {
  vendor: string;
  product: string;
  productVersion: string;
  services: ServiceName[];
}

export interface WrittenBundle {
  dir: string;
  archive: string;
  manifest: Manifest;
}

/**
 * Turns a run's report directory into a signed bundle: drops what is not evidence, writes the
 * certificate, the public key, `manifest.json` and its JWS `manifest.jws`, then `<dir>.tar.gz`.
 */
export async function writeBundle(
  dir: string,
  claims: BundleClaims,
  key: KeyPair & { origin: 'given' | 'ephemeral' },
): Promise<WrittenBundle> {
  for (const entry of readdirSync(dir)) {
    if (!(EVIDENCE_FILES as readonly string[]).includes(entry))
      rmSync(join(dir, entry), { recursive: true, force: true });
  }
  const report = JSON.parse(readFileSync(join(dir, REPORT_FILE), 'utf8')) as ConformanceReport;
  const problems = profileProblems(report, claims.services);
  writeOutputFile(join(dir, PUBLIC_KEY_FILE), `${JSON.stringify(key.publicJwk, null, 2)}\n`);
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir).sort())
    if (statSync(join(dir, f)).isFile()) files[f] = sha256(readFileSync(join(dir, f)));
  const facts: Omit<Manifest, 'files' | 'format'> = {
    tool: report.tool,
    contracts: contractDigests(),
    runtime: { node: process.version, os: `${type()} ${release()} ${arch()}` },
    target: report.target,
    vendor: claims.vendor,
    product: claims.product,
    productVersion: claims.productVersion,
    services: claims.services,
    seed: report.seed,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    profile: { name: 'certification', options: report.options, complete: problems.length === 0, problems },
    verdict: certifiedVerdict(report, claims.services, problems),
    counts: countsPerService(report.rules, claims.services),
    findings: certificateFindings(report, claims.services),
    key: { thumbprint: key.thumbprint, jwk: key.publicJwk, origin: key.origin },
    bundleHash: bundleHash(files),
  };
  writeOutputFile(join(dir, CERTIFICATE_FILE), certificateHtml(facts));
  files[CERTIFICATE_FILE] = sha256(readFileSync(join(dir, CERTIFICATE_FILE)));
  const manifest: Manifest = { format: MANIFEST_FORMAT, ...facts, files };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeOutputFile(join(dir, MANIFEST_FILE), manifestBytes);
  writeOutputFile(join(dir, SIGNATURE_FILE), `${await signPayload(manifestBytes, key)}\n`);

  const name = basename(dir);
  const entries: Array<[string, Buffer]> = readdirSync(dir)
    .sort()
    .map((f) => [`${name}/${f}`, readFileSync(join(dir, f))]);
  const archive = join(dirname(dir), `${name}.tar.gz`);
  writeOutputFile(archive, await tarGz(entries, new Date(report.finishedAt)));
  return { dir, archive, manifest };
}
