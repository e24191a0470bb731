import { earlyEnd, type ConformanceReport } from './conformance-report.ts';
import { forHtml as esc, jsonForFile } from './untrusted-text.ts';

/** The report data embedded in a script tag without letting it close the tag. */
function embed(value: unknown): string {
  return jsonForFile(value).replace(/</g, '\\u003c');
}

const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --obs:#8250df; --warn:#bf8700; --skip:#6e7781; --bg:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; }
header { padding: 20px 28px; background: #fff; border-bottom: 1px solid #d0d7de; }
h1 { margin: 0 0 4px; font-size: 22px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #fff; font-weight: 600; }
.verdict.passed { background: var(--pass); } .verdict.failed { background: var(--fail); }
.meta { color: #57606a; font-size: 13px; }
main { padding: 16px 28px 40px; background: var(--bg); min-height: 100vh; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; margin-bottom: 16px; }
.card { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px 14px; }
.card h2 { font-size: 15px; margin: 0 0 8px; }
.bar { display: flex; height: 8px; border-radius: 4px; overflow: hidden; background: #eaeef2; margin-bottom: 8px; }
.bar span { display: block; }
.counts span { margin-right: 10px; white-space: nowrap; }
.filters { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; margin: 8px 0 12px; }
.filters label { font-size: 13px; color: #57606a; }
select, input[type=search] { font: inherit; padding: 4px 8px; border: 1px solid #d0d7de; border-radius: 6px; background: #fff; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; table-layout: fixed; }
col.c-id { width: 26%; } col.c-level { width: 100px; } col.c-status { width: 115px; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid #eaeef2; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f6f8fa; font-size: 12px; text-transform: uppercase; color: #57606a; }
td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.status { font-weight: 600; white-space: nowrap; }
.status.passed { color: var(--pass); } .status.failed { color: var(--fail); } .status.observed { color: var(--obs); }
.status.warning { color: var(--warn); }
.status.skipped, .status.not-exercised { color: var(--skip); }
.quote { color: #57606a; font-style: italic; }
.evidence { margin-top: 6px; background: #fff8f8; border: 1px solid #ffcecb; border-radius: 6px; padding: 8px; }
.evidence pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; font-size: 12px; background: #f6f8fa; padding: 6px; border-radius: 4px; }
.note { color: #57606a; font-size: 12.5px; margin-top: 4px; }
.empty { padding: 20px; text-align: center; color: #57606a; }
`;

const SCRIPT = `
const report = JSON.parse(document.getElementById('report-data').textContent);
const $ = (s) => document.querySelector(s);
const esc = (s) => String(s ?? '').replace(/[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]/g, (c) => '\\\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')).replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
const services = [...new Set(report.rules.map((r) => r.service))];
const statuses = ['passed','failed','warning','observed','skipped','not-exercised'];
const colors = { passed: 'var(--pass)', failed: 'var(--fail)', warning: 'var(--warn)', observed: 'var(--obs)', skipped: 'var(--skip)', 'not-exercised': '#afb8c1' };
function cards() {
  $('#cards').innerHTML = services.map((s) => {
    const rs = report.rules.filter((r) => r.service === s);
    const n = (st) => rs.filter((r) => r.status === st).length;
    const bar = statuses.map((st) => '<span style="width:' + (100 * n(st) / rs.length) + '%;background:' + colors[st] + '"></span>').join('');
    return '<div class="card" data-service="' + esc(s) + '"><h2>' + esc(s) + '</h2><div class="bar">' + bar + '</div><div class="counts">' +
      statuses.map((st) => '<span class="status ' + st + '">' + n(st) + ' ' + st + '</span>').join('') + '</div></div>';
  }).join('');
}
function option(sel, values) { sel.innerHTML = '<option value="">all</option>' + values.map((v) => '<option>' + esc(v) + '</option>').join(''); }
function evidence(r) {
  const f = r.failure; if (!f) return '';
  let h = '<div class="evidence"><strong>' + esc(f.title) + '</strong> <span class="note">(' + esc(f.severity) + ')</span>';
  h += '<div>Expected: ' + esc(f.expected) + '</div><div>Received: ' + esc(f.received) + '</div>';
  if (f.counterexample !== undefined) h += '<div>Counterexample:</div><pre>' + esc(JSON.stringify(f.counterexample, null, 2)) + '</pre>';
  if (f.seed !== undefined) h += '<div>Seed ' + esc(f.seed) + (f.path ? ', path ' + esc(f.path) : '') + '</div>';
  if (f.curl) h += '<div>Reproduce with:</div><pre>' + esc(f.curl) + '</pre>';
  if (f.replay) h += '<div>Replay:</div><pre>' + esc(f.replay) + '</pre>';
  h += '<div class="note">Test: ' + esc(f.test) + '</div>';
  for (const g of (r.failures || []).slice(1)) {
    h += '<div class="evidence"><strong>' + esc(g.title) + '</strong><div>Expected: ' + esc(g.expected) + '</div><div>Received: ' + esc(g.received) + '</div>';
    if (g.curl) h += '<div>Reproduce with:</div><pre>' + esc(g.curl) + '</pre>';
    h += '<div class="note">Test: ' + esc(g.test) + '</div></div>';
  }
  return h + '</div>';
}
function render() {
  const svc = $('#f-service').value, st = $('#f-status').value, lv = $('#f-level').value, q = $('#f-text').value.toLowerCase();
  const rows = report.rules.filter((r) => (!svc || r.service === svc) && (!st || r.status === st) && (!lv || r.level === lv) &&
    (!q || (r.id + ' ' + r.quote + ' ' + r.statement).toLowerCase().includes(q)));
  $('#shown').textContent = rows.length + ' of ' + report.rules.length + ' rules';
  $('#rules tbody').innerHTML = rows.length ? rows.map((r) => '<tr class="rule" data-status="' + esc(r.status) + '"><td class="id">' + esc(r.id) + '</td><td>' + esc(r.level) +
    '</td><td class="status ' + esc(r.status) + '">' + esc(r.status) + '</td><td><div class="quote">“' + esc(r.quote) + '”</div><div>' + esc(r.statement) + '</div>' +
    (r.reason ? '<div class="note">' + esc(r.reason) + '</div>' : '') + (r.observed ? '<div class="note">Observed: ' + esc(r.observed.join(' | ')) + '</div>' : '') +
    (r.warning ? '<div class="note warning">Warning, reading ' + esc(r.warning.reading) + ': ' + esc(r.warning.text) + '<br>Expected: ' + esc(r.warning.expected) + '<br>The deployment: ' + esc(r.warning.received) + (r.warning.curl ? '<pre>' + esc(r.warning.curl) + '</pre>' : '') + '</div>' : '') +
    evidence(r) + '</td></tr>').join('') : '<tr><td colspan="4" class="empty">No rule matches the filters.</td></tr>';
}
cards(); option($('#f-service'), services); option($('#f-status'), statuses); option($('#f-level'), ['MUST','SHOULD','MAY','UNSPECIFIED']);
for (const id of ['#f-service','#f-status','#f-level','#f-text']) $(id).addEventListener('input', render);
document.getElementById('cards').addEventListener('click', (e) => { const c = e.target.closest('.card'); if (c) { $('#f-service').value = c.dataset.service; render(); } });
if (report.rules.some((r) => r.status === 'failed')) $('#f-status').value = 'failed';
render();
`;

/** One self-contained HTML page: a summary per service, then every rule with its quote and status. */
export function htmlReport(report: ConformanceReport): string {
  const c = report.counts.byStatus;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report — ${esc(report.target)}</title><style>${STYLE}</style></head>
<body>
<header>
  <h1>Conformance report <span class="verdict ${esc(report.verdict)}">${esc(String(report.verdict).toUpperCase())}${esc(earlyEnd(report))}</span></h1>${report.stopped ? `\n  <div class="meta">Stopped early: ${esc(report.stopped.detail)}</div>` : ''}
  <div class="meta">Target <code>${esc(report.target)}</code>${report.embeddedReference ? ' (embedded reference deployment)' : ''} · ${esc(report.startedAt)} · ${esc((Number(report.durationMs) / 1000).toFixed(1))} s · seed <code>${esc(report.seed)}</code> · tool ${esc(report.tool.version)} · contracts ${esc(
    Object.entries(report.contracts.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  )}</div>
  <div class="meta">${esc(report.counts.total)} rules: ${esc(c.passed)} passed, ${esc(c.failed)} failed, ${esc(c.warning)} warning, ${esc(c.observed)} observed, ${esc(c.skipped)} skipped, ${esc(c['not-exercised'])} not exercised${report.http ? ` · ${esc(report.http.requests)} requests, ${esc(report.http.retriedAfter429)} throttled requests retried` : ''}</div>
</header>
<main>
  <div id="cards" class="cards"></div>
  <div class="filters">
    <label>Service <select id="f-service"></select></label>
    <label>Status <select id="f-status"></select></label>
    <label>Level <select id="f-level"></select></label>
    <input type="search" id="f-text" placeholder="Search rules…" aria-label="Search rules">
    <span id="shown" class="note"></span>
  </div>
  <table id="rules"><colgroup><col class="c-id"><col class="c-level"><col class="c-status"><col></colgroup><thead><tr><th>Rule</th><th>Level</th><th>Status</th><th>Source and evidence</th></tr></thead><tbody></tbody></table>
</main>
<script type="application/json" id="report-data">${embed(report)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
