import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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

/** A response body longer than any one line, as a check's Received and the exchange hold it. */
const LONG_JSON = JSON.stringify({
  errors: [
    {
      code: 'platform.core.generic.unauthorized',
      logref: '078099be-09e9-4dd1-9382-412c88d1efec',
      message: 'Unauthorized: token malformed',
    },
  ],
  detail: 'x'.repeat(180),
  tail: 'the end of the body',
});

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
    total: 8,
    byStatus: { passed: 2, failed: 2, warning: 1, observed: 1, skipped: 1, 'not-exercised': 1 },
    byLevel: {} as never,
  },
  http: { requests: 10, throttled: 0, retriedAfter429: 0, transportErrors: 0 },
  cleanup: { created: 1, deleted: 1, outstanding: [] },
  errors: [],
  baseline: {
    file: 'known-failures.json',
    accepted: ['notification/recipients/address-type-int64'],
    stale: [],
    newFailures: ['event-management/events/severity-range'],
  },
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
        exchange: {
          request: { method: 'POST', url: 'https://staging.example.com/api/eventmanagement/v3/events', headers: {} },
          response: {
            status: 201,
            headers: { 'content-type': 'application/json' },
            body: '{"id":"e1","severity":100}',
          },
        },
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
    rule('notification/recipients/address-type-int64', 'failed', {
      failure: {
        title: 'a recipient without addresstypeid was not refused',
        severity: 'medium',
        expected: 'HTTP 400 (missingRequestBodyProperty)',
        received: LONG_JSON,
        exchange: {
          request: { method: 'POST', url: 'https://staging.example.com/api/notification/v3/recipient', headers: {} },
          response: { status: 401, headers: { 'content-type': 'application/json' }, body: LONG_JSON },
        },
        test: 'a recipient needs an address type',
        replay: 'npx conformance replay r.json notification/recipients/address-type-int64',
      },
    }),
    rule('technical-token-manager/user-tenants/unidentified-user', 'warning', {
      warning: {
        reading: 'user-tenant-token-unidentified',
        text: 'We read "User not identified" as covering a token issued for a user tenant.',
        title: 'another refusal',
        expected: 'HTTP 400 unidentifiedUser',
        received: 'HTTP 400 invalidHostTokenFormat',
        test: 'a user tenant token is refused',
        detail: 'reading user-tenant-token-unidentified',
      },
    }),
    rule('event-management/event-types/reserved-type-name-400', 'not-exercised', {
      reason: 'its tests ended before checking it',
    }),
    rule('notification/publish/from-no-reply-suffix', 'skipped', { reason: 'not testable from outside' }),
  ],
  tests: [
    {
      name: 'severity outside 1..99 is rejected',
      file: 'suites/event-management/events.spec.ts',
      service: 'event-management',
      state: 'failed',
      startMs: 2000,
      durationMs: 4000,
    },
    {
      name: 'codes of 1..15 characters',
      file: 'suites/event-management/events.spec.ts',
      service: 'event-management',
      state: 'passed',
      startMs: 2500,
      durationMs: 1500,
    },
    {
      name: 'a recipient needs an address type',
      file: 'suites/notification/recipients.spec.ts',
      service: 'notification',
      state: 'failed',
      startMs: 3000,
      durationMs: 2000,
    },
    {
      name: 'a user tenant token is refused',
      file: 'suites/technical-token-manager/user-tenants.spec.ts',
      service: 'technical-token-manager',
      state: 'passed',
      startMs: 6000,
      durationMs: 5000,
    },
  ],
};

/** An earlier run: the failed severity rule passed then, the passed code-length rule failed. */
const previous: ConformanceReport = {
  ...report,
  startedAt: '2026-11-20T00:00:00.000Z',
  baseline: undefined,
  rules: report.rules.map((r) =>
    r.id === 'event-management/events/severity-range'
      ? { ...r, status: 'passed', failure: undefined }
      : r.id === 'event-management/events/code-length'
        ? { ...r, status: 'failed', failure: { ...report.rules[0].failure! } }
        : r,
  ),
};

const WIDTHS = [800, 1200, 1600];

describe.skipIf(!hasChromium)('HTML report in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let shots = '';
  let file = '';
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
    // SCREENSHOT_DIR keeps the screenshots for a person to look at; by default they go with the temp folder.
    shots = process.env.SCREENSHOT_DIR ?? join(dir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(report, previous));
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
    await expect(rows.count()).resolves.toBe(2);
    const text = await rows.first().innerText();
    expect(text).toContain('event-management/events/severity-range');
    expect(text).toContain('Expected: HTTP 400');
    expect(text).toContain('Reproduce with:');
    expect(text).toContain('"severity": 100');
    expect(errors).toEqual([]);
  });

  it('filters by service, status and level', async () => {
    await page.selectOption('#f-status', '');
    await expect(page.locator('tr.rule').count()).resolves.toBe(8);
    await page.selectOption('#f-service', 'event-management');
    await expect(page.locator('tr.rule').count()).resolves.toBe(3);
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
    await page.fill('#f-text', '');
  });

  it('says how many warnings the filter hides, and shows them on request', async () => {
    await page.selectOption('#f-status', 'failed');
    const banner = page.locator('#hidden');
    await expect(banner.isVisible()).resolves.toBe(true);
    await expect(banner.innerText()).resolves.toBe('1 warning hidden by the filter — show all');
    await page.click('#show-all');
    await expect(banner.isVisible()).resolves.toBe(false);
    await expect(page.locator('tr.rule').count()).resolves.toBe(8);
  });

  it('shows a warning with the reading, what it expects and what the deployment did, line by line', async () => {
    const warning = await page.locator('tr.rule[data-status="warning"] .note.warning').innerText();
    expect(warning).toContain('Expected: HTTP 400 unidentifiedUser\nThe deployment: HTTP 400 invalidHostTokenFormat');
  });

  it('marks a failure the baseline accepts as a known failure, and no other', async () => {
    const known = await page.locator('tr.known-failure').allInnerTexts();
    expect(known).toHaveLength(1);
    expect(known[0]).toContain('notification/recipients/address-type-int64');
    expect(known[0]).toContain('known failure');
    expect(known[0]).toContain('accepted by the baseline known-failures.json');
    await expect(page.locator('.card[data-service="notification"] .counts').innerText()).resolves.toContain(
      '1 failed (1 known)',
    );
  });

  it('shows a JSON Received indented and in full, and not twice when it is the response body', async () => {
    const pres = await page.locator('tr.known-failure pre.json').allTextContents();
    expect(pres).toHaveLength(1);
    expect(JSON.parse(pres[0])).toEqual(JSON.parse(LONG_JSON));
    expect(pres[0]).toContain('\n  "errors": [');
    await expect(page.locator('tr.known-failure pre.body').count()).resolves.toBe(0);
    const body = page.locator('tr.rule[data-id="event-management/events/severity-range"] pre.body');
    await expect(body.textContent()).resolves.toBe('{\n  "id": "e1",\n  "severity": 100\n}');
  });

  it('shows what changed since the previous report', async () => {
    const trend = await page.locator('#trend').innerText();
    expect(trend).toContain('Compared with the run of 2026-11-20T00:00:00.000Z');
    expect(trend).toMatch(/1\s+newly failed\s+1\s+newly passed/);
    await page.locator('#trend summary', { hasText: 'Newly failed' }).click();
    await page.locator('#trend a[data-rule="event-management/events/severity-range"]').click();
    await expect(page.locator('tr.rule').count()).resolves.toBe(1);
    await page.click('#show-all');
  });

  it("puts the run's tests on a time line, one bar each, at their start and length", async () => {
    const bars = page.locator('.timeline .t');
    await expect(bars.count()).resolves.toBe(report.tests!.length);
    const left = await bars.evaluateAll((els) => els.map((e) => parseFloat((e as HTMLElement).style.left)));
    expect(left).toContain((100 * 6000) / 12000);
    // Tests at the same time are on lanes of their own.
    await expect(page.locator('.timeline .lane').count()).resolves.toBe(4);
  });

  it.each(WIDTHS)('nothing overflows or is cut at %i px (screenshot kept)', async (width) => {
    const p = await browser.newPage({ viewport: { width, height: 900 } });
    await p.goto(pathToFileURL(file).href);
    await p.selectOption('#f-status', '');
    await p.screenshot({ path: join(shots, `report-${width}.png`), fullPage: true });
    const problems = await p.evaluate(() => {
      const out: string[] = [];
      const name = (e: Element) => `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').slice(0, 30)}"`;
      if (document.documentElement.scrollWidth > document.documentElement.clientWidth)
        out.push(`page ${document.documentElement.scrollWidth} > ${document.documentElement.clientWidth}`);
      // Cards, panels, banner and table cells: no content wider than the box (a pre scrolls itself).
      for (const e of document.querySelectorAll('.card, .card *, .panel, .panel *, .banner, th, td, td *')) {
        if (getComputedStyle(e).overflowX === 'auto') continue;
        if (e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} ${e.scrollWidth} > ${e.clientWidth}`);
      }
      // Every count of a card inside its card.
      for (const card of document.querySelectorAll('.card')) {
        const box = card.getBoundingClientRect();
        for (const s of card.querySelectorAll('.counts span'))
          if (s.getBoundingClientRect().right > box.right) out.push(`${name(s)} sticks out of its card`);
      }
      // Levels on one line; rule IDs broken only after "/" or "-".
      for (const td of document.querySelectorAll('td.level'))
        if (td.getClientRects().length && (td as HTMLElement).innerText.trim().includes('\n'))
          out.push(`${name(td)} wraps`);
      for (const td of document.querySelectorAll('td.id')) {
        const range = document.createRange();
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        let prev: { ch: string; top: number } | undefined;
        for (let n = walker.nextNode(); n; n = walker.nextNode())
          for (let i = 0; i < (n.textContent ?? '').length; i++) {
            range.setStart(n, i);
            range.setEnd(n, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            if (prev && top > prev.top && !['/', '-'].includes(prev.ch))
              out.push(`${name(td)} breaks after "${prev.ch}"`);
            prev = { ch: (n.textContent ?? '')[i], top };
          }
      }
      return out;
    });
    await p.close();
    expect(problems).toEqual([]);
  });
});

describe.skipIf(hasChromium)('HTML report without a browser', () => {
  it(`needs Chromium at ${CHROMIUM} (Debian package chromium; .ci/run installs it)`, () => {
    expect(hasChromium).toBe(false);
  });
});
