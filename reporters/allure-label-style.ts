import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MARK = 'data-conformance="full-labels"';

/**
 * Allure's page shows each label value as a one-line chip cut with an ellipsis to its half of the
 * labels grid, so a test's rule IDs (`technical-token-manager/access-token/access-token-jwt`) read
 * "technical-toke…" or, beside two others, "t…". This lets the chips wrap, at `/` and `-` (where a
 * browser breaks such text), so every rule ID is shown in full.
 */
const STYLE = `<style ${MARK}>
[data-testid="metadata-item"], [data-testid="metadata-item-value"] { min-width: 0 !important; }
[data-testid="metadata-item-value"] { display: flex !important; flex-wrap: wrap !important; gap: 4px; }
[data-testid="metadata-item-value"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  min-width: 0 !important; max-width: 100% !important; overflow-wrap: break-word; height: auto !important;
}
</style>`;

/** Adds the style that shows label values in full to a rendered Allure report; returns whether it added it. */
export function unclipAllureLabels(reportDir: string): boolean {
  const file = join(reportDir, 'index.html');
  const html = readFileSync(file, 'utf8');
  if (html.includes(MARK)) return false;
  if (!html.includes('</head>')) throw new Error(`${file}: no </head> to add the label style before`);
  writeFileSync(file, html.replace('</head>', `${STYLE}</head>`));
  return true;
}
