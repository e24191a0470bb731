import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { stripAllureAnalytics } from '../reporters/allure-offline.ts';
import { unclipAllureLabels } from '../reporters/allure-label-style.ts';
import { root, runCli } from './run-cli.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FAULT = 'access-token-not-a-jwt';
const BROKEN_RULE = 'technical-token-manager/access-token/access-token-jwt';
const TEST_NAME = 'POST /oauth/token issues an AccessTokenResponse whose fields agree with the JWT';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** Serves a folder on loopback: the rendered report loads its data with fetch, which file:// pages cannot. */
function serveFolder(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = join(dir, normalize(path === '/' ? '/index.html' : path));
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` });
    }),
  );
}

/**
 * `allure generate` with the project's allurerc.json, as `npm run report:allure` runs it, but in
 * `cwd`: the config's history path is relative, so each test keeps its own history there.
 */
function allureGenerate(results: string, output: string, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        join(root, 'node_modules/allure/cli.js'),
        'generate',
        results,
        '--config',
        join(root, 'allurerc.json'),
        '--output',
        output,
      ],
      { cwd, timeout: 120_000, killSignal: 'SIGKILL' },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: stdout + stderr }),
    );
  });
}

describe.skipIf(!existsSync(CHROMIUM))('the Allure report of a real run, rendered and opened in Chromium', () => {
  // Made in beforeAll: a folder made here would be left behind where Chromium is missing.
  let dir = '';
  let reportDir = '';
  let allureReport = '';
  let ref: RunningReference;
  let browser: Browser;
  let page: Page;
  let served: { server: Server; url: string } | undefined;
  const outside: string[] = [];
  const errors: string[] = [];
  let renderMs = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-allure-'));
    reportDir = join(dir, 'run');
    allureReport = join(dir, 'allure-report');
    ref = await startReference({ port: 0, faults: [FAULT] });
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
    const run = await runCli(
      [
        'run',
        '--config',
        config,
        '--service',
        'technical-token-manager',
        '--rule',
        'technical-token-manager/access-token/*',
        '--report-dir',
        reportDir,
        '--seed',
        '1',
      ],
      { timeoutMs: 120_000 },
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // Rendered twice, as after two runs: the second report has the first in its history.
    const first = await allureGenerate(join(reportDir, 'allure-results'), join(dir, 'first-report'), dir);
    expect(first.code, first.output).toBe(0);
    const started = Date.now();
    const generated = await allureGenerate(join(reportDir, 'allure-results'), allureReport, dir);
    expect(generated.code, generated.output).toBe(0);
    stripAllureAnalytics(allureReport);
    unclipAllureLabels(allureReport);
    renderMs = Date.now() - started;
    served = await serveFolder(allureReport);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith(served!.url) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    await page.goto(served.url);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    served?.server.close();
    await ref?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the run into one HTML report that loads nothing from the network', async () => {
    expect(readdirSync(allureReport)).toContain('index.html');
    expect(readFileSync(join(allureReport, 'index.html'), 'utf8')).not.toContain('googletagmanager');
    await expect(page.getByText(TEST_NAME).first().waitFor({ timeout: 30_000 })).resolves.toBeUndefined();
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    process.stdout.write(`allure render time: ${renderMs} ms\n`);
  });

  it('keeps a history between renders (allurerc.json historyPath), so the trend has data', async () => {
    const history = readFileSync(join(dir, 'conformance-report/allure-history.jsonl'), 'utf8').trim().split('\n');
    expect(history).toHaveLength(2);
  });

  it('writes results with a severity from the failure and stack traces without local paths', () => {
    const results = readdirSync(join(reportDir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(reportDir, 'allure-results', f), 'utf8')) as {
            name: string;
            status: string;
            labels: Array<{ name: string; value: string }>;
            statusDetails?: { trace?: string };
          },
      );
    const failed = results.find((r) => r.name === TEST_NAME)!;
    expect(failed.status).toBe('failed');
    expect(failed.labels).toContainEqual({ name: 'severity', value: 'critical' });
    expect(failed.labels).toContainEqual({ name: 'rule', value: BROKEN_RULE });
    const traces = results.map((r) => r.statusDetails?.trace ?? '').join('\n');
    expect(traces).toContain('suites/');
    expect(traces).not.toContain(root);
    expect(traces).not.toContain('file://');
    expect(traces).not.toMatch(/\(\/[^)]*\/(suites|node_modules)\//);
  });

  it('shows the service and area of each test and the failed test as failed', async () => {
    const body = await page.locator('body').innerText();
    expect(body).toContain('technical-token-manager');
    expect(body).toContain('access-token');
    expect(body).toMatch(/Failed\s+[1-9]/);
  });

  it("shows a failed test's rule labels and its failure attachment with the curl that reproduces it", async () => {
    await page.getByText(TEST_NAME).first().click();
    const more = page.getByText('Show more');
    if (await more.count()) await more.first().click();
    const labels = page.getByText(BROKEN_RULE, { exact: true });
    await expect(labels.first().isVisible()).resolves.toBe(true);
    // The rule ID in full: not cut with an ellipsis, nor spilling out of its column.
    const fit = await labels.first().evaluate((e) => {
      const column = e.closest('[data-testid="metadata-item-value"]')!.getBoundingClientRect();
      const chip = e.parentElement!;
      return {
        clipped: chip.scrollWidth > chip.clientWidth + 1,
        inside: chip.getBoundingClientRect().right <= column.right + 1,
      };
    });
    expect(fit).toEqual({ clipped: false, inside: true });
    await expect(page.getByText('Critical', { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByText('rule', { exact: true }).first().isVisible()).resolves.toBe(true);
    await page.getByText(`failure ${BROKEN_RULE}`).first().click();
    const reproduce = page.getByText('Reproduce with:', { exact: false }).first();
    await reproduce.waitFor({ timeout: 10_000 });
    await expect(reproduce.isVisible()).resolves.toBe(true);
    const body = await page.locator('body').innerText();
    expect(body).toContain('Expected: a JWS or JWE in compact form');
    expect(body).toMatch(/curl -sS -i -X POST "\$\{CONFORMANCE_TARGET:\?[^"]*"'[^']*\/oauth\/token'/);
    // The credentials come from the environment, never from the report.
    expect(body).toMatch(/\$\{CONFORMANCE_(TOKEN|SPACE_AUTH_KEY):\?/);
    // The test's history: the first render is in it.
    await page
      .getByText(/^History\s*\d*$/)
      .first()
      .click();
    await page
      .getByText(/^\d{1,2}\/\d{1,2}\/\d{4} at /)
      .first()
      .waitFor({ timeout: 10_000 });
    const history = await page.locator('body').innerText();
    expect(history).not.toContain('No history information available');
    expect(errors).toEqual([]);
  });
});
