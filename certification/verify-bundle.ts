import type { JWK } from 'jose';
import { SERVICES, isServiceName, type ServiceName } from '../contracts/services.ts';
import { contractsHash, countRules, gatingFailures, type ConformanceReport } from '../reporters/conformance-report.ts';
import { reportSchemaErrors } from '../reporters/report-schema.ts';
import { certifiedVerdict, profileProblems } from './certification-profile.ts';
import {
  bundleHash,
  CERTIFICATE_FILE,
  HAR_FILE,
  contractDigests,
  countsPerService,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  PUBLIC_KEY_FILE,
  REPORT_FILE,
  REQUIRED_FILES,
  sha256,
  SIGNATURE_FILE,
  type Manifest,
} from './manifest.ts';
import { readBundle } from './read-bundle.ts';
import { certificateHtml } from './certificate-html.ts';
import { certificateFindings } from './certificate-findings.ts';
import { OUTPUTS } from '../reporters/outputs.ts';
import { harStructureErrors } from '../audit/read-har.ts';
import { judgeHar } from '../audit/judge-har.ts';
import { rejudgeDisagreements } from './rejudge.ts';
import type { Har } from '../suites/engine/har.ts';
import { publicPart, thumbprint, verifyPayload } from './signing-key.ts';

export interface Verification {
  /** Every reason the bundle is refused (empty when it is valid). */
  reasons: string[];
  manifest?: Manifest;
  report?: ConformanceReport;
  /** What was checked and held, for the summary. */
  checked: string[];
}

export interface VerifyOptions {
  /** The public JWK the bundle must be signed with. */
  key?: JWK;
  /** This tool's name and version (a bundle of another tool or version is refused). */
  tool: { name: string; version: string };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A page rendered again from the bundle's data, or why it cannot be (data the renderer cannot take). */
function rerender(render: () => string): { bytes?: Buffer; error?: string } {
  try {
    return { bytes: Buffer.from(render()) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function parseJson<T>(files: Map<string, Buffer>, name: string, reasons: string[]): T | undefined {
  const b = files.get(name);
  if (!b) return undefined;
  try {
    return JSON.parse(b.toString('utf8')) as T;
  } catch (e) {
    reasons.push(`${name} is not JSON (${(e as Error).message})`);
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What is missing or of the wrong type in a manifest (empty when its shape is right). */
function shapeProblems(m: unknown): string[] {
  if (!isObject(m)) return ['not an object'];
  const out: string[] = [];
  const need = (field: string, ok: boolean) => {
    if (!ok) out.push(`${field} missing or of the wrong type`);
  };
  for (const f of ['vendor', 'product', 'productVersion', 'target', 'startedAt', 'finishedAt', 'bundleHash', 'verdict'])
    need(f, typeof m[f] === 'string');
  need('seed', typeof m.seed === 'number');
  need('services', Array.isArray(m.services) && m.services.every((s) => typeof s === 'string'));
  need('files', isObject(m.files) && Object.values(m.files).every((h) => typeof h === 'string'));
  need('tool', isObject(m.tool));
  need('contracts', isObject(m.contracts));
  need('counts', isObject(m.counts));
  need(
    'findings',
    isObject(m.findings) &&
      ['failed', 'untestable', 'notJudged'].every((k) => Array.isArray((m.findings as Record<string, unknown>)[k])) &&
      isObject(m.findings.throttling) &&
      ['judged', 'notJudged'].every((k) =>
        Array.isArray(((m.findings as Record<string, unknown>).throttling as Record<string, unknown>)[k]),
      ),
  );
  need('key', isObject(m.key) && typeof m.key.thumbprint === 'string');
  need('profile', isObject(m.profile) && Array.isArray(m.profile.problems));
  return out;
}

/** Checks a bundle offline: signature, key, file hashes, tool and contracts, profile, and that the verdict follows from the evidence. */
export async function verifyBundle(path: string, opts: VerifyOptions): Promise<Verification> {
  const reasons: string[] = [];
  const checked: string[] = [];
  const files = await readBundle(path);

  // 1. The signature over manifest.json, by the bundle's key (and the given one).
  const manifestBytes = files.get(MANIFEST_FILE);
  const jws = files.get(SIGNATURE_FILE)?.toString('utf8');
  const bundleKey = parseJson<JWK>(files, PUBLIC_KEY_FILE, reasons);
  if (!manifestBytes) reasons.push(`${MANIFEST_FILE} is missing`);
  if (!jws) reasons.push(`${SIGNATURE_FILE} (the manifest's signature) is missing`);
  if (!bundleKey && files.has(PUBLIC_KEY_FILE) === false) reasons.push(`${PUBLIC_KEY_FILE} is missing`);
  if (opts.key && bundleKey) {
    const [given, inBundle] = await Promise.all([
      thumbprint(opts.key),
      thumbprint(bundleKey).catch(() => 'unreadable'),
    ]);
    if (given !== inBundle) reasons.push(`the bundle is signed with key ${inBundle}, not with the given key ${given}`);
    else checked.push(`signing key is the given one (thumbprint ${given})`);
  }
  if (manifestBytes && jws && (opts.key ?? bundleKey)) {
    try {
      const payload = await verifyPayload(jws, opts.key ?? bundleKey!);
      if (!payload.equals(manifestBytes))
        reasons.push(`${SIGNATURE_FILE} signs another manifest than ${MANIFEST_FILE}`);
      else checked.push(`signature of ${MANIFEST_FILE} (EdDSA, Ed25519)`);
    } catch (e) {
      reasons.push(
        `the signature of ${MANIFEST_FILE} does not verify${opts.key ? ' with the given key' : ''} (${(e as Error).message})`,
      );
    }
  }
  const manifest = parseJson<Manifest>(files, MANIFEST_FILE, reasons);
  if (!manifest) return { reasons, checked };
  const malformed = shapeProblems(manifest);
  if (malformed.length) {
    reasons.push(`${MANIFEST_FILE} is not a certification manifest: ${malformed.join('; ')}`);
    return { reasons, checked };
  }
  if (manifest.format !== MANIFEST_FORMAT) reasons.push(`unknown manifest format ${String(manifest.format)}`);
  if (bundleKey && manifest.key?.thumbprint !== (await thumbprint(bundleKey).catch(() => '')))
    reasons.push(`the manifest names key ${manifest.key?.thumbprint}, but ${PUBLIC_KEY_FILE} holds another`);
  if (bundleKey && !same(publicPart(bundleKey), publicPart(manifest.key?.jwk ?? {})))
    reasons.push(`the manifest's public key differs from ${PUBLIC_KEY_FILE}`);

  // 2. Every file's hash; no file missing, none added.
  const listed = manifest.files ?? {};
  let bad = 0;
  for (const [name, hash] of Object.entries(listed)) {
    const b = files.get(name);
    if (!b) reasons.push(`${name} is listed in the manifest but missing from the bundle`);
    else if (sha256(b) !== hash) reasons.push(`${name} was changed: its sha256 is not the one in the manifest`);
    else continue;
    bad++;
  }
  for (const name of files.keys())
    if (name !== MANIFEST_FILE && name !== SIGNATURE_FILE && !(name in listed))
      reasons.push(`${name} is in the bundle but not in the manifest`);
  for (const f of REQUIRED_FILES) if (!(f in listed)) reasons.push(`the manifest lists no ${f}`);
  if (!bad) checked.push(`sha256 of all ${Object.keys(listed).length} files`);
  if (bundleHash(listed) !== manifest.bundleHash) reasons.push('the bundle hash does not follow from the file hashes');
  const certificate = files.get(CERTIFICATE_FILE);
  if (certificate) {
    // The page a reader sees must say what the signed manifest says, not merely be signed.
    const rendered = rerender(() => {
      const { files: _files, format: _format, ...facts } = manifest;
      return certificateHtml(facts);
    });
    if (rendered.error)
      reasons.push(`${CERTIFICATE_FILE} cannot be rendered again from ${MANIFEST_FILE} (${rendered.error})`);
    else if (!certificate.equals(rendered.bytes!))
      reasons.push(`${CERTIFICATE_FILE} is not the certificate this tool renders from the signed ${MANIFEST_FILE}`);
    else checked.push(`${CERTIFICATE_FILE} is the certificate rendered from ${MANIFEST_FILE}`);
  }

  let har: Har | undefined;
  const harBytes = files.get(HAR_FILE);
  if (harBytes && HAR_FILE in listed) {
    let value: unknown;
    try {
      value = JSON.parse(harBytes.toString('utf8'));
    } catch (e) {
      reasons.push(`${HAR_FILE} is not JSON (${(e as Error).message})`);
    }
    if (value !== undefined) {
      const problems = harStructureErrors(value);
      if (problems.length) reasons.push(`${HAR_FILE} is not a HAR 1.2 log: ${problems.slice(0, 3).join('; ')}`);
      else har = value as Har;
    }
  }

  // 3. Tool and contracts: the ones this tool is and ships.
  if (manifest.tool?.name !== opts.tool.name || manifest.tool?.version !== opts.tool.version)
    reasons.push(
      `made by ${manifest.tool?.name} ${manifest.tool?.version}; this is ${opts.tool.name} ${opts.tool.version} (verify with the version that made it)`,
    );
  const ours = contractDigests();
  const services = (manifest.services ?? []).filter((s): s is ServiceName => isServiceName(s));
  if (!services.length || services.length !== (manifest.services ?? []).length)
    reasons.push(`the claimed services are not known: ${JSON.stringify(manifest.services)}`);
  for (const s of SERVICES) {
    const theirs = manifest.contracts?.[s];
    if (!theirs) reasons.push(`the manifest names no contract of ${s}`);
    else if (theirs.version !== ours[s].version || theirs.sha256 !== ours[s].sha256)
      reasons.push(
        `contract of ${s} ${theirs.version} (${theirs.sha256}) is not the one this tool ships (${ours[s].version}, ${ours[s].sha256})`,
      );
  }
  if (!reasons.some((r) => r.startsWith('made by') || r.startsWith('contract of')))
    checked.push(
      `tool ${opts.tool.name} ${opts.tool.version}; contracts ${SERVICES.map((s) => `${s} ${ours[s].version}`).join(', ')}`,
    );

  // 4. The report: the profile complete, the verdict and the manifest's claims following from it.
  const report = parseJson<ConformanceReport>(files, REPORT_FILE, reasons);
  if (!report) {
    if (!files.has(REPORT_FILE)) reasons.push(`${REPORT_FILE} is missing`);
    return { reasons, checked, manifest };
  }
  if (!isObject(report) || !Array.isArray(report.rules) || !isObject(report.options)) {
    reasons.push(`${REPORT_FILE} is not a conformance report (no rules or options)`);
    return { reasons, checked, manifest };
  }
  const schemaErrors = reportSchemaErrors(report);
  if (schemaErrors.length) reasons.push(`${REPORT_FILE} does not follow the report schema: ${schemaErrors.join('; ')}`);
  else checked.push(`${REPORT_FILE} follows the report schema`);
  if (!schemaErrors.length) {
    // Every page and file a run writes from its report is rendered again from the signed report.
    const derived: string[] = [];
    for (const { file, render } of OUTPUTS) {
      const inBundle = files.get(file);
      if (!inBundle || !(file in listed)) continue;
      const rendered = rerender(() => render(report));
      if (rendered.error) reasons.push(`${file} cannot be rendered again from ${REPORT_FILE} (${rendered.error})`);
      else if (!inBundle.equals(rendered.bytes!))
        reasons.push(
          file === REPORT_FILE
            ? `${REPORT_FILE} is not byte for byte the JSON this tool writes of it (another layout, or duplicate keys)`
            : `${file} is not what this tool renders from ${REPORT_FILE}`,
        );
      else derived.push(file);
    }
    if (derived.length) checked.push(`${derived.join(', ')} as this tool renders them from ${REPORT_FILE}`);
  }
  if (!same(report.tool, manifest.tool)) reasons.push('the report and the manifest name different tools');
  if (report.contracts?.hash !== contractsHash())
    reasons.push("the report's contracts hash is not the one of the contracts this tool ships");
  for (const k of ['target', 'seed', 'startedAt', 'finishedAt'] as const)
    if (report[k] !== manifest[k]) reasons.push(`the manifest's ${k} differs from the report's`);
  if (!same(report.options, manifest.profile?.options)) reasons.push("the manifest's options differ from the report's");
  // A report that breaks its schema can hold values the judging below does not expect.
  try {
    const problems = profileProblems(report, services);
    for (const p of problems) reasons.push(`profile incomplete: ${p}`);
    if (!problems.length) checked.push(`certification profile complete for ${services.join(', ')}`);
    if (manifest.profile?.complete !== (problems.length === 0) || !same(manifest.profile?.problems, problems))
      reasons.push("the manifest's profile claim does not follow from the report");
    const rules = Array.isArray(report.rules) ? report.rules : [];
    const verdict =
      gatingFailures(rules).length || (report.errors ?? []).length || report.interrupted ? 'failed' : 'passed';
    if (report.verdict !== verdict) reasons.push(`the report says ${report.verdict}, but its rules make it ${verdict}`);
    if (!schemaErrors.length && !same(report.counts, countRules(rules)))
      reasons.push("the report's counts do not follow from its rules");
    // 5. Every passive rule re-judged from the recorded traffic, compared with the report.
    if (har) {
      const { outcomes } = judgeHar(har, services);
      const { contradictions, unsupported } = rejudgeDisagreements(rules, outcomes, services);
      for (const d of contradictions)
        reasons.push(`${d.rule}: the report says ${d.reported}, but re-judged from ${HAR_FILE} it is ${d.rejudged}`);
      if (!contradictions.length)
        checked.push(
          `${Object.keys(outcomes).length} passive rules re-judged from the ${har.log.entries.length} exchanges of ${HAR_FILE}: none contradicts the report${unsupported.length ? ` (${unsupported.length} judged by the run cannot be judged from the traffic alone: ${unsupported.map((d) => d.rule).join(', ')})` : ''}`,
        );
    }
    const certified = certifiedVerdict({ ...report, verdict }, services, problems);
    if (manifest.verdict !== certified)
      reasons.push(`the manifest says ${manifest.verdict}, but the report makes it ${certified}`);
    if (!same(manifest.counts, countsPerService(rules, services)))
      reasons.push("the manifest's counts do not follow from the report");
    if (!same(manifest.findings, certificateFindings(report, services)))
      reasons.push(
        "the manifest's findings (failed rules, MUST and SHOULD rules not judged, plain HTTP, throttling) do not follow from the report",
      );
    if (!reasons.some((r) => /verdict|says|counts/.test(r)))
      checked.push(`verdict "${certified}" follows from the ${rules.length} rule results`);
  } catch (e) {
    reasons.push(`${REPORT_FILE} cannot be judged further (${(e as Error).message})`);
  }
  return { reasons, checked, manifest, report };
}
