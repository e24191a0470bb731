import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { sha256, type Manifest } from '../certification/manifest.ts';
import { readKeyFile } from '../certification/signing-key.ts';
import { tarGz, untarGz } from '../certification/tar-archive.ts';
import { writeBundle } from '../certification/write-bundle.ts';
import type { Har } from '../suites/engine/har.ts';
import { runCli, startCli, type CliResult, type CliServer } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

const FAULT = 'access-token-not-a-jwt';
const BROKEN_RULE = 'technical-token-manager/access-token/access-token-jwt';
const BUNDLE = 'acme-corp-acme-platform-2.1.0';

/** `conformance serve`, and the configuration its --write-config wrote: what a vendor certifies first. */
let served: CliServer;
let servedConfig: RunConfig;
let faulty: RunningReference;
/** A deployment that throttles no client: the 429 rules cannot be judged against it. */
let unthrottled: RunningReference;
const dir = tempDir('certify');
const keys = join(dir, 'keys');
const privateKey = join(keys, 'conformance-signing-key.private.jwk');
const publicKey = join(keys, 'conformance-signing-key.public.jwk');
const out = join(dir, 'out');
const bundle = join(out, BUNDLE);

function writeConfig(name: string, base: RunConfig, mutate: (c: RunConfig) => void = () => {}) {
  const c = structuredClone(base);
  mutate(c);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

const certify = (config: string, extra: string[] = []) =>
  runCli(
    [
      'certify',
      '--config',
      config,
      '--vendor',
      'Acme Corp',
      '--product',
      'Acme Platform',
      '--product-version',
      '2.1.0',
      '--key',
      privateKey,
      '--seed',
      '7',
      ...extra,
    ],
    { timeoutMs: 400_000 },
  );

const verify = (path: string, key: string | null = publicKey) =>
  runCli(['verify', path, ...(key ? ['--key', key] : [])], { timeoutMs: 60_000 });

/** A copy of the good bundle, changed by `tamper`. */
function tampered(name: string, tamper: (copy: string) => void): string {
  const copy = join(dir, 'tampered', name, BUNDLE);
  cpSync(bundle, copy, { recursive: true });
  tamper(copy);
  return copy;
}

const configOf = (deployment: RunningReference) => referenceRunConfig(deployment, deployment.baseUrl);

let certified: CliResult;
let faultCertified: CliResult;
let quietCertified: CliResult;
let ruleRun: CliResult;
const faultOut = join(dir, 'fault-out');
const quietOut = join(dir, 'unthrottled-out');
const ruleRunDir = join(dir, 'rule-run', BUNDLE);

// The deployments, the key, and every certify and run the tests read, made once: side by side,
// since each waits on a deployment (and the throttling probe on its bursts) as much as it computes.
beforeAll(async () => {
  // serve throttles the client its configuration names principals.throttled: certify probes with it.
  const file = join(dir, 'served.json');
  let k: CliResult;
  [served, k] = await Promise.all([
    startCli(
      ['serve', '--port', '0', '--write-config', file],
      /listening on (http:\/\/\S+)[\s\S]*Run configuration written/,
    ),
    runCli(['keygen', '--out', keys]),
  ]);
  expect(k.code).toBe(0);
  expect(k.stdout).toMatch(/thumbprint: +\S{43}/);
  servedConfig = JSON.parse(readFileSync(file, 'utf8')) as RunConfig;
  faulty = await startReference({ port: 0, faults: [FAULT] });
  unthrottled = await startReference({ port: 0 });
  const reference = writeConfig('reference.json', servedConfig);
  const ttm = ['--service', 'technical-token-manager'];
  [certified, faultCertified, quietCertified, ruleRun] = await Promise.all([
    certify(reference, ['--out', out]),
    certify(writeConfig('faulty.json', configOf(faulty)), ['--out', faultOut, ...ttm]),
    certify(writeConfig('unthrottled.json', configOf(unthrottled)), ['--out', quietOut, ...ttm]),
    runCli(
      [
        'run',
        '--config',
        reference,
        ...ttm,
        '--rule',
        'technical-token-manager/access-token/*',
        '--report-dir',
        ruleRunDir,
      ],
      { timeoutMs: 400_000 },
    ),
  ]);
}, 600_000);
afterAll(async () => {
  await served?.stop();
  await faulty?.close();
  await unthrottled?.close();
});

describe('conformance certify against the reference deployment', () => {
  it('writes a bundle whose certificate says conformant, and exits 0', async () => {
    expect(certified.stderr).toBe('');
    expect(certified.stdout).toContain('certification: CONFORMANT');
    expect(certified.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.verdict).toBe('conformant');
    expect(manifest.services).toEqual(['technical-token-manager', 'notification', 'event-management']);
    expect(Object.keys(manifest.files).sort()).toEqual(
      expect.arrayContaining([
        'certificate.html',
        'conformance-report.json',
        'exchanges.har',
        'junit.xml',
        'public-key.jwk',
        'report.html',
      ]),
    );
    expect(manifest.profile).toMatchObject({ name: 'certification', complete: true, problems: [] });
    // principals.throttled is configured, so certify probes throttling and judges the 429 rules.
    expect(manifest.profile.options.probeThrottling).toBe(true);
    const report = JSON.parse(readFileSync(join(bundle, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    for (const id of THROTTLE_RULES) expect(report.rules.find((r) => r.id === id)?.status, id).toBe('passed');
    expect(manifest.findings).toMatchObject({
      failed: [],
      notJudged: [],
      plainHttp: true,
      throttling: { probed: true, judged: [...THROTTLE_RULES], notJudged: [] },
    });
    expect(manifest.findings.untestable.length).toBeGreaterThan(0);
    const certificate = readFileSync(join(bundle, 'certificate.html'), 'utf8');
    expect(certificate).toContain('CONFORMANT');
    expect(certificate).toContain('the target throttled it, and the 429 rules were judged (3 of 3)');
    expect(certificate).toContain('plain HTTP (on this machine)');
    expect(certificate).toContain('MUST rules not testable from outside');
    expect(certificate).toContain(manifest.bundleHash);
    // Neither the private key nor any secret of the configuration enters the bundle.
    const jwk = JSON.parse(readFileSync(privateKey, 'utf8')) as { d: string };
    const config = servedConfig;
    const secrets = [
      jwk.d,
      config.tokenManager!.clientSecret,
      ...Object.values(config.principals!.withoutScope!).map((p) => (p as { clientSecret: string }).clientSecret),
    ];
    for (const [name, content] of await untarGz(readFileSync(`${bundle}.tar.gz`)))
      for (const secret of secrets) expect(content.toString('utf8'), name).not.toContain(secret);
  });

  it('gives a bundle that verify accepts, as a directory and as its .tar.gz', async () => {
    for (const path of [bundle, `${bundle}.tar.gz`]) {
      const res = await verify(path);
      expect(res.stdout).toContain('VALID');
      expect(res.stdout).toContain('certification profile complete');
      expect(res.stdout).toMatch(
        /✓ \d+ passive rules re-judged from the \d+ exchanges of exchanges.har: none contradicts the report/,
      );
      expect(res.code).toBe(0);
    }
    const unkeyed = await verify(bundle, null);
    expect(unkeyed.code).toBe(0);
    expect(unkeyed.stdout).toContain('the signer was not checked against a known key');
  });

  it('refuses a report whose status was changed', async () => {
    const copy = tampered('status', (c) => {
      const file = join(c, 'conformance-report.json');
      const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
      const rule = report.rules.find((r) => r.status === 'passed')!;
      rule.status = 'failed';
      writeFileSync(file, JSON.stringify(report, null, 2));
    });
    const res = await verify(copy);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('conformance-report.json was changed');
    expect(res.stdout).toMatch(/the report says passed, but its rules make it failed/);

    // The manifest brought in line with the changed report no longer matches its signature.
    const manifestFile = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    manifest.files['conformance-report.json'] = sha256(readFileSync(join(copy, 'conformance-report.json')));
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    const resealed = await verify(copy);
    expect(resealed.code).toBe(1);
    expect(resealed.stdout).toContain('manifest.jws signs another manifest than manifest.json');
    expect(resealed.stdout).not.toContain('conformance-report.json was changed');
  });

  it('refuses a HAR with an entry removed, and one with an entry edited before the bundle was signed', async () => {
    const removed = tampered('har-removed', (c) => {
      const file = join(c, 'exchanges.har');
      const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
      har.log.entries.splice(0, 1);
      writeFileSync(file, JSON.stringify(har));
    });
    const res = await verify(removed);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('exchanges.har was changed');

    // Whoever holds the key edits the evidence and signs the result: every hash holds, and the
    // passive rules re-judged from the edited traffic no longer agree with the report.
    const edited = join(dir, 'tampered', 'har-edited', BUNDLE);
    cpSync(bundle, edited, { recursive: true });
    for (const f of ['manifest.json', 'manifest.jws', 'certificate.html', 'public-key.jwk']) rmSync(join(edited, f));
    const file = join(edited, 'exchanges.har');
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    const refused = har.log.entries.filter(
      (e) =>
        e.request.url.includes('/api/eventmanagement/v3/') &&
        !e.request.headers.some((h) => h.name.toLowerCase() === 'authorization') &&
        e.response.status === 401,
    );
    expect(refused.length).toBeGreaterThan(0);
    refused[0].response.status = 200;
    writeFileSync(file, JSON.stringify(har));
    const key = await readKeyFile(privateKey, true);
    await writeBundle(
      edited,
      {
        vendor: 'Acme Corp',
        product: 'Acme Platform',
        productVersion: '2.1.0',
        services: ['technical-token-manager', 'notification', 'event-management'],
      },
      { ...key, origin: 'given' },
    );
    const resigned = await verify(edited);
    expect(resigned.code).toBe(1);
    expect(resigned.stdout).toContain(
      'event-management/auth/unauthorized-401: the report says passed, but re-judged from exchanges.har it is failed',
    );
    expect(resigned.stdout).not.toContain('was changed');
  });

  it('refuses a file with one byte changed', async () => {
    const copy = tampered('byte', (c) => {
      const file = join(c, 'report.html');
      const b = readFileSync(file);
      b[100] ^= 1;
      writeFileSync(file, b);
    });
    const res = await verify(copy);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('report.html was changed');
  });

  it('refuses a bundle with a file removed', async () => {
    const copy = tampered('removed', (c) => rmSync(join(c, 'junit.xml')));
    const res = await verify(copy);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('junit.xml is listed in the manifest but missing from the bundle');
  });

  it('refuses a changed file inside the .tar.gz', async () => {
    const files = await untarGz(readFileSync(`${bundle}.tar.gz`));
    const name = `${BUNDLE}/junit.xml`;
    files.set(name, Buffer.concat([files.get(name)!, Buffer.from('\n')]));
    const archive = join(dir, 'tampered', 'archive.tar.gz');
    writeFileSync(archive, await tarGz([...files]));
    const res = await verify(archive);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('junit.xml was changed');
  });

  it('refuses a bundle checked against another key, and one re-signed with another key', async () => {
    const other = join(dir, 'other-keys');
    await runCli(['keygen', '--out', other]);
    const otherPublic = join(other, 'conformance-signing-key.public.jwk');
    const res = await verify(bundle, otherPublic);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/the bundle is signed with key \S+, not with the given key \S+/);

    // Someone edits the report and signs the result with a key of their own.
    const copy = join(dir, 'tampered', 'resigned', BUNDLE);
    cpSync(bundle, copy, { recursive: true });
    for (const f of ['manifest.json', 'manifest.jws', 'certificate.html', 'public-key.jwk']) rmSync(join(copy, f));
    const file = join(copy, 'conformance-report.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
    report.target = 'https://someone-else.example.com';
    writeFileSync(file, JSON.stringify(report, null, 2));
    const key = await readKeyFile(join(other, 'conformance-signing-key.private.jwk'), true);
    await writeBundle(
      copy,
      { vendor: 'Acme Corp', product: 'Acme Platform', productVersion: '2.1.0', services: ['technical-token-manager'] },
      { ...key, origin: 'given' },
    );
    const resigned = await verify(copy);
    expect(resigned.code).toBe(1);
    expect(resigned.stdout).toContain('not with the given key');
  });

  it('refuses a bundle of a run made with --rule, naming the incomplete profile', async () => {
    const runDir = ruleRunDir;
    expect(ruleRun.code).toBe(0);
    const key = await readKeyFile(privateKey, true);
    const written = await writeBundle(
      runDir,
      { vendor: 'Acme Corp', product: 'Acme Platform', productVersion: '2.1.0', services: ['technical-token-manager'] },
      { ...key, origin: 'given' },
    );
    expect(written.manifest.verdict).toBe('not conformant');
    const res = await verify(runDir);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      'profile incomplete: the run selected rules (--rule technical-token-manager/access-token/*)',
    );
    expect(res.stdout).toMatch(/profile incomplete: \d+ testable MUST\/SHOULD rules are not in the report/);
  });

  it('compares the reference with a fault variant: the broken rule newly failed, exit 1', async () => {
    const res = faultCertified;
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('certification: NOT CONFORMANT');
    const faultBundle = join(faultOut, BUNDLE);
    expect(readFileSync(join(faultBundle, 'certificate.html'), 'utf8')).toContain('NOT CONFORMANT');
    // Not conformant, and still authentic.
    const checked = await verify(`${faultBundle}.tar.gz`);
    expect(checked.stdout).toContain('certificate says: NOT CONFORMANT');
    expect(checked.stdout).toContain('VALID');
    expect(checked.code).toBe(0);

    const compared = await runCli(['compare', join(bundle, 'conformance-report.json'), `${faultBundle}.tar.gz`]);
    expect(compared.code).toBe(1);
    const newlyFailed = compared.stdout.split('### Newly failed')[1]?.split('###')[0] ?? '';
    expect(newlyFailed).toContain(`\`${BROKEN_RULE}\``);
    expect(compared.stdout).toMatch(/^## ❌ Conformance compared: \d+ newly failed/);

    const same = await runCli(['compare', bundle, `${bundle}.tar.gz`]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('0 newly failed, 0 newly passed, 0 newly warned');
  });
});

describe('conformance certify against a deployment that throttles nothing', () => {
  it('is not conformant, and the certificate and the console say which rules were not judged and why', async () => {
    const res = quietCertified;
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('certification: NOT CONFORMANT');
    const rule = 'technical-token-manager/throttling/too-many-requests';
    expect(res.stdout).toContain(
      `not judged: 1 testable MUST/SHOULD rules (${rule}); a certificate claims only what was judged`,
    );
    expect(res.stdout).toMatch(
      /the 429 rules: the target throttled no token manager request: the probe sent 120 requests as principals.throttled over [\d.]+ s/,
    );
    const quietBundle = join(quietOut, BUNDLE);
    const manifest = JSON.parse(readFileSync(join(quietBundle, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.verdict).toBe('not conformant');
    expect(manifest.profile.problems).toEqual([]);
    expect(manifest.findings.failed).toEqual([]);
    expect(manifest.findings.notJudged).toEqual([
      { id: rule, level: 'MUST', status: 'skipped', reason: expect.stringMatching(/^the target throttled no/) },
    ]);
    expect(manifest.findings.throttling).toMatchObject({ probed: true, judged: [], notJudged: [{ id: rule }] });
    const certificate = readFileSync(join(quietBundle, 'certificate.html'), 'utf8');
    expect(certificate).toContain('NOT CONFORMANT');
    expect(certificate).toContain('probed with bursts as the throttled principal: 1 of 1 429 rules not judged');
    expect(certificate).not.toMatch(/429 rules were judged/);
    // verify re-derives the verdict: the bundle is authentic, and what it says is not conformant.
    const checked = await verify(quietBundle);
    expect(checked.stdout).toContain('certificate says: NOT CONFORMANT');
    expect(checked.code).toBe(0);
  });
});

describe('conformance keygen', () => {
  it('writes the private key readable by its owner only, and never overwrites a key', async () => {
    expect(statSync(privateKey).mode & 0o077).toBe(0);
    const again = await runCli(['keygen', '--out', keys]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('keygen never overwrites a key');
  });
});

describe('conformance certify refuses to start', () => {
  it('naming each principal and fixture the configuration lacks', async () => {
    const config = writeConfig('partial.json', servedConfig, (c) => {
      delete c.principals!.otherTenant;
      delete c.principals!.withoutScope!['em.c'];
      delete (c.fixtures!.eventManagement as Record<string, unknown>).entityIds;
      delete (c.fixtures!.notification as Record<string, unknown>).paramTypeId;
    });
    const fewRuns = writeConfig('few-runs.json', servedConfig, (c) => {
      c.options = { runs: 5 };
    });
    // Each refusal comes before anything is sent: the three side by side.
    const [res, ttm, few] = await Promise.all([
      certify(config, ['--out', join(dir, 'never')]),
      certify(config, ['--out', join(dir, 'never'), '--service', 'technical-token-manager', '--runs', '1']),
      certify(fewRuns, ['--out', join(dir, 'never')]),
    ]);
    expect(res.code).toBe(2);
    for (const piece of [
      'principals.otherTenant',
      'principals.withoutScope["em.c"]',
      'fixtures.eventManagement.entityIds',
      'fixtures.notification.paramTypeId',
    ])
      expect(res.stderr).toContain(`  - ${piece}:`);
    expect(res.stdout).not.toContain('conformance run');
    expect(ttm.code).toBe(2);
    expect(ttm.stderr).toContain('--runs takes 25 or more');
    expect(few.code).toBe(2);
    expect(few.stderr).toContain('options.runs is 5; certification runs at least 25 per property');
  });

  it('with --rule, --shard, --baseline or --profile', async () => {
    const config = join(dir, 'reference.json');
    const flags = [
      ['--rule', 'technical-token-manager/*'],
      ['--shard', '1/2'],
      ['--baseline', 'known.json'],
      ['--profile', 'read-only'],
    ];
    const refused = await Promise.all(
      flags.map(([flag, value]) => certify(config, [flag, value, '--out', join(dir, 'never')])),
    );
    for (const [i, res] of refused.entries()) {
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`${flags[i][0]} is not allowed`);
    }
  });
});
