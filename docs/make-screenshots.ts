/**
 * Makes the README's two pictures from real runs: `docs/report.png`, the HTML report of a run
 * against the reference deployment with two fault variants on, and `docs/certificate.png`, the
 * certificate of a certification run against the conformant reference. Run it with
 * `npx tsx docs/make-screenshots.ts` (needs Debian's Chromium at /usr/bin/chromium, or CHROMIUM_PATH).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { referenceRunConfig, THROTTLED_CLIENTS } from '../cli/reference-config.ts';
import { startReference } from '../fixtures/reference/server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The fault variants of the report's run, one broken rule each (the README's alt text counts them). */
export const REPORT_FAULTS = ['jti-repeated', 'sixth-user-tenant-accepted'];

/** Runs `conformance …` as a child process; asynchronous, since the reference answers from this process. */
function conformance(args: string[], cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/conformance.js'), ...args], {
      cwd,
      env: { ...process.env, GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', resolve);
  });
}

async function screenshot(html: string, png: string, viewport: { width: number; height: number }, fullPage: boolean) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(pathToFileURL(html).href);
    await page.screenshot({ path: png, fullPage });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'conformance-screenshots-'));
  try {
    // The report: the token manager's rules against a deployment that breaks two of them.
    const faulty = await startReference({ port: 0, faults: REPORT_FAULTS });
    try {
      writeFileSync(join(work, 'run.json'), JSON.stringify(referenceRunConfig(faulty, faulty.baseUrl)));
      const code = await conformance(
        ['run', '--config', 'run.json', '--service', 'technical-token-manager', '--seed', '9', '--reporter', 'quiet'],
        work,
      );
      if (code !== 1) throw new Error(`the run against ${REPORT_FAULTS.join(', ')} exited ${code}, not 1`);
    } finally {
      await faulty.close();
    }
    await screenshot(
      join(work, 'conformance-report', 'report.html'),
      join(root, 'docs', 'report.png'),
      { width: 1280, height: 860 },
      false,
    );

    // The certificate: every service, the certification profile, throttling probed.
    const reference = await startReference({ port: 0, throttle: 8, throttledClients: THROTTLED_CLIENTS });
    try {
      writeFileSync(join(work, 'certify.json'), JSON.stringify(referenceRunConfig(reference, reference.baseUrl)));
      if ((await conformance(['keygen', '--out', 'keys'], work)) !== 0) throw new Error('keygen failed');
      const code = await conformance(
        [
          'certify',
          '--config',
          'certify.json',
          '--vendor',
          'Acme Corp',
          '--product',
          'Acme Platform',
          '--product-version',
          '2.1.0',
          '--key',
          'keys/conformance-signing-key.private.jwk',
          '--seed',
          '1',
          '--out',
          'bundles',
        ],
        work,
      );
      if (code !== 0) throw new Error(`certify against the reference exited ${code}, not 0`);
    } finally {
      await reference.close();
    }
    const bundle = readdirSync(join(work, 'bundles'), { withFileTypes: true }).find((e) => e.isDirectory());
    if (!bundle) throw new Error('certify wrote no bundle directory');
    await screenshot(
      join(work, 'bundles', bundle.name, 'certificate.html'),
      join(root, 'docs', 'certificate.png'),
      { width: 794, height: 1100 },
      true,
    );
    process.stdout.write('wrote docs/report.png and docs/certificate.png\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) await main();
