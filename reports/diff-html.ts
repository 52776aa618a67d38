/**
 * The comparison of two reports as one self-contained HTML page (`conformance diff A B --html FILE`):
 * no script, no network, no external asset, and a Content-Security-Policy that forbids them. The
 * requirements whose status differs and the implementation-profile observations that differ, side by
 * side in columns A and B. Every value that is not a literal of this file goes through esc(): reports
 * hold what targets sent.
 */
import { esc } from './escape.ts';
import { htmlHead } from './html-head.ts';
import type {
  DiffSide,
  LeafDifference,
  ObservationDifference,
  ReportComparison,
  SideObservation,
  SideStatus,
} from './diff-compare.ts';
import { compactJson, observedPretty, oneLine } from './format.ts';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CSS = `
:root { --pass: #2e8540; --fail: #d73a49; --error: #c25e00; --skip: #6a737d; --disabled: #959da5; --observed: #0366d6; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f6f8fa; }
main { max-width: 1280px; margin: 0 auto; padding: 0 16px 48px; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 320px; overflow: auto; }
h1 { font-size: 24px; margin: 0; }
h2 { margin: 28px 0 10px; font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.banner { color: #fff; padding: 20px 16px; }
.banner > div { max-width: 1280px; margin: 0 auto; }
.banner.agree { background: var(--pass); } .banner.differ { background: var(--error); }
table { border-collapse: collapse; width: 100%; background: #fff; table-layout: fixed; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f0f3f6; font-weight: 600; }
table.sides th:first-child { width: 40px; } table.sides th:nth-child(2) { width: 28%; } table.sides th:nth-child(3) { width: 22%; }
table.statuses th:nth-child(1) { width: 22%; } table.statuses th:nth-child(2) { width: 80px; } table.statuses th:nth-child(3) { width: 90px; }
table.profile th:nth-child(1) { width: 22%; }
table.leaves { margin-top: 6px; } table.leaves th:first-child { width: 30%; }
.st { display: inline-block; min-width: 62px; text-align: center; border-radius: 10px; padding: 0 8px; color: #fff; font-size: 12px; font-weight: 600; background: var(--skip); }
.st-pass { background: var(--pass); } .st-fail { background: var(--fail); } .st-error { background: var(--error); }
.st-disabled { background: var(--disabled); } .st-observed { background: var(--observed); }
.reason { margin: 4px 0 0; }
.note { color: #57606a; font-size: 12.5px; }
.op { color: #57606a; font-size: 12px; }
`;

function status(s: SideStatus): string {
  const word = s.status === 'absent' ? 'not in this report' : s.status;
  return `<span class="st st-${esc(s.status)}">${esc(word)}</span>${s.reason ? `<p class="reason">${esc(oneLine(s.reason, 600))}</p>` : ''}`;
}

function observation(s: SideObservation): string {
  if (s.observed.length) return `<pre>${esc(observedPretty(s.observed))}</pre>`;
  return `<span class="note">not observed (${esc(s.status === 'absent' ? 'not in this report' : s.status)}${s.reason ? `: ${esc(oneLine(s.reason, 300))}` : ''})</span>`;
}

function leafValue(leaf: LeafDifference, side: 'a' | 'b'): string {
  return side in leaf ? `<code>${esc(compactJson(leaf[side], 600))}</code>` : '<span class="note">absent</span>';
}

function sidesSection(c: ReportComparison): string {
  const row = (name: string, s: DiffSide) =>
    `<tr><th>${name}</th><td><code>${esc(s.file)}</code></td><td><code>${esc(s.baseUrl)}</code></td><td>${esc(s.verdict)}${s.failOn === 'should' ? ' (fails on SHOULD)' : ''}</td><td>${esc(s.seed)}</td><td>${esc(s.startedAt)}</td><td><code>${esc(s.suiteCommit)}</code>${s.scope ? ` · ${esc(s.scope)}` : ''}</td></tr>`;
  return [
    '<section id="sides">',
    '<h2>Reports</h2>',
    '<table class="sides">',
    '<thead><tr><th></th><th>Report</th><th>Target</th><th>Verdict</th><th>Seed</th><th>Started</th><th>Suite commit</th></tr></thead>',
    '<tbody>',
    row('A', c.a),
    row('B', c.b),
    '</tbody>',
    '</table>',
    `<p class="note">${esc(c.specDocument)} ${esc(c.specVersion)}; ${esc(c.suite.name)} ${esc(c.suite.version)}.</p>`,
    '</section>',
  ].join('\n');
}

function statusesSection(c: ReportComparison): string {
  return [
    '<section id="statuses">',
    `<h2>Requirements whose status differs (${c.statuses.length})</h2>`,
    c.statuses.length === 0
      ? '<p class="note">Every MUST and SHOULD requirement has the same status in both reports.</p>'
      : [
          '<table class="statuses">',
          '<thead><tr><th>Requirement</th><th>Level</th><th>Section</th><th>A</th><th>B</th></tr></thead>',
          '<tbody>',
          ...c.statuses.map(
            (d) =>
              `<tr id="req-${esc(d.id)}"><td><code>${esc(d.id)}</code><div class="op">${esc(d.operation)}</div><p class="reason">${esc(d.statement)}</p></td><td>${esc(d.level)}</td><td>${esc(d.section)}</td><td>${status(d.a)}</td><td>${status(d.b)}</td></tr>`,
          ),
          '</tbody>',
          '</table>',
        ].join('\n'),
    '</section>',
  ].join('\n');
}

function profileRow(d: ObservationDifference): string {
  const leaves = d.leaves.length
    ? [
        '<table class="leaves">',
        '<thead><tr><th>Where</th><th>A</th><th>B</th></tr></thead>',
        '<tbody>',
        ...d.leaves.map(
          (l) =>
            `<tr><td><code>${esc(l.path)}</code></td><td>${leafValue(l, 'a')}</td><td>${leafValue(l, 'b')}</td></tr>`,
        ),
        '</tbody>',
        '</table>',
      ].join('\n')
    : '';
  return [
    `<tr id="obs-${esc(d.id)}"><td><code>${esc(d.id)}</code><div class="op">${esc(d.operation)} · section ${esc(d.section)}</div><p class="reason">${esc(d.statement)}</p></td>`,
    `<td>${observation(d.a)}</td><td>${observation(d.b)}</td></tr>`,
    leaves ? `<tr class="leaves-of"><td class="note">What differs</td><td colspan="2">${leaves}</td></tr>` : '',
  ].join('');
}

function profileSection(c: ReportComparison): string {
  return [
    '<section id="profile">',
    `<h2>Implementation profile: observations that differ (${c.observations.length})</h2>`,
    '<p class="note">Points the service document leaves open ("not shown"): what each target chose. Observed and reported, never failed.</p>',
    c.observations.length === 0
      ? '<p class="note">Every point was observed with the same value in both reports.</p>'
      : [
          '<table class="profile">',
          '<thead><tr><th>Point</th><th>A</th><th>B</th></tr></thead>',
          '<tbody>',
          ...c.observations.map(profileRow),
          '</tbody>',
          '</table>',
        ].join('\n'),
    '</section>',
  ].join('\n');
}

export function diffHtml(c: ReportComparison): string {
  const word = c.agree ? 'The two reports agree' : 'The two reports differ';
  const sub = c.agree
    ? 'Every requirement has the same status and every point left open the same observed value.'
    : `${c.statuses.length} requirement${c.statuses.length === 1 ? '' : 's'} by status, ${c.observations.length} observation${c.observations.length === 1 ? '' : 's'} of the implementation profile.`;
  return [
    ...htmlHead(`Comparison: ${c.a.baseUrl} and ${c.b.baseUrl}`, CSP, CSS),
    '<body>',
    `<header id="result" class="banner ${c.agree ? 'agree' : 'differ'}" role="status"><div><h1 data-agree="${c.agree}">${esc(word)}</h1><div>${esc(sub)}</div></div></header>`,
    '<main>',
    sidesSection(c),
    statusesSection(c),
    profileSection(c),
    `<p class="note">Written by ${esc(c.suite.name)} ${esc(c.suite.version)} (conformance diff).</p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
