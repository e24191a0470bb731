import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ConformanceReport, RuleResult } from '../reporters/conformance-report.ts';
import { htmlReport } from '../reporters/html-report.ts';
import { tempDir } from './temp-dir.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

function rule(id: string, status: RuleResult['status'], extra: Partial<RuleResult> = {}): RuleResult {
  return {
    id,
    service: id.split('/')[0] as RuleResult['service'],
    level: 'MUST',
    section: 'Limits',
    quote: `quote of ${id}`,
    statement: `statement of ${id}`,
    status,
    tests: ['a test'],
    ...extra,
  };
}

const report: ConformanceReport = {
  tool: { name: 'platform-conformance', version: '0.1.0' },
  contracts: {
    versions: { 'technical-token-manager': '3.3.0', notification: '3.4.1', 'event-management': '3.13.0' },
    hash: 'sha256:x',
  },
  target: 'https://staging.example.com',
  embeddedReference: false,
  startedAt: '2026-11-21T00:00:00.000Z',
  finishedAt: '2026-11-21T00:00:12.000Z',
  durationMs: 12000,
  seed: 42,
  options: {},
  interrupted: false,
  verdict: 'failed',
  counts: {
    total: 4,
    byStatus: { passed: 2, failed: 1, warning: 0, observed: 1, skipped: 0, 'not-exercised': 0 },
    byLevel: {} as never,
  },
  http: { requests: 10, throttled: 0, retriedAfter429: 0, transportErrors: 0 },
  cleanup: { created: 1, deleted: 1, outstanding: [] },
  errors: [],
  rules: [
    rule('event-management/events/severity-range', 'failed', {
      failure: {
        title: 'invalid input accepted: severity 100',
        severity: 'high',
        expected: 'HTTP 400',
        received: 'HTTP 201 <script>alert(1)</script>',
        counterexample: { severity: 100 },
        seed: 7,
        path: '3:1',
        curl: "curl -sS -X POST 'https://staging.example.com/api/eventmanagement/v3/events'",
        test: 'severity outside 1..99 is rejected',
        replay: 'npx conformance replay r.json event-management/events/severity-range',
      },
    }),
    rule('event-management/events/code-length', 'passed'),
    rule('notification/recipients/name-rule', 'passed'),
    rule('technical-token-manager/user-tenants/size-maximum', 'observed', {
      level: 'UNSPECIFIED',
      observed: ['size=101: HTTP 200'],
    }),
  ],
};

describe.skipIf(!hasChromium)('HTML report in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
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
    const dir = tempDir('html');
    const file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(report));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the verdict and a summary card per service', async () => {
    await expect(page.locator('h1 .verdict').textContent()).resolves.toBe('FAILED');
    const cards = await page.locator('.card h2').allTextContents();
    expect(cards).toEqual(['event-management', 'notification', 'technical-token-manager']);
  });

  it('opens on the failures, with their evidence and reproduction', async () => {
    const rows = page.locator('tr.rule');
    await expect(rows.count()).resolves.toBe(1);
    const text = await rows.first().innerText();
    expect(text).toContain('event-management/events/severity-range');
    expect(text).toContain('Expected: HTTP 400');
    expect(text).toContain('Reproduce with:');
    expect(text).toContain('"severity": 100');
    expect(errors).toEqual([]);
  });

  it('filters by service, status and level', async () => {
    await page.selectOption('#f-status', '');
    await expect(page.locator('tr.rule').count()).resolves.toBe(4);
    await page.selectOption('#f-service', 'event-management');
    await expect(page.locator('tr.rule').count()).resolves.toBe(2);
    await page.selectOption('#f-service', '');
    await page.selectOption('#f-level', 'UNSPECIFIED');
    const observed = await page.locator('tr.rule').allInnerTexts();
    expect(observed).toHaveLength(1);
    expect(observed[0]).toContain('Observed: size=101: HTTP 200');
    await page.selectOption('#f-level', '');
    await page.fill('#f-text', 'code-length');
    await expect(page.locator('tr.rule').count()).resolves.toBe(1);
    await page.fill('#f-text', 'no such rule anywhere');
    await expect(page.locator('td.empty').textContent()).resolves.toContain('No rule matches');
  });
});

describe.skipIf(hasChromium)('HTML report without a browser', () => {
  it(`needs Chromium at ${CHROMIUM} (Debian package chromium; .ci/run installs it)`, () => {
    expect(hasChromium).toBe(false);
  });
});
