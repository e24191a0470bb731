import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unclipAllureLabels } from './allure-label-style.ts';

/** The analytics block Allure's HTML report template adds: a script fetched from the network and its caller. */
const ANALYTICS =
  /\s*<script async src="https:\/\/www\.googletagmanager\.com\/gtag\/js[^"]*"><\/script>\s*<script>[\s\S]*?gtag\('config'[\s\S]*?<\/script>/g;

/**
 * Removes the analytics scripts from a rendered Allure report, so that the page loads nothing
 * from the network and can be read offline; returns how many it removed.
 */
export function stripAllureAnalytics(reportDir: string): number {
  const file = join(reportDir, 'index.html');
  const html = readFileSync(file, 'utf8');
  let removed = 0;
  const out = html.replace(ANALYTICS, () => {
    removed++;
    return '';
  });
  if (/googletagmanager/.test(out))
    throw new Error(`${file}: an analytics script is left that this step does not know`);
  if (removed) writeFileSync(file, out);
  return removed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `npm run report:allure`, after `allure generate`: offline, and rule labels shown in full.
  const dir = process.argv[2] ?? 'conformance-report/allure-report';
  stripAllureAnalytics(dir);
  unclipAllureLabels(dir);
}
