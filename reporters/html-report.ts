import { SERVICES } from '../contracts/services.ts';
import { earlyEnd, type ConformanceReport, type TestTiming } from './conformance-report.ts';
import { failureNotes } from './failure-block.ts';
import { compareReports, type RuleChange } from './rule-changes.ts';
import { forHtml as esc, jsonForFile } from './untrusted-text.ts';

/** The report as the page reads it: each failure and warning with its notes, worded as every writer words them. */
function withNotes(report: ConformanceReport): ConformanceReport {
  const noted = <T extends Parameters<typeof failureNotes>[0]>(f: T | undefined) =>
    f && { ...f, notes: failureNotes(f) };
  return {
    ...report,
    rules: report.rules.map((r) => ({
      ...r,
      ...(r.failure ? { failure: noted(r.failure) } : {}),
      ...(r.failures ? { failures: r.failures.map((g) => noted(g)!) } : {}),
      ...(r.warning ? { warning: noted(r.warning) } : {}),
    })),
  };
}

/** The report data embedded in a script tag without letting it close the tag. */
function embed(value: unknown): string {
  return jsonForFile(value).replace(/</g, '\\u003c');
}

const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --obs:#8250df; --warn:#9a6700; --skip:#6e7781; --known:#bc4c00; --bg:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; }
header { padding: 20px 28px; background: #fff; border-bottom: 1px solid #d0d7de; }
h1 { margin: 0 0 4px; font-size: 22px; }
h2.section { font-size: 15px; margin: 0 0 8px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #fff; font-weight: 600; }
.verdict.passed { background: var(--pass); } .verdict.failed { background: var(--fail); }
.meta { color: #57606a; font-size: 13px; overflow-wrap: anywhere; }
main { padding: 16px 28px 40px; background: var(--bg); min-height: 100vh; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 12px; margin-bottom: 16px; }
.card, .panel { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px 14px; min-width: 0; }
.card { cursor: pointer; }
.card h2 { font-size: 15px; margin: 0 0 8px; overflow-wrap: anywhere; }
.bar { display: flex; height: 8px; border-radius: 4px; overflow: hidden; background: #eaeef2; margin-bottom: 8px; }
.bar span { display: block; }
.counts { display: flex; flex-wrap: wrap; gap: 2px 12px; }
.counts span { white-space: nowrap; }
.panel { margin-bottom: 16px; }
.trend ul { margin: 4px 0 0; padding-left: 20px; }
.trend li { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.trend .n { font-weight: 600; }
.timeline .lanes { position: relative; border-left: 1px solid #d0d7de; }
.timeline .service { font-size: 12px; color: #57606a; margin: 6px 0 2px; }
.timeline .lane { position: relative; height: 6px; margin: 1px 0; }
.timeline .t { position: absolute; top: 0; height: 5px; min-width: 2px; border-radius: 2px; background: var(--pass); }
.timeline .t.failed { background: var(--fail); } .timeline .t.skipped, .timeline .t.pending { background: #afb8c1; }
.timeline .axis { position: relative; height: 16px; font-size: 11px; color: #57606a; border-top: 1px solid #d0d7de; margin-top: 4px; }
.timeline .axis span { position: absolute; top: 2px; transform: translateX(-50%); white-space: nowrap; }
.timeline .axis span:first-child { transform: none; } .timeline .axis span:last-child { transform: translateX(-100%); }
.filters { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; margin: 8px 0 12px; }
.filters label { font-size: 13px; color: #57606a; }
select, input[type=search] { font: inherit; padding: 4px 8px; border: 1px solid #d0d7de; border-radius: 6px; background: #fff; max-width: 100%; }
.banner { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 6px 10px; margin: 0 0 12px; }
.banner button, .linkish { font: inherit; color: #0969da; background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; table-layout: fixed; }
col.c-id { width: 27%; } col.c-level { width: 106px; } col.c-status { width: 126px; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid #eaeef2; vertical-align: top; overflow-wrap: break-word; min-width: 0; }
th { background: #f6f8fa; font-size: 12px; text-transform: uppercase; color: #57606a; }
td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; word-break: normal; }
td.level { font-size: 12.5px; white-space: nowrap; }
.status { font-weight: 600; }
.status.passed { color: var(--pass); } .status.failed { color: var(--fail); } .status.observed { color: var(--obs); }
.status.warning { color: var(--warn); }
.status.skipped, .status.not-exercised { color: var(--skip); }
.known { display: inline-block; margin-top: 3px; font-size: 12px; font-weight: 600; color: #fff; background: var(--known); border-radius: 10px; padding: 0 7px; white-space: nowrap; }
tr.known-failure .evidence { background: #fff1e5; border-color: #ffd8b5; }
.quote { color: #57606a; font-style: italic; }
.evidence { margin-top: 6px; background: #fff8f8; border: 1px solid #ffcecb; border-radius: 6px; padding: 8px; min-width: 0; }
.evidence pre, .note pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; font-size: 12px; background: #f6f8fa; padding: 6px; border-radius: 4px; max-height: 28em; overflow: auto; }
.note { color: #57606a; font-size: 12.5px; margin-top: 4px; }
.empty { padding: 20px; text-align: center; color: #57606a; }
`;

const SCRIPT = `
const report = JSON.parse(document.getElementById('report-data').textContent);
const $ = (s) => document.querySelector(s);
const esc = (s) => String(s ?? '').replace(/[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]/g, (c) => '\\\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')).replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
// A rule ID may break after a slash (and, as browsers do, after a hyphen), never inside a word.
const ruleId = (id) => esc(id).split('/').join('/<wbr>');
const services = [...new Set(report.rules.map((r) => r.service))];
const statuses = ['passed','failed','warning','observed','skipped','not-exercised'];
const label = (st) => st === 'not-exercised' ? 'not exercised' : st;
const colors = { passed: 'var(--pass)', failed: 'var(--fail)', warning: 'var(--warn)', observed: 'var(--obs)', skipped: 'var(--skip)', 'not-exercised': '#afb8c1' };
const known = new Set(report.baseline ? report.baseline.accepted : []);
const isKnown = (r) => r.status === 'failed' && known.has(r.id);
function cards() {
  $('#cards').innerHTML = services.map((s) => {
    const rs = report.rules.filter((r) => r.service === s);
    const n = (st) => rs.filter((r) => r.status === st).length;
    const k = rs.filter(isKnown).length;
    const bar = statuses.map((st) => '<span style="width:' + (100 * n(st) / rs.length) + '%;background:' + colors[st] + '"></span>').join('');
    return '<div class="card" data-service="' + esc(s) + '"><h2>' + esc(s) + '</h2><div class="bar">' + bar + '</div><div class="counts">' +
      statuses.map((st) => '<span class="status ' + st + '">' + n(st) + ' ' + label(st) + (st === 'failed' && k ? ' (' + k + ' known)' : '') + '</span>').join(' ') + '</div></div>';
  }).join('');
}
function option(sel, values) { sel.innerHTML = '<option value="">all</option>' + values.map((v) => '<option value="' + esc(v) + '">' + esc(label(v)) + '</option>').join(''); }
// Text that is JSON is shown indented, in full; other text as it is.
function pretty(text) {
  const t = String(text ?? '').trim();
  if (!/^[[{]/.test(t)) return undefined;
  try { return JSON.stringify(JSON.parse(t), null, 2); } catch { return undefined; }
}
function received(label_, text) {
  const p = pretty(text);
  return p !== undefined ? '<div>' + label_ + ':</div><pre class="json">' + esc(p) + '</pre>' : '<div>' + label_ + ': ' + esc(text) + '</div>';
}
// The whole response body, unless the Received line above is that body already.
function response(exchange, shown) {
  const res = exchange && exchange.response;
  if (!res || res.body === undefined || res.body === '') return '';
  const type = res.headers ? (res.headers['content-type'] || '') : '';
  const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  if (body === shown) return '';
  return '<div>Response body (HTTP ' + esc(res.status) + (type ? ', ' + esc(type) : '') + '):</div><pre class="body">' + esc(pretty(body) ?? body) + '</pre>';
}
function evidence(r) {
  const f = r.failure; if (!f) return '';
  let h = '<div class="evidence"><strong>' + esc(f.title) + '</strong> <span class="note">(' + esc(f.severity) + ')</span>';
  if (isKnown(r)) h += '<div class="note">A known failure: accepted by the baseline ' + esc(report.baseline.file) + ', it does not fail the run.</div>';
  h += '<div>Expected: ' + esc(f.expected) + '</div>' + received('Received', f.received) + response(f.exchange, f.received);
  if (f.counterexample !== undefined) h += '<div>Counterexample:</div><pre>' + esc(JSON.stringify(f.counterexample, null, 2)) + '</pre>';
  if (f.seed !== undefined) h += '<div>Seed ' + esc(f.seed) + (f.path ? ', path ' + esc(f.path) : '') + '</div>';
  if (f.curl) h += '<div>Reproduce with:</div><pre>' + esc(f.curl) + '</pre>';
  h += notes(f);
  if (f.replay) h += '<div>Replay:</div><pre>' + esc(f.replay) + '</pre>';
  h += '<div class="note">Test: ' + esc(f.test) + '</div>';
  for (const g of (r.failures || []).slice(1)) {
    h += '<div class="evidence"><strong>' + esc(g.title) + '</strong><div>Expected: ' + esc(g.expected) + '</div><div>Received: ' + esc(g.received) + '</div>';
    if (g.curl) h += '<div>Reproduce with:</div><pre>' + esc(g.curl) + '</pre>';
    h += notes(g);
    h += '<div class="note">Test: ' + esc(g.test) + '</div></div>';
  }
  return h + '</div>';
}
function notes(f) {
  return (f.notes || []).map((n) => '<div>Note: ' + esc(n) + '</div>').join('');
}
function warning(w) {
  return '<div class="note warning">Warning, reading ' + esc(w.reading) + ': ' + esc(w.text) + '<br>Expected: ' + esc(w.expected) + received('The deployment', w.received) + response(w.exchange, w.received) + (w.curl ? '<pre>' + esc(w.curl) + '</pre>' : '') + notes(w) + '</div>';
}
function status(r) {
  return '<td class="status ' + esc(r.status) + '">' + esc(label(r.status)) + (isKnown(r) ? '<br><span class="known" title="accepted by the baseline ' + esc(report.baseline.file) + '">known failure</span>' : '') + '</td>';
}
function matches(r, f) {
  return (!f.svc || r.service === f.svc) && (!f.st || r.status === f.st) && (!f.lv || r.level === f.lv) &&
    (!f.q || (r.id + ' ' + r.quote + ' ' + r.statement).toLowerCase().includes(f.q));
}
function render() {
  const f = { svc: $('#f-service').value, st: $('#f-status').value, lv: $('#f-level').value, q: $('#f-text').value.toLowerCase() };
  const rows = report.rules.filter((r) => matches(r, f));
  $('#shown').textContent = rows.length + ' of ' + report.rules.length + ' rules';
  const hidden = report.rules.filter((r) => r.status === 'warning' && !matches(r, f)).length;
  $('#hidden').hidden = hidden === 0;
  $('#hidden-text').textContent = hidden + (hidden === 1 ? ' warning' : ' warnings') + ' hidden by the filter — ';
  $('#rules tbody').innerHTML = rows.length ? rows.map((r) => '<tr class="rule' + (isKnown(r) ? ' known-failure' : '') + '" data-status="' + esc(r.status) + '" data-id="' + esc(r.id) + '"><td class="id">' + ruleId(r.id) + '</td><td class="level">' + esc(r.level) +
    '</td>' + status(r) + '<td><div class="quote">“' + esc(r.quote) + '”</div><div>' + esc(r.statement) + '</div>' +
    (r.reason ? '<div class="note">' + esc(r.reason) + '</div>' : '') + (r.observed ? '<div class="note">Observed: ' + esc(r.observed.join(' | ')) + '</div>' : '') +
    (r.warning ? warning(r.warning) : '') + evidence(r) + '</td></tr>').join('') : '<tr><td colspan="4" class="empty">No rule matches the filters.</td></tr>';
}
function showAll() { for (const id of ['#f-service','#f-status','#f-level','#f-text']) $(id).value = ''; render(); }
cards(); option($('#f-service'), services); option($('#f-status'), statuses); option($('#f-level'), ['MUST','SHOULD','MAY','UNSPECIFIED']);
for (const id of ['#f-service','#f-status','#f-level','#f-text']) $(id).addEventListener('input', render);
$('#show-all').addEventListener('click', showAll);
document.getElementById('cards').addEventListener('click', (e) => { const c = e.target.closest('.card'); if (c) { $('#f-service').value = c.dataset.service; render(); } });
document.addEventListener('click', (e) => { const a = e.target.closest('[data-rule]'); if (!a) return; e.preventDefault(); showAll(); $('#f-text').value = a.dataset.rule; render(); $('#rules').scrollIntoView(); });
// Opened on the failures when there are any; the banner says what that hides.
if (report.rules.some((r) => r.status === 'failed')) $('#f-status').value = 'failed';
render();
`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** Tests that ran at the same time are put on lanes of their own, the first lane free at their start. */
function lanes(tests: readonly TestTiming[]): TestTiming[][] {
  const out: TestTiming[][] = [];
  const ends: number[] = [];
  for (const t of tests) {
    let lane = ends.findIndex((end) => end <= t.startMs);
    if (lane < 0) lane = out.push([]) - 1;
    out[lane].push(t);
    ends[lane] = t.startMs + t.durationMs;
  }
  return out;
}

/** The run's tests on a time line, one group of lanes per service: when each started and how long it took. */
function timeline(report: ConformanceReport): string {
  const tests = report.tests ?? [];
  if (!tests.length) return '';
  const span = Math.max(1, report.durationMs, ...tests.map((t) => t.startMs + t.durationMs));
  const pct = (ms: number) => ((100 * ms) / span).toFixed(3);
  const groups = SERVICES.filter((s) => tests.some((t) => t.service === s)).map((s) => {
    const rows = lanes(tests.filter((t) => t.service === s))
      .map(
        (lane) =>
          `<div class="lane">${lane
            .map(
              (t) =>
                `<span class="t ${esc(t.state)}" style="left:${pct(t.startMs)}%;width:${pct(t.durationMs)}%" title="${esc(`${t.name} — ${seconds(t.durationMs)}, ${t.state}, from ${seconds(t.startMs)}`)}"></span>`,
            )
            .join('')}</div>`,
      )
      .join('');
    return `<div class="service">${esc(s)}</div><div class="lanes">${rows}</div>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => `<span style="left:${(f * 100).toFixed(0)}%">${esc(seconds(f * span))}</span>`)
    .join('');
  const slowest = [...tests].sort((a, b) => b.durationMs - a.durationMs)[0];
  const first = tests[0].startMs;
  return `<details class="panel timeline" open><summary><h2 class="section" style="display:inline">Time line</h2> <span class="note">${esc(tests.length)} tests in a run of ${esc(seconds(span))}${first >= 1000 ? `, the first ${esc(seconds(first))} in (start-up, the check that the target answers, the leftover sweep)` : ''}; the longest: ${esc(slowest.name)} (${esc(seconds(slowest.durationMs))})</span></summary>
${groups.join('\n')}
<div class="axis">${ticks}</div></details>`;
}

function changeList(title: string, changes: readonly RuleChange[]): string {
  if (!changes.length) return '';
  return `<details><summary>${esc(title)}</summary><ul>${changes
    .map(
      (c) =>
        `<li><a href="#" data-rule="${esc(c.id)}">${esc(c.id)}</a> <span class="note">${esc(c.level)}, was ${esc(c.before)}</span></li>`,
    )
    .join('')}</ul></details>`;
}

/** How this run differs from a previous one (`run --compare-with`): the counts, and the rules that changed. */
function trend(report: ConformanceReport, previous: ConformanceReport | undefined): string {
  if (!previous) return '';
  const c = compareReports(previous, report);
  const n = (k: number, what: string) => `<span class="n">${esc(k)}</span> ${what}`;
  return `<section class="panel trend" id="trend"><h2 class="section">Since the previous run</h2>
<div class="note">Compared with the run of ${esc(previous.startedAt)} against <code>${esc(previous.target)}</code> (seed ${esc(previous.seed)}, verdict ${esc(previous.verdict)})</div>
<div class="counts">${[
    n(c.newlyFailed.length, 'newly failed'),
    ...(c.noLongerJudged.length ? [n(c.noLongerJudged.length, 'no longer judged')] : []),
    n(c.newlyPassed.length, 'newly passed'),
    n(c.newlyWarned.length, 'newly warning'),
    n(c.otherChanges.length, 'other changes'),
    n(c.unchanged, 'unchanged'),
    ...(c.onlyAfter.length ? [n(c.onlyAfter.length, 'new rules')] : []),
    ...(c.onlyBefore.length ? [n(c.onlyBefore.length, 'rules no longer in the catalog')] : []),
  ]
    .map((x) => `<span>${x}</span>`)
    .join(' ')}</div>
${changeList('Newly failed', c.newlyFailed)}${changeList('No longer judged', c.noLongerJudged)}${changeList('Newly passed', c.newlyPassed)}${changeList('Newly warning', c.newlyWarned)}${changeList('Other changes', c.otherChanges)}</section>`;
}

/**
 * One self-contained HTML page: a summary per service, how the run differs from `previous` (when
 * given), the tests on a time line, then every rule with its quote and status. A pure function of
 * its arguments (verify renders a bundle's page again and compares).
 */
export function htmlReport(report: ConformanceReport, previous?: ConformanceReport): string {
  const c = report.counts.byStatus;
  const accepted = report.baseline?.accepted.length ?? 0;
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
  <div class="meta">${esc(report.counts.total)} rules: ${esc(c.passed)} passed, ${esc(c.failed)} failed${accepted ? ` (${esc(accepted)} known)` : ''}, ${esc(c.warning)} warning, ${esc(c.observed)} observed, ${esc(c.skipped)} skipped, ${esc(c['not-exercised'])} not exercised${report.http ? ` · ${esc(report.http.requests)} requests, ${esc(report.http.retriedAfter429)} throttled requests retried` : ''}</div>${report.baseline ? `\n  <div class="meta">Baseline ${esc(report.baseline.file)}: ${esc(accepted)} known failures accepted, ${esc(report.baseline.newFailures.length)} new, ${esc(report.baseline.stale.length)} stale${report.baseline.stale.length ? ` (${esc(report.baseline.stale.join(', '))})` : ''}</div>` : ''}
</header>
<main>
  <div id="cards" class="cards"></div>
  ${trend(report, previous)}
  ${timeline(report)}
  <div class="filters">
    <label>Service <select id="f-service"></select></label>
    <label>Status <select id="f-status"></select></label>
    <label>Level <select id="f-level"></select></label>
    <input type="search" id="f-text" placeholder="Search rules…" aria-label="Search rules">
    <span id="shown" class="note"></span>
  </div>
  <div id="hidden" class="banner" hidden><span id="hidden-text"></span><button type="button" id="show-all">show all</button></div>
  <table id="rules"><colgroup><col class="c-id"><col class="c-level"><col class="c-status"><col></colgroup><thead><tr><th>Rule</th><th>Level</th><th>Status</th><th>Source and evidence</th></tr></thead><tbody></tbody></table>
</main>
<script type="application/json" id="report-data">${embed(withNotes(report))}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
