import { SERVICE_INFO } from '../contracts/services.ts';
import { gates, NOT_GATING_HEADING } from '../reporters/conformance-report.ts';
import { forHtml as esc } from '../reporters/untrusted-text.ts';
import type { Manifest } from './manifest.ts';

/** What the certificate shows: the manifest without the file list it is itself part of. */
export type CertificateFacts = Omit<Manifest, 'files' | 'format'>;

const STATUSES = ['passed', 'failed', 'observed', 'warning', 'skipped', 'not-exercised'] as const;

const STYLE = `
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #eef1f4; }
.page { width: 210mm; min-height: 287mm; margin: 24px auto; background: #fff; padding: 16mm 18mm; border: 1px solid #d0d7de; }
h1 { font-size: 26px; margin: 0 0 4px; letter-spacing: .02em; }
.sub { color: #57606a; margin: 0 0 16px; }
.verdict { font-size: 22px; font-weight: 700; padding: 10px 16px; border-radius: 8px; color: #fff; display: inline-block; margin: 4px 0 14px; }
.verdict.conformant { background: #1a7f37; } .verdict.not-conformant { background: #cf222e; }
dl { display: grid; grid-template-columns: 190px 1fr; gap: 4px 14px; margin: 0 0 16px; }
dt { color: #57606a; } dd { margin: 0; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; margin: 0 0 16px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d8dee4; }
th { font-size: 12px; text-transform: uppercase; color: #57606a; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.problems, .alert { color: #cf222e; }
h2 { font-size: 14px; margin: 0 0 4px; }
.findings { margin: 0 0 12px; font-size: 12px; line-height: 1.4; }
.findings ul { margin: 0; padding-left: 18px; }
.findings .ids { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 11px; color: #57606a; overflow-wrap: anywhere; }
footer { color: #57606a; font-size: 12.5px; border-top: 1px solid #d8dee4; padding-top: 12px; }
@page { size: A4; margin: 0; }
@media print { body { background: #fff; } .page { margin: 0; border: 0; padding: 12mm 14mm; min-height: 0; zoom: 0.75; } }
`;

/** Failed rules listed on the page at most; the rest are counted (report.html has them all). */
const MAX_LISTED = 8;

/** `<wbr>` after each slash of an escaped rule ID, so that a line breaks between its parts. */
const ruleId = (id: string) => esc(id).replaceAll('/', '/<wbr>');

/** The rules a certificate names: what failed, what was not judged, what cannot be tested from outside. */
function findingsHtml(f: CertificateFacts['findings']): string {
  const out: string[] = [];
  // The failures that decide the verdict; a MAY rule's under a heading that says it does not.
  for (const [id, heading, listed] of [
    ['failed', 'Failed rules', f.failed.filter((r) => gates(r.level))],
    ['not-met', NOT_GATING_HEADING, f.failed.filter((r) => !gates(r.level))],
  ] as const) {
    if (!listed.length) continue;
    const shown = listed.slice(0, MAX_LISTED);
    out.push(
      `<div class="findings" id="${id}"><h2 class="alert">${esc(heading)} (${esc(listed.length)})</h2><ul>${shown
        .map((r) => `<li><span class="mono">${ruleId(r.id)}</span> (${esc(r.level)}): ${esc(r.title)}</li>`)
        .join(
          '',
        )}${listed.length > shown.length ? `<li>and ${esc(listed.length - shown.length)} more: see report.html</li>` : ''}</ul></div>`,
    );
  }
  if (f.notJudged.length)
    out.push(
      `<div class="findings" id="not-judged"><h2 class="alert">Testable MUST and SHOULD rules the run did not judge (${esc(f.notJudged.length)}): the certificate claims none of them</h2><ul>${f.notJudged
        .slice(0, MAX_LISTED)
        .map(
          (r) =>
            `<li><span class="mono">${ruleId(r.id)}</span> (${esc(r.level)}): ${esc(r.status)}, ${esc(r.reason)}</li>`,
        )
        .join(
          '',
        )}${f.notJudged.length > MAX_LISTED ? `<li>and ${esc(f.notJudged.length - MAX_LISTED)} more: see report.html</li>` : ''}</ul></div>`,
    );
  if (f.untestable.length)
    out.push(
      `<div class="findings" id="untestable"><h2>MUST rules not testable from outside (${esc(f.untestable.length)}): not judged, the catalog says why</h2><div class="ids">${f.untestable
        .map((r) => `<span title="${esc(r.reason)}">${ruleId(r.id)}</span>`)
        .join(', ')}</div></div>`,
    );
  return out.join('\n');
}

/**
 * The Throttling row: whether the throttle was probed, and what became of the 429 rules (judged
 * only when the target throttled the run; never said to be judged when one was skipped).
 */
function throttlingRow(t: CertificateFacts['findings']['throttling']): string {
  const total = t.judged.length + t.notJudged.length;
  const how = t.probed
    ? 'probed with bursts as the throttled principal'
    : 'not probed (no principals.throttled configured)';
  if (!total) return `<dd id="throttling">${how}; the claimed services have no 429 rule</dd>`;
  if (!t.notJudged.length)
    return `<dd id="throttling">${how}: the target throttled ${t.probed ? 'it' : 'the run'}, and the 429 rules were judged (${esc(total)} of ${esc(total)})</dd>`;
  return `<dd class="alert" id="throttling">${how}: ${esc(t.notJudged.length)} of ${esc(total)} 429 rules not judged (${t.notJudged
    .map((r) => `<span class="mono">${ruleId(r.id)}</span>`)
    .join(', ')}): ${esc(t.notJudged[0].reason)}</dd>`;
}

/** Whether a URL's host is this machine. */
function loopback(target: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(target).hostname);
  } catch {
    return false;
  }
}

/** The one-page certificate of a bundle: who, what, against which contracts, the verdict and the bundle's hash. */
export function certificateHtml(m: CertificateFacts): string {
  const verdictClass = m.verdict === 'conformant' ? 'conformant' : 'not-conformant';
  const date = m.finishedAt.slice(0, 10);
  const shown = STATUSES.filter((s) => s !== 'warning' || m.services.some((x) => (m.counts[x]?.warning ?? 0) > 0));
  const rows = m.services
    .map((s) => {
      const c = m.counts[s] ?? {};
      return `<tr class="service"><td>${esc(SERVICE_INFO[s].title)}</td><td>${esc(m.contracts[s].version)}</td>${shown
        .map((st) => `<td class="n">${esc(c[st] ?? 0)}</td>`)
        .join('')}</tr>`;
    })
    .join('\n');
  const problems = m.profile.problems.length
    ? `<dt>Profile</dt><dd class="problems">incomplete: ${m.profile.problems.map(esc).join('; ')}</dd>`
    : '<dt>Profile</dt><dd>certification: every rule of the claimed services run, every principal and fixture they need configured</dd>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance certificate: ${esc(m.vendor)} ${esc(m.product)} ${esc(m.productVersion)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body><div class="page">
<h1>Conformance certificate</h1>
<p class="sub">Technical Token Manager, Notification and Event Management service contracts</p>
<dl>
<dt>Vendor</dt><dd id="vendor">${esc(m.vendor)}</dd>
<dt>Product</dt><dd id="product">${esc(m.product)} ${esc(m.productVersion)}</dd>
<dt>Services</dt><dd id="services">${m.services.map((s) => esc(SERVICE_INFO[s].title)).join(', ')}</dd>
<dt>Date</dt><dd id="date">${esc(date)}</dd>
<dt>Target</dt><dd class="mono">${esc(m.target)}</dd>
<dt>Transport</dt>${
    m.findings.plainHttp
      ? `<dd class="alert" id="plain-http">plain HTTP${loopback(m.target) ? ' (on this machine)' : ''}: the documents say HTTPS only; credentials and tokens crossed the connection unencrypted</dd>`
      : '<dd id="transport">HTTPS</dd>'
  }
<dt>Throttling</dt>${throttlingRow(m.findings.throttling)}
</dl>
<div class="verdict ${verdictClass}" id="verdict">${m.verdict === 'conformant' ? 'CONFORMANT' : 'NOT CONFORMANT'}</div>
<table><thead><tr><th>service</th><th>contract</th>${shown.map((s) => `<th>${s}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table>
${findingsHtml(m.findings)}
<dl>
${problems}
<dt>Tool</dt><dd id="tool">${esc(m.tool.name)} ${esc(m.tool.version)}</dd>
<dt>Contracts</dt><dd class="mono">${m.services.map((s) => `${esc(s)} ${esc(m.contracts[s].version)} ${esc(m.contracts[s].sha256.slice(0, 23))}…`).join('<br>')}</dd>
<dt>Run</dt><dd>seed ${esc(m.seed)}, ${esc(m.startedAt)} to ${esc(m.finishedAt)}; Node ${esc(m.runtime.node)}, ${esc(m.runtime.os)}</dd>
<dt>Bundle hash</dt><dd class="mono" id="bundle-hash">${esc(m.bundleHash)}</dd>
<dt>Signing key</dt><dd class="mono" id="key">${esc(m.key.thumbprint)}${m.key.origin === 'ephemeral' ? ' (made for this bundle only)' : ''}</dd>
</dl>
<footer>Check this certificate and the evidence beside it offline with
<span class="mono">npx conformance verify BUNDLE --key PUBLIC.jwk</span>: it checks the signature, every file's
hash and that the verdict follows from the evidence. Counts are rules per status; a rule counts as passed only
when a check of it ran and held.</footer>
</div></body></html>
`;
}
