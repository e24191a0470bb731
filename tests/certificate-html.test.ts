import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { certificateHtml, type CertificateFacts } from '../certification/certificate-html.ts';
import { contractDigests } from '../certification/manifest.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

const facts = (over: Partial<CertificateFacts> = {}): CertificateFacts => ({
  tool: { name: 'platform-conformance', version: '0.1.0' },
  contracts: contractDigests(),
  runtime: { node: 'v20.19.0', os: 'Linux 6.1 x64' },
  target: 'https://staging.example.com',
  vendor: 'Acme <Corp>',
  product: 'Acme Platform',
  productVersion: '2.1.0',
  services: ['technical-token-manager', 'notification'],
  seed: 7,
  startedAt: '2026-11-21T10:00:00.000Z',
  finishedAt: '2026-11-21T10:00:18.000Z',
  profile: { name: 'certification', options: {}, complete: true, problems: [] },
  verdict: 'conformant',
  counts: {
    'technical-token-manager': { passed: 47, failed: 0, observed: 8, skipped: 6, 'not-exercised': 0 },
    notification: { passed: 153, failed: 0, observed: 14, skipped: 10, 'not-exercised': 0 },
  },
  key: { thumbprint: '4042xRhh09u8zYyrlJuRNqqGsAkl-ksrnoauYdIHd7c', jwk: {}, origin: 'given' },
  bundleHash: `sha256:${'ab'.repeat(32)}`,
  ...over,
});

describe.skipIf(!hasChromium)('certificate.html in a real browser', () => {
  let browser: Browser;
  const errors: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'conformance-certificate-'));

  async function open(f: CertificateFacts): Promise<Page> {
    const file = join(dir, `${f.verdict.replace(' ', '-')}.html`);
    writeFileSync(file, certificateHtml(f));
    const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows who, what, when, the verdict, the counts per service and the bundle hash', async () => {
    const page = await open(facts());
    await expect(page.locator('#vendor').textContent()).resolves.toBe('Acme <Corp>');
    await expect(page.locator('#product').textContent()).resolves.toBe('Acme Platform 2.1.0');
    await expect(page.locator('#services').textContent()).resolves.toBe(
      'Technical Token Manager, Notification Service',
    );
    await expect(page.locator('#date').textContent()).resolves.toBe('2026-11-21');
    await expect(page.locator('#verdict').textContent()).resolves.toBe('CONFORMANT');
    await expect(page.locator('#tool').textContent()).resolves.toBe('platform-conformance 0.1.0');
    await expect(page.locator('#bundle-hash').textContent()).resolves.toBe(`sha256:${'ab'.repeat(32)}`);
    const rows = await page.locator('tr.service').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0].split('\t')).toEqual(['Technical Token Manager', '3.3.0', '47', '0', '8', '6', '0']);
    expect(rows[1].split('\t')).toEqual(['Notification Service', '3.4.1', '153', '0', '14', '10', '0']);
    const color = await page.locator('#verdict').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(color).toBe('rgb(26, 127, 55)');
    expect(errors).toEqual([]);
  });

  it('fits on one printed A4 page', async () => {
    const page = await open(facts());
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(1);
  });

  it('says NOT CONFORMANT in red, with the profile problems', async () => {
    const page = await open(
      facts({
        verdict: 'not conformant',
        profile: { name: 'certification', options: {}, complete: false, problems: ['the run was interrupted'] },
      }),
    );
    await expect(page.locator('#verdict').textContent()).resolves.toBe('NOT CONFORMANT');
    const color = await page.locator('#verdict').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(color).toBe('rgb(207, 34, 46)');
    await expect(page.locator('.problems').textContent()).resolves.toContain('the run was interrupted');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(hasChromium)('certificate.html without a browser', () => {
  it(`needs Chromium at ${CHROMIUM} (Debian package chromium; .ci/run installs it)`, () => {
    expect(hasChromium).toBe(false);
  });
});
