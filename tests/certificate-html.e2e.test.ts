import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { certificateHtml, type CertificateFacts } from '../certification/certificate-html.ts';
import { loadRules } from '../contracts/catalog.ts';
import { contractDigests } from '../certification/manifest.ts';
import { certificateFindings } from '../certification/certificate-findings.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { tempDir } from './temp-dir.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

/** The findings of a report with these rule results, as certify derives them (the catalog's untestable MUST rules come along). */
const findingsOf = (
  rules: Array<Partial<ConformanceReport['rules'][number]>>,
  target = 'https://staging.example.com',
  probeThrottling = true,
) =>
  certificateFindings({ target, options: { probeThrottling }, rules } as unknown as ConformanceReport, [
    'technical-token-manager',
    'notification',
  ]);

const failedRule = (i: number) => ({
  id: `notification/recipients/rule-${i}`,
  service: 'notification' as const,
  level: 'MUST' as const,
  status: 'failed' as const,
  failure: { title: `failure number ${i}` } as never,
});

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
  findings: findingsOf([]),
  key: { thumbprint: '4042xRhh09u8zYyrlJuRNqqGsAkl-ksrnoauYdIHd7c', jwk: {}, origin: 'given' },
  bundleHash: `sha256:${'ab'.repeat(32)}`,
  ...over,
});

describe.skipIf(!hasChromium)('certificate.html in a real browser', () => {
  let browser: Browser;
  const errors: string[] = [];
  const dir = tempDir('certificate');

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

  it.each([
    ['conformant', facts()],
    [
      'not conformant, with more failed rules than it lists and MUST rules not judged',
      facts({
        verdict: 'not conformant',
        findings: findingsOf([
          ...Array.from({ length: 14 }, (_, i) => failedRule(i)),
          {
            id: 'notification/limits/throttling-429',
            service: 'notification',
            level: 'MUST',
            status: 'skipped',
            reason: 'the target throttled no notification request during the run',
          },
        ]),
      }),
    ],
  ])('fits on one printed A4 page: %s', async (_, f) => {
    const page = await open(f);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(1);
  });

  it('lists the MUST rules not testable from outside, says HTTPS and that throttling was probed', async () => {
    const page = await open(facts());
    const untestable = await page.locator('#untestable').innerText();
    // The count is the catalog's: testable false on a MUST rule of the claimed services.
    const claimed = loadRules(['technical-token-manager', 'notification']).filter(
      (r) => r.level === 'MUST' && r.testable === false && r.status !== 'retired',
    );
    expect(untestable).toContain(`MUST rules not testable from outside (${claimed.length})`);
    expect(untestable).toContain('notification/publish/from-no-reply-suffix');
    expect(untestable).not.toContain('event-management/');
    await expect(page.locator('#transport').textContent()).resolves.toBe('HTTPS');
    await expect(page.locator('#throttling').textContent()).resolves.toMatch(/^probed/);
    await expect(page.locator('#failed').count()).resolves.toBe(0);
  });

  it('lists the failed rules of a NOT CONFORMANT certificate (the first eight, then how many more)', async () => {
    const page = await open(
      facts({ verdict: 'not conformant', findings: findingsOf(Array.from({ length: 12 }, (_, i) => failedRule(i))) }),
    );
    const failed = await page.locator('#failed li').allInnerTexts();
    expect(failed).toHaveLength(9);
    expect(failed[0]).toBe('notification/recipients/rule-0 (MUST): failure number 0');
    expect(failed[8]).toBe('and 4 more: see report.html');
  });

  it('flags a plain-HTTP target and names the MUST rules the run did not judge', async () => {
    const page = await open(
      facts({
        target: 'http://staging.example.com',
        findings: {
          ...findingsOf(
            [
              {
                id: 'notification/limits/throttling-429',
                service: 'notification',
                level: 'MUST',
                status: 'skipped',
                reason: 'the target throttled no notification request during the run',
              },
            ],
            'http://staging.example.com',
            false,
          ),
        },
      }),
    );
    await expect(page.locator('#plain-http').textContent()).resolves.toContain(
      'plain HTTP: the documents say HTTPS only',
    );
    await expect(page.locator('#throttling').textContent()).resolves.toMatch(
      /^not probed \(no principals.throttled configured\): 1 of 1 429 rules not judged/,
    );
    await expect(page.locator('#not-judged').innerText()).resolves.toContain(
      'notification/limits/throttling-429 (MUST): skipped, the target throttled no notification request during the run',
    );
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
