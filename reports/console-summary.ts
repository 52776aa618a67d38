import { join } from 'node:path';
import { coverageLines } from '../core/run/coverage.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { durationText, RUN_TIME_LABEL, verdictLine, waitingText } from './format.ts';
import type { ConformanceReport } from './model.ts';
import { REPORT_FILES } from './write-report.ts';

const NOT_REACHED_SHOWN = 3;

/** The closing block a run prints: the verdict line, counts per level, requests and time, where the report is. */
export function consoleSummary(report: ConformanceReport, reportDir: string, elapsedMs: number): string {
  const c = report.counts;
  // A SHOULD failure under fail-on must is a warning on the console (WARN): its count says so too.
  const notGating = (l: keyof typeof c) =>
    l === 'SHOULD' && c[l].fail && report.run.failOn !== 'should' ? ' (not gating)' : '';
  const line = (l: keyof typeof c) =>
    `${l} ${c[l].pass} pass, ${c[l].fail} fail${notGating(l)}, ${c[l].error} error, ${c[l].skip} skip${c[l].observed ? `, ${c[l].observed} observed` : ''}`;
  // A MUST a failing check did not reach is named nowhere else on the console (no check skipped):
  // the verdict counts it, this line says which.
  const notReached = report.requirements.filter(
    (r) => r.level === 'MUST' && r.status === 'skip' && r.cause === 'not-reached',
  );
  const shown = notReached.slice(0, NOT_REACHED_SHOWN).map((r) => `MUST ${r.id} (${r.reason})`);
  const more =
    notReached.length > NOT_REACHED_SHOWN
      ? `; and ${notReached.length - NOT_REACHED_SHOWN} more (summary.md lists them)`
      : '';
  return [
    '',
    ...(notReached.length ? [`not judged: ${shown.join('; ')}${more}`] : []),
    // What the verdict covers of each listing (rule "No green without evidence").
    ...(report.run.coverage ? coverageLines(report.run.coverage).map((l) => `listing ${terminalSafe(l)}`) : []),
    `verdict: ${verdictLine(report)}`,
    `requirements: ${line('MUST')}; ${line('SHOULD')}; UNSPECIFIED ${c.UNSPECIFIED.observed} observed, ${c.UNSPECIFIED.skip} skip`,
    // The same measure, in the same words, as summary.md and report.html; then the command's own total.
    // The retries are said once: the time waited goes beside their count.
    `requests: ${report.run.requests} (${report.run.retries} retries${waitingText(report, false) ? `, ${waitingText(report, false)}` : ''}); ${RUN_TIME_LABEL} ${durationText(report.run.durationMs)}; command ${(elapsedMs / 1000).toFixed(1)} s from start to verdict`,
    `report: ${join(reportDir, 'report.html')}`,
    `also: ${Object.keys(REPORT_FILES)
      .filter((f) => f !== 'report.html')
      .map((f) => join(reportDir, f))
      .join(', ')}`,
    '',
  ].join('\n');
}
