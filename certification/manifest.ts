import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { JWK } from 'jose';
import { contractPath } from '../contracts/catalog.ts';
import { SERVICES, SERVICE_INFO, type ServiceName } from '../contracts/services.ts';
import type { CertificateFindings } from './certificate-findings.ts';

/** Format of the manifest; verify refuses one it does not know. */
export const MANIFEST_FORMAT = 'platform-conformance-certification/2';

/** Files of a bundle that are not evidence: the manifest, its signature and the key that checks it. */
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.jws';
export const PUBLIC_KEY_FILE = 'public-key.jwk';
export const CERTIFICATE_FILE = 'certificate.html';
export const REPORT_FILE = 'conformance-report.json';
export const HAR_FILE = 'exchanges.har';

/** Evidence every bundle must hold. */
export const REQUIRED_FILES = [
  REPORT_FILE,
  HAR_FILE,
  'junit.xml',
  'report.html',
  CERTIFICATE_FILE,
  PUBLIC_KEY_FILE,
] as const;

export type ServiceCounts = Record<string, number>;

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  tool: { name: string; version: string };
  contracts: Record<ServiceName, { version: string; sha256: string }>;
  runtime: { node: string; os: string };
  target: string;
  vendor: string;
  product: string;
  productVersion: string;
  services: ServiceName[];
  seed: number;
  startedAt: string;
  finishedAt: string;
  profile: {
    name: 'certification';
    /** Options of the run as the report records them. */
    options: Record<string, unknown>;
    complete: boolean;
    /** Why it is not complete (empty when complete). */
    problems: string[];
  };
  verdict: 'conformant' | 'not conformant';
  counts: Partial<Record<ServiceName, ServiceCounts>>;
  /** Failed rules, MUST rules not testable from outside, MUST/SHOULD rules not judged, plain HTTP, the 429 rules. */
  findings: CertificateFindings;
  key: { thumbprint: string; jwk: JWK; origin: 'given' | 'ephemeral' };
  /** sha256 of every evidence file (every file but the manifest and its signature). */
  files: Record<string, string>;
  /** sha256 over the evidence files except the certificate (which shows it): see `bundleHash`. */
  bundleHash: string;
}

export function sha256(data: Buffer | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** sha256 of each service's contract (its OpenAPI document, then its rules catalog), as this tool ships them. */
export function contractDigests(): Manifest['contracts'] {
  const out = {} as Manifest['contracts'];
  for (const s of SERVICES) {
    const h = createHash('sha256');
    for (const f of ['openapi.yaml', 'rules.yaml']) h.update(readFileSync(contractPath(s, f)));
    out[s] = { version: SERVICE_INFO[s].version, sha256: `sha256:${h.digest('hex')}` };
  }
  return out;
}

/**
 * The bundle's hash, shown on the certificate: sha256 of the sorted lines "<sha256>  <name>" of
 * every evidence file but the certificate itself (which cannot contain its own hash).
 */
export function bundleHash(files: Record<string, string>): string {
  const lines = Object.keys(files)
    .filter((f) => f !== CERTIFICATE_FILE)
    .sort()
    .map((f) => `${files[f]}  ${f}\n`)
    .join('');
  return sha256(lines);
}

/** Rule counts per status for each service of a report. */
export function countsPerService(
  rules: ReadonlyArray<{ service: string; status: string }>,
  services: readonly ServiceName[],
): Partial<Record<ServiceName, ServiceCounts>> {
  const out: Partial<Record<ServiceName, ServiceCounts>> = {};
  for (const s of services) {
    const c: ServiceCounts = { passed: 0, failed: 0, observed: 0, skipped: 0, 'not-exercised': 0 };
    for (const r of rules) if (r.service === s) c[r.status] = (c[r.status] ?? 0) + 1;
    out[s] = c;
  }
  return out;
}
