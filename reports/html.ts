/**
 * report.html: one self-contained page (inline CSS and a small inline script, no network, no external
 * asset; a Content-Security-Policy forbids anything else). Verdict banner, the requirements matrix
 * grouped by section of the service document with filters by status and level, every failure
 * expandable (<details>) with request, response, reason, counterexample and curl reproduction, and
 * the implementation profile: what the target chose on every point the document leaves open.
 *
 * Everything that is not a literal of this file goes through esc(): bodies, headers and messages come
 * from an untrusted target.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from '../core/check/evidence.ts';
import { coverageLines } from '../core/run/coverage.ts';
import { esc } from './escape.ts';
import { htmlHead } from './html-head.ts';
import {
  byOperation,
  bySection,
  durationText,
  LEVEL_ORDER,
  mustNotJudgedParts,
  observedPretty,
  observedText,
  oneLine,
  prettyBody,
  replayCheckCommand,
  scopeText,
  tally,
} from './format.ts';
import {
  REQUIREMENT_STATUSES,
  type ConformanceReport,
  type RequirementFailure,
  type RequirementResult,
} from './model.ts';

// Rows carry data-status / data-level; the filters hide the rows (and the sections) that do not match.
// Without scripts the page shows everything and the filter bar stays hidden.
const SCRIPT = `(function () {
  var status = document.getElementById('filter-status');
  var level = document.getElementById('filter-level');
  var shown = document.getElementById('shown');
  function apply() {
    var rows = document.querySelectorAll('tr.req');
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (!status.value || r.getAttribute('data-status') === status.value) && (!level.value || r.getAttribute('data-level') === level.value);
      r.hidden = !ok;
      if (ok) n++;
    }
    var groups = document.querySelectorAll('section.group');
    for (var j = 0; j < groups.length; j++) groups[j].hidden = !groups[j].querySelector('tr.req:not([hidden])');
    shown.textContent = n + ' of ' + rows.length + ' requirements shown';
  }
  status.addEventListener('change', apply);
  level.addEventListener('change', apply);
  var quick = document.querySelectorAll('button[data-show]');
  for (var k = 0; k < quick.length; k++) quick[k].addEventListener('click', function (e) {
    status.value = e.currentTarget.getAttribute('data-show');
    level.value = '';
    apply();
  });
  document.getElementById('filters').hidden = false;
  apply();
})();`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

const CSS = `
:root { --pass: #2e8540; --fail: #d73a49; --error: #c25e00; --skip: #6a737d; --disabled: #959da5; --observed: #0366d6; --line: #d0d7de; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f6f8fa; }
main { max-width: 1200px; margin: 0 auto; padding: 0 16px 48px; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0 10px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
h2 { margin: 28px 0 10px; font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 18px 0 6px; font-size: 16px; }
h4 { margin: 10px 0 4px; font-size: 14px; }
h5 { margin: 8px 0 2px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: #57606a; }
.banner { color: #fff; padding: 22px 16px; }
.banner > div { max-width: 1200px; margin: 0 auto; }
.banner.v-conformant { background: var(--pass); }
.banner.v-non-conformant { background: var(--fail); }
.banner.v-error { background: var(--skip); }
.banner.v-incomplete { background: var(--skip); }
.banner .word { font-size: 30px; font-weight: 700; letter-spacing: .02em; }
.banner .sub { opacity: .95; margin-top: 4px; overflow-wrap: anywhere; }
.banner code { color: #fff; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.facts dt { color: #57606a; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f0f3f6; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n.hot { color: var(--fail); font-weight: 700; }
table.counts { width: auto; margin-bottom: 10px; }
td, td code { overflow-wrap: anywhere; }
table.matrix, table.profile { table-layout: fixed; }
/* Narrow windows: each requirement's cells stack, so its evidence gets the whole width, not a column. */
@media (max-width: 1000px) {
  table.matrix, table.matrix tbody, table.matrix tr, table.matrix td { display: block; width: auto; }
  table.matrix thead { display: none; }
  table.matrix td { border-width: 0 1px; }
  table.matrix tr.req { border-bottom: 1px solid var(--line); }
}
table.matrix th:nth-child(1) { width: 18%; } table.matrix th:nth-child(2) { width: 80px; }
table.matrix th:nth-child(3) { width: 90px; } table.matrix th:nth-child(4) { width: 90px; }
table.profile th:nth-child(1) { width: 22%; } table.profile th:nth-child(2) { width: 90px; } table.profile th:nth-child(3) { width: 26%; }
pre.observed { margin: 0; max-height: 260px; }
.op { color: #57606a; font-size: 12px; }
.statement { margin: 0; }
.interp { margin: 4px 0 0; color: #57606a; font-size: 12.5px; }
.basis { margin: 4px 0 0; padding-left: 8px; border-left: 3px solid #d0d7de; font-size: 12.5px; }
.basis cite { font-style: normal; color: #57606a; margin-right: 4px; }
.reason { margin: 4px 0 0; overflow-wrap: anywhere; }
.st { display: inline-block; min-width: 62px; text-align: center; border-radius: 10px; padding: 0 8px; color: #fff; font-size: 12px; font-weight: 600; }
.st-pass { background: var(--pass); } .st-fail { background: var(--fail); } .st-error { background: var(--error); }
.st-skip { background: var(--skip); } .st-disabled { background: var(--disabled); } .st-observed { background: var(--observed); }
tr.req[data-status="fail"] { background: #fff5f5; }
tr.req[data-status="error"] { background: #fff8f0; }
/* A failure's link scrolls its row below the sticky filter bar, not under it. */
tr.req, section { scroll-margin-top: 64px; }
.filters { position: sticky; top: 0; z-index: 1; background: #f6f8fa; padding: 8px 0; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; border-bottom: 1px solid var(--line); }
.filters select, .filters button { font: inherit; padding: 2px 6px; }
#shown { color: #57606a; }
#failures ul { padding-left: 18px; } #failures li { margin: 3px 0; overflow-wrap: anywhere; }
details.evidence { margin-top: 6px; }
details.evidence > summary { cursor: pointer; color: var(--fail); font-weight: 600; }
.failure { border-left: 3px solid var(--fail); padding: 2px 0 2px 10px; margin: 8px 0; }
.exchange.failing h5 { color: var(--fail); }
.ms { color: #57606a; font-weight: normal; text-transform: none; letter-spacing: 0; }
.note { color: #57606a; font-size: 12.5px; }
footer { color: #57606a; font-size: 12px; margin-top: 32px; }
`;

const VERDICT_WORD: Record<ConformanceReport['verdict'], string> = {
  conformant: 'Conformant',
  'non-conformant': 'Non-conformant',
  error: 'Error',
  incomplete: 'Incomplete',
};

export function reportHtml(report: ConformanceReport): string {
  const title = `Conformance ${report.specVersion}: ${report.verdict} — ${report.target.baseUrl}`;
  return [
    ...htmlHead(title, CSP, CSS),
    '<body>',
    banner(report),
    '<main>',
    failuresSection(report),
    runSection(report),
    countsSection(report),
    matrixSection(report),
    profileSection(report),
    targetSection(report),
    `<footer>report.html written by ${esc(report.suite.name)} ${esc(report.suite.version)} from the same report model as report.json, junit.xml, summary.md and badge.svg.</footer>`,
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function banner(report: ConformanceReport): string {
  const c = report.counts;
  const mustFail = c.MUST.fail;
  const shouldFail = c.SHOULD.fail;
  const errors = c.MUST.error + c.SHOULD.error + c.UNSPECIFIED.error;
  const why =
    report.verdict === 'incomplete'
      ? `${report.run.incomplete ?? 'MUST requirements were not judged'}; the verdict does not cover them`
      : report.verdict === 'non-conformant'
        ? `${mustFail} MUST requirement${mustFail === 1 ? '' : 's'} failed${report.run.failOn === 'should' && shouldFail ? `, ${shouldFail} SHOULD (the run fails on SHOULD)` : ''}`
        : report.verdict === 'error'
          ? `no requirement failed, but ${errors} could not be judged (error)`
          : `no MUST requirement failed${shouldFail ? `; ${shouldFail} SHOULD requirement${shouldFail === 1 ? '' : 's'} failed (reported, not fatal)` : ''}`;
  const scope = scopeText(report);
  // What the verdict does not cover, in summary.md's words (an incomplete run's `why` says its own).
  const notJudged = mustNotJudgedParts(report);
  return [
    `<header id="verdict" class="banner v-${esc(report.verdict)}" role="status">`,
    '<div>',
    `<div class="word" data-verdict="${esc(report.verdict)}">${esc(VERDICT_WORD[report.verdict])}</div>`,
    `<div class="sub">${esc([why, ...notJudged].join('; '))}.</div>`,
    `<div class="sub">Service interface ${esc(report.specVersion)} · target <code>${esc(report.target.baseUrl)}</code>${scope ? ` · ${esc(scope)}` : ''}</div>`,
    '</div>',
    '</header>',
  ].join('\n');
}

/** Failures and errors first, each linking to its row of the matrix (where its evidence expands). */
function failuresSection(report: ConformanceReport): string {
  const bad = report.requirements.filter((r) => r.status === 'fail' || r.status === 'error');
  if (bad.length === 0) return '';
  return [
    '<section id="failures">',
    `<h2>Failures and errors (${bad.length})</h2>`,
    '<ul>',
    ...bad.map(
      (r) =>
        `<li><span class="st st-${esc(r.status)}">${esc(r.status)}</span> <a href="#req-${esc(r.id)}"><code>${esc(r.id)}</code></a> (${esc(r.level)}, section ${esc(r.section)}): ${esc(oneLine(r.reason ?? '', 240))}</li>`,
    ),
    '</ul>',
    '</section>',
  ].join('\n');
}

function runSection(report: ConformanceReport): string {
  const r = report.run;
  const facts: Array<[string, string]> = [
    ['Document', esc(report.specDocument)],
    ['Spec version', esc(report.specVersion)],
    [
      'Suite',
      `${esc(report.suite.name)} ${esc(report.suite.version)} (commit <code>${esc(report.suite.commit)}</code>)`,
    ],
    ['Target', `<code>${esc(report.target.baseUrl)}</code>`],
    ['Seed', esc(r.seed)],
    ['Started', `<time data-volatile="startedAt" datetime="${esc(r.startedAt)}">${esc(r.startedAt)}</time>`],
    ['Run took (engine start to report)', `<span data-volatile="durationMs">${esc(durationText(r.durationMs))}</span>`],
    ['Requests', `${esc(r.requests)} (${esc(r.retries)} retries; budget ${esc(r.maxRequests)})`],
    ['Property runs', esc(r.numRuns)],
    ['Fails on', r.failOn === 'should' ? 'MUST and SHOULD failures' : 'MUST failures (SHOULD failures are reported)'],
    ['Replay', `<code>${esc(r.replay)}</code>`],
  ];
  for (const warning of r.warnings ?? []) facts.push(['Warning', esc(warning)]);
  // What the verdict covers of each listing (rule "No green without evidence").
  for (const line of r.coverage ? coverageLines(r.coverage) : []) facts.push(['Listing', esc(line)]);
  if (r.budgetExhausted.length)
    facts.push(['Budget spent', r.budgetExhausted.map((c) => `<code>${esc(c)}</code>`).join(', ')]);
  const scope = scopeText(report);
  if (scope) facts.push(['Scope', esc(scope)]);
  return [
    '<section id="run">',
    '<h2>Run</h2>',
    '<dl class="facts">',
    ...facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`),
    '</dl>',
    '</section>',
  ].join('\n');
}

function countsTable(first: string, rows: Array<{ name: string; counts: Record<string, number> }>): string {
  return [
    '<table class="counts">',
    `<thead><tr><th>${esc(first)}</th>${REQUIREMENT_STATUSES.map((s) => `<th>${esc(s)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
    ...rows.map(
      (row) =>
        `<tr><th>${esc(row.name)}</th>${REQUIREMENT_STATUSES.map((s) => `<td class="n${(s === 'fail' || s === 'error') && row.counts[s] ? ' hot' : ''}">${esc(row.counts[s] ?? 0)}</td>`).join('')}</tr>`,
    ),
    '</tbody>',
    '</table>',
  ].join('\n');
}

function countsSection(report: ConformanceReport): string {
  return [
    '<section id="counts">',
    '<h2>Counts</h2>',
    countsTable(
      'level',
      LEVEL_ORDER.map((l) => ({ name: l, counts: report.counts[l] })),
    ),
    countsTable(
      'operation',
      byOperation(report.requirements).map((g) => ({ name: g.operation, counts: tally(g.requirements) })),
    ),
    '</section>',
  ].join('\n');
}

function matrixSection(report: ConformanceReport): string {
  const out = [
    '<section id="matrix">',
    '<h2>Requirements</h2>',
    '<div id="filters" class="filters" hidden>',
    `<label>Status <select id="filter-status"><option value="">all</option>${REQUIREMENT_STATUSES.map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join('')}</select></label>`,
    `<label>Level <select id="filter-level"><option value="">all</option>${LEVEL_ORDER.map((l) => `<option value="${esc(l)}">${esc(l)}</option>`).join('')}</select></label>`,
    '<button type="button" data-show="fail">failures only</button>',
    '<button type="button" data-show="">everything</button>',
    '<span id="shown"></span>',
    '</div>',
  ];
  for (const group of bySection(report.requirements)) {
    out.push(
      `<section class="group" data-section="${esc(group.section)}">`,
      `<h3>${esc(group.title)}</h3>`,
      '<table class="matrix">',
      '<thead><tr><th>Requirement</th><th>Level</th><th>Status</th><th>Section</th><th>Statement and result</th></tr></thead>',
      '<tbody>',
      ...group.requirements.map((r) => row(report, r)),
      '</tbody>',
      '</table>',
      '</section>',
    );
  }
  out.push('</section>');
  return out.join('\n');
}

function row(report: ConformanceReport, r: RequirementResult): string {
  const result: string[] = [`<p class="statement">${esc(r.statement)}</p>`];
  if (r.interpretation) result.push(`<p class="interp">Read as: ${esc(r.interpretation)}</p>`);
  for (const b of r.basis ?? [])
    result.push(`<blockquote class="basis"><cite>Section ${esc(b.section)}</cite> ${esc(b.quote)}</blockquote>`);
  if (r.status === 'observed' || (r.observed?.length && r.status !== 'fail'))
    result.push(
      `<p class="reason">Observed: <code>${esc(observedText(r.observed, 300))}</code>${r.level === 'UNSPECIFIED' ? ' <a href="#profile">(profile)</a>' : ''}</p>`,
    );
  if (r.reason && r.status !== 'fail') result.push(`<p class="reason">${esc(r.status)}: ${esc(r.reason)}</p>`);
  if (r.status === 'fail') {
    result.push(`<p class="reason"><strong>${esc(r.reason ?? 'failed')}</strong></p>`);
    const failures = r.failures ?? [];
    result.push(
      '<details class="evidence">',
      `<summary>Evidence: ${failures.length} failure${failures.length === 1 ? '' : 's'} — request, response, reproduction</summary>`,
      ...failures.map((f) => failureBlock(report, f)),
      '</details>',
    );
  }
  const checks = r.checks.length
    ? r.checks.map((c) => `<code>${esc(c)}</code>`).join(' ')
    : '<span class="note">no check</span>';
  return [
    `<tr class="req" id="req-${esc(r.id)}" data-status="${esc(r.status)}" data-level="${esc(r.level)}">`,
    `<td><code>${esc(r.id)}</code><div class="op">${esc(r.operation)} · ${checks}</div></td>`,
    `<td class="lvl">${esc(r.level)}</td>`,
    `<td class="st-cell"><span class="st st-${esc(r.status)}">${esc(r.status)}</span></td>`,
    `<td class="sec">${esc(r.section)}</td>`,
    `<td>${result.join('\n')}</td>`,
    '</tr>',
  ].join('\n');
}

function failureBlock(report: ConformanceReport, f: RequirementFailure): string {
  const check = report.checks.find((c) => c.checkId === f.checkId);
  const out = [
    '<div class="failure">',
    `<h4>Check <code>${esc(f.checkId)}</code>${check ? ` — ${esc(check.title)}` : ''}</h4>`,
    `<h5>Reason</h5><p class="reason">${esc(f.message)}</p>`,
  ];
  for (const [i, x] of f.exchanges.entries())
    out.push(exchangeBlock(x, i === f.exchanges.length - 1, f.exchanges.length));
  if (f.counterexample) {
    out.push(
      '<h5>Counterexample</h5>',
      `<pre class="counterexample">${esc(JSON.stringify(f.counterexample.value, null, 2) ?? 'undefined')}</pre>`,
      `<p class="note">fast-check seed ${esc(f.counterexample.seed)}${f.counterexample.path ? `, path ${esc(f.counterexample.path)}` : ''}${f.counterexample.numRuns ? `, ${esc(f.counterexample.numRuns)} runs` : ''}. Replay:</p>`,
      `<pre class="replay">${esc(replayCheckCommand(report, f.checkId, f.counterexample.path))}</pre>`,
    );
  } else {
    // Every failure can be run again alone: its check, with the run's seed and options.
    out.push('<h5>Replay this check</h5>', `<pre class="replay">${esc(replayCheckCommand(report, f.checkId))}</pre>`);
  }
  if (f.curl)
    out.push(
      '<h5>Reproduce with curl (keys from the environment variables the target file names)</h5>',
      `<pre class="curl">${esc(f.curl)}</pre>`,
    );
  out.push('</div>');
  return out.join('\n');
}

function exchangeBlock(x: Exchange, failing: boolean, total: number): string {
  const label = total > 1 ? (failing ? ' (the failing one)' : ' (earlier)') : '';
  const request = [
    `${x.request.method} ${x.request.url}`,
    ...Object.entries(x.request.headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\n');
  const out = [
    `<div class="exchange${failing ? ' failing' : ''}">`,
    `<h5>Request${esc(label)}${x.harEntry !== undefined ? ` <span class="ms">evidence.har entry ${esc(x.harEntry)}</span>` : ''}</h5>`,
    `<pre class="request">${esc(request)}</pre>`,
  ];
  if (x.response) {
    const head = [
      `HTTP ${x.response.status}`,
      ...Object.entries(x.response.headers).map(([k, v]) => `${k}: ${v}`),
    ].join('\n');
    out.push(
      `<h5>Response <span class="ms" data-volatile="durationMs">${esc(x.durationMs)} ms</span>${x.retries ? ` <span class="ms">after ${esc(x.retries)} retries</span>` : ''}</h5>`,
      `<pre class="response">${esc(head)}\n\n${esc(prettyBody(x.response.body))}</pre>`,
    );
    if (x.response.truncated) out.push('<p class="note">Body truncated for the report.</p>');
  }
  if (x.error) out.push(`<h5>Transport error</h5><pre class="response">${esc(x.error)}</pre>`);
  out.push('</div>');
  return out.join('\n');
}

function profileSection(report: ConformanceReport): string {
  const points = report.requirements.filter((r) => r.level === 'UNSPECIFIED');
  return [
    '<section id="profile">',
    '<h2>Implementation profile</h2>',
    '<p class="note">What the target chose on every point the service document leaves open ("not shown"). These are observed and reported, never failed.</p>',
    '<table class="profile">',
    '<thead><tr><th>Point</th><th>Section</th><th>Question</th><th>Observed</th></tr></thead>',
    '<tbody>',
    ...points.map(
      (r) =>
        `<tr data-status="${esc(r.status)}"><td><code>${esc(r.id)}</code><div class="op">${esc(r.operation)}</div></td><td>${esc(r.section)}</td><td>${esc(r.statement)}</td><td>${
          r.observed?.length
            ? `<pre class="observed">${esc(observedPretty(r.observed))}</pre>`
            : `<span class="note">not observed (${esc(r.status)}${r.reason ? `: ${esc(r.reason)}` : ''})</span>`
        }</td></tr>`,
    ),
    '</tbody>',
    '</table>',
    '</section>',
  ].join('\n');
}

function targetSection(report: ConformanceReport): string {
  return [
    '<section id="target">',
    '<h2>Target file</h2>',
    '<p class="note">As loaded, without its keys (they never leave the HTTP client).</p>',
    `<pre>${esc(JSON.stringify(report.target.file, null, 2))}</pre>`,
    '</section>',
  ].join('\n');
}

/** Exposed for the tests: the hash the page's Content-Security-Policy allows for its one script. */
export const HTML_SCRIPT_SHA256 = SCRIPT_HASH;
