/**
 * The comparison of two reports on the console: requirements whose status differs and the
 * implementation-profile observations that differ, each in columns A | B. Every value comes from a
 * report, which holds what a target sent: it goes through terminalSafe (no control character reaches
 * the terminal) and is cut to a column's width.
 */
import { terminalSafe } from '../core/text/terminal-text.ts';
import type { DiffSide, ObservationDifference, ReportComparison, SideStatus } from './diff-compare.ts';
import { compactJson, oneLine } from './format.ts';

const VALUE_WIDTH = 44;
const PATH_WIDTH = 48;

/** One value of a report for a column: one line, control characters escaped, at most `max` characters. */
function cell(value: string, max: number): string {
  const safe = terminalSafe(oneLine(value, max * 4));
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - [...s].length));
}

function statusText(s: SideStatus): string {
  return s.status === 'absent' ? '(absent)' : s.status;
}

/** A side with no value at a leaf: what its report says instead. */
function missingText(s: SideStatus): string {
  if (s.status === 'absent') return '(not in this report)';
  if (s.status === 'observed') return '(not present)';
  return `(not observed: ${s.status}${s.reason ? `, ${s.reason}` : ''})`;
}

function sideLine(name: 'A' | 'B', s: DiffSide): string {
  const parts = [
    s.file,
    s.baseUrl,
    s.verdict,
    `seed ${s.seed}`,
    ...(s.failOn === 'should' ? ['--fail-on should'] : []),
    ...(s.scope ? [s.scope] : []),
  ];
  return `${name}  ${parts.map((p) => cell(String(p), 120)).join('  ')}`;
}

/** The rows of one observation: path | A | B, the columns as wide as their longest cell (within bounds). */
function leafRows(d: ObservationDifference): string[] {
  const rows = d.leaves.map((leaf) => [
    cell(leaf.path, PATH_WIDTH),
    cell('a' in leaf ? compactJson(leaf.a) : missingText(d.a), VALUE_WIDTH),
    cell('b' in leaf ? compactJson(leaf.b) : missingText(d.b), VALUE_WIDTH),
  ]);
  const pathWidth = Math.max(5, ...rows.map((r) => [...r[0]!].length));
  const aWidth = Math.max(1, ...rows.map((r) => [...r[1]!].length));
  return [
    `    ${pad('', pathWidth)}  ${pad('A', aWidth)}  B`,
    ...rows.map(([path, a, b]) => `    ${pad(path!, pathWidth)}  ${pad(a!, aWidth)}  ${b}`),
  ];
}

export function diffText(c: ReportComparison): string {
  const out = [
    sideLine('A', c.a),
    sideLine('B', c.b),
    cell(`${c.specDocument} ${c.specVersion}; ${c.suite.name} ${c.suite.version}`, 160),
    '',
  ];

  if (c.statuses.length) {
    const idWidth = Math.min(48, Math.max(11, ...c.statuses.map((d) => cell(d.id, 48).length)));
    out.push(`Requirements whose status differs: ${c.statuses.length}`);
    out.push(`  ${pad('requirement', idWidth)}  ${pad('level', 6)}  ${pad('section', 12)}  ${pad('A', 10)}  B`);
    for (const d of c.statuses) {
      out.push(
        `  ${pad(cell(d.id, 48), idWidth)}  ${pad(d.level, 6)}  ${pad(cell(d.section, 12), 12)}  ${pad(statusText(d.a), 10)}  ${statusText(d.b)}`,
      );
      // The reason of each side that did not pass: what a reader needs to see why they part ways.
      for (const [name, s] of [
        ['A', d.a],
        ['B', d.b],
      ] as const)
        if (s.reason) out.push(`      ${name}: ${cell(s.reason, 150)}`);
    }
    out.push('');
  }

  if (c.observations.length) {
    out.push(
      `Implementation profile: observations that differ: ${c.observations.length} (points the document leaves open; neither side fails on them)`,
    );
    for (const d of c.observations) {
      out.push(`  ${cell(d.id, 60)} (${cell(d.section, 20)}): ${cell(d.statement, 110)}`);
      out.push(...leafRows(d));
    }
    out.push('');
  }

  out.push(
    c.agree
      ? 'The two reports agree: every requirement has the same status and every observation the same value.'
      : c.statuses.length
        ? `The two reports differ: ${c.statuses.length} requirement${c.statuses.length === 1 ? '' : 's'} by status, ${c.observations.length} observation${c.observations.length === 1 ? '' : 's'}.`
        : `The two reports differ only in observations: ${c.observations.length} (no requirement's status differs).`,
  );
  if (c.a.verdict !== c.b.verdict && c.statuses.length === 0 && c.a.failOn !== c.b.failOn)
    out.push(`The verdicts differ (${c.a.verdict}, ${c.b.verdict}) because the runs used different --fail-on.`);
  return `${out.join('\n')}\n`;
}
