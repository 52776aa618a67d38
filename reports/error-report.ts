/**
 * What a run that could not be made (exit 2 before any check: bad input, the target file, the
 * preflight, an empty selection; or exit 130/143 on a signal before the first check) leaves in its
 * report directory: the previous run's files are removed (only the suite's own: reports/safe-files.ts
 * removes what its marker lists, never a user's file), and two files say the error and its reason,
 * so every reader reaches the exit code's verdict:
 *
 * - junit.xml: one test case `run` with an <error>, so a reporter action counts failures + errors > 0
 *   as the exit code says (no file at all would read "no tests" and pass in several of them);
 * - summary.md: the error and its reason, which the Action puts in the job summary;
 * - evidence.har, when the run sent requests before it stopped (the preflight's, masked): what
 *   refused the run, as a run's evidence (reports/evidence.ts).
 *
 * No report.json, report.html or badge.svg: nothing was judged, and a script reading report.json
 * finds no verdict rather than an earlier run's.
 */
import { escAttr, esc, mdCode } from './escape.ts';
import { EVIDENCE_FILE } from './evidence.ts';
import type { EvidenceText } from './har.ts';
import { oneLine } from './format.ts';
import { prepareDir, ReportDirError, writeFilesSafely } from './safe-files.ts';
import { REPORT_ENTRIES } from './write-report.ts';

/** The two files, rendered from the reason (one line, already masked by the caller) and the exit code. */
export function errorReportFiles(reason: string, exitCode: number, at = new Date()): Map<string, string> {
  const line = oneLine(reason, 1_000);
  const junit = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escAttr(`conformance: ERROR — the run could not be made (exit ${exitCode})`)}" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${escAttr(at.toISOString())}">`,
    '  <testsuite name="conformance" tests="1" failures="0" errors="1" skipped="0">',
    '    <testcase name="run" classname="conformance">',
    `      <error message="${escAttr(line)}" type="exit-${exitCode}">${esc(line)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
  const summary = [
    `## ⚠️ Conformance: ERROR — the run could not be made (exit ${exitCode})`,
    '',
    `Reason: ${mdCode(line)}`,
    '',
    'Nothing was judged; the previous report in this directory was removed.',
    '',
  ].join('\n');
  return new Map([
    ['junit.xml', junit],
    ['summary.md', summary],
  ]);
}

/**
 * Replaces the report in `dir` with the error's files. A directory the suite may not write (a link,
 * foreign files without --force, another run's lock) or cannot write is left as it is: the error's
 * own line on stderr is then all the run says. Returns whether the files were written.
 */
export function replaceWithErrorReport(
  dir: string,
  reason: string,
  exitCode: number,
  options: { force?: boolean; outside?: boolean; evidence?: EvidenceText } = {},
): boolean {
  const allowed = { ...(options.force ? { force: true } : {}), ...(options.outside ? { outside: true } : {}) };
  try {
    prepareDir(dir, REPORT_ENTRIES, allowed);
    const files = errorReportFiles(reason, exitCode);
    if (options.evidence !== undefined) files.set(EVIDENCE_FILE, options.evidence);
    writeFilesSafely(dir, files, REPORT_ENTRIES, allowed);
    return true;
  } catch (e) {
    if (e instanceof ReportDirError) return false;
    throw e;
  }
}
