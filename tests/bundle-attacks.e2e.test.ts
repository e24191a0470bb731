import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificateHtml } from '../certification/certificate-html.ts';
import { bundleHash, sha256, type Manifest } from '../certification/manifest.ts';
import { signPayload } from '../certification/signing-key.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { htmlReport } from '../reporters/html-report.ts';
import {
  appendToArchive,
  archiveOf,
  base256,
  END,
  paxRecord,
  rawEntry,
  rawHeader,
  smallSignedBundle,
  type SignedBundle,
} from './crafted-archives.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// The crafted bundles of issue 27: each is refused by `verify` with one line and exit 1.
const dir = tempDir('bundle-attacks');
let genuine: SignedBundle;
let archive: Buffer;
const top = 'acme-bundle';
const forged = '<!doctype html><script>alert(1)</script><div id="verdict">CONFORMANT</div>';

beforeAll(async () => {
  genuine = await smallSignedBundle(dir);
  archive = readFileSync(genuine.archive);
});

const verify = (path: string) => runCli(['verify', path, '--key', genuine.publicKeyFile], { timeoutMs: 60_000 });

/** `verify` refused with exactly one reason, on one line, matching `reason`; no stack trace. */
async function expectRefused(path: string, reason: RegExp): Promise<void> {
  const res = await verify(path);
  expect(res.stderr).toBe('');
  expect(res.stdout).toContain('REFUSED: 1 reason');
  const lines = res.stdout.split('\n').filter((l) => l.startsWith('  ✗ '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(reason);
  expect(res.stdout).not.toMatch(/VALID|\n\s+at /);
  expect(res.code).toBe(1);
}

function write(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

const pax = paxRecord('path', `${top}/certificate.html`);
const archives: ReadonlyArray<[string, () => Buffer, RegExp]> = [
  [
    'a type-7 entry holding another certificate.html',
    () => appendToArchive(archive, [rawEntry({ name: `${top}/certificate.html`, type: '7' }, forged)]),
    /entry at byte \d+ \("acme-bundle\/certificate.html"\) is a contiguous file \(type "7"\)/,
  ],
  [
    'a pax header with a base-256 size, then a file',
    () =>
      appendToArchive(archive, [
        rawEntry({ name: 'PaxHeader', type: 'x', sizeField: base256(pax.length) }, pax),
        rawEntry({ name: `${top}/notes.txt` }, forged),
      ]),
    /entry at byte \d+ is a pax extended header \(type "x"\): a bundle holds regular files only/,
  ],
  [
    'a symbolic link to /etc/passwd',
    () => appendToArchive(archive, [rawEntry({ name: `${top}/passwd`, type: '2', linkname: '/etc/passwd' })]),
    /is a symbolic link \(type "2"\)/,
  ],
  [
    'a hard link to /etc/passwd',
    () => appendToArchive(archive, [rawEntry({ name: `${top}/passwd`, type: '1', linkname: '/etc/passwd' })]),
    /is a hard link \(type "1"\)/,
  ],
  [
    'another certificate.html after the end-of-archive marker',
    () => appendToArchive(archive, [], [rawEntry({ name: `${top}/certificate.html` }, forged), END]),
    /data after the end-of-archive marker/,
  ],
  [
    'a wrong magic',
    () => appendToArchive(archive, [rawEntry({ name: `${top}/x`, magic: 'ustaR\u000000' }, 'x')]),
    /unknown format/,
  ],
  ['a ../ path', () => archiveOf([rawEntry({ name: '../../evil.sh' }, 'x')]), /a "\.\." component/],
  ['an absolute path', () => archiveOf([rawEntry({ name: '/etc/cron.d/evil' }, 'x')]), /an absolute path/],
];

describe('verify refuses a crafted .tar.gz', () => {
  it('the genuine bundle is refused only for its incomplete profile (the attacks below add nothing else)', async () => {
    const res = await verify(genuine.archive);
    expect(res.code).toBe(1);
    expect(res.stdout).not.toMatch(/tar|archive|certificate.html|report.html/);
    expect(res.stdout).toContain('profile incomplete');
  });

  it.each(archives)('%s', async (name, build, reason) => {
    await expectRefused(write(`${name.replace(/\W+/g, '-')}.tar.gz`, build()), reason);
  });

  it('a gzip bomb, in bounded memory (peak RSS under 500 MiB)', async () => {
    // 200 MiB of zeros behind a header: about 200 KB on disk, three times the 64 MiB bound.
    const bomb = join(dir, 'bomb.tar.gz');
    const size = 200 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024);
    async function* blocks() {
      yield rawHeader({ name: `${top}/zeros`, size });
      for (let i = 0; i < size / chunk.length; i++) yield chunk;
    }
    await pipeline(Readable.from(blocks()), createGzip({ level: 9 }), createWriteStream(bomb));
    expect(readFileSync(bomb).length).toBeLessThan(1024 * 1024);

    // The CLI as a user runs it, reporting its own peak resident set size when it exits.
    const rssFile = join(dir, 'rss');
    const reporter = join(dir, 'report-rss.mjs');
    writeFileSync(
      reporter,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
    );
    const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', reporter, join(root, 'bin/conformance.js'), 'verify', bomb, '--key', genuine.publicKeyFile],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/✗ .*the archive unpacks to more than 64 MiB; a bundle is a few MB/);
    expect(res.code).toBe(1);
    const peakMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
    console.log(`verify of a gzip bomb (200 MiB unpacked): peak RSS ${peakMiB.toFixed(0)} MiB`);
    expect(peakMiB).toBeLessThan(500);
  });
});

describe('verify refuses a crafted bundle directory', () => {
  it('with a symbolic link in it', async () => {
    const copy = join(dir, 'with-link', top);
    cpSync(genuine.dir, copy, { recursive: true });
    symlinkSync('/etc/passwd', join(copy, 'passwd'));
    await expectRefused(copy, /"passwd" is a symbolic link/);
  });
});

describe('verify re-renders the pages', () => {
  it('refuses pages saying CONFORMANT where the signed manifest says NOT CONFORMANT, signed by the vendor', async () => {
    // The vendor holds the key: it writes the pages it likes, lists their hashes and signs.
    const b = join(dir, 'forged-pages', top);
    mkdirSync(b, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(genuine.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.verdict).toBe('not conformant');
    const report = JSON.parse(readFileSync(join(genuine.dir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    for (const f of Object.keys(manifest.files)) writeFileSync(join(b, f), readFileSync(join(genuine.dir, f)));
    const page = htmlReport({ ...report, verdict: 'passed', target: 'https://certified.example.com' });
    writeFileSync(join(b, 'report.html'), page);
    manifest.files['report.html'] = sha256(page);
    manifest.bundleHash = bundleHash(manifest.files);
    const { files: _files, format: _format, ...facts } = manifest;
    const certificate = certificateHtml({
      ...facts,
      verdict: 'conformant',
      profile: { ...facts.profile, problems: [] },
    });
    writeFileSync(join(b, 'certificate.html'), certificate);
    manifest.files['certificate.html'] = sha256(certificate);
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(b, 'manifest.json'), bytes);
    writeFileSync(join(b, 'manifest.jws'), `${await signPayload(bytes, genuine.key)}\n`);
    const res = await verify(b);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      '✗ certificate.html is not the certificate this tool renders from the signed manifest.json',
    );
    expect(res.stdout).toContain('✗ report.html is not what this tool renders from conformance-report.json');
    // Signature, hashes and bundle hash all hold: only the pages give the forgery away.
    expect(res.stdout).not.toMatch(/signature|was changed|bundle hash does not follow/);
  });
});
