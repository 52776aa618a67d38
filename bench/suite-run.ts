/**
 * What one run of the suite said: its report (report.json of the run's report directory) and how the
 * command ended. A refused run (the preflight's exit 2, one line on stderr) writes no report and is
 * read as what it said.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reports/model.ts';
import { tail, type Ran } from './run.ts';

export interface SuiteOutcome {
  exitCode: number | null;
  timedOut: boolean;
  /** Spawn to exit of this run (one run: not a timing). */
  wallMs: number;
  verdict: string;
  /** report.json run.requests, and those answered from the run's memory (run.requestsSaved). */
  requests: number;
  saved?: number;
  /** Checks in the report: the suite under test is the working tree, which others may change mid-bench. */
  checks: number;
  failedChecks: string[];
  erroredChecks: string[];
  failedRequirements: string[];
  /** The failed requirements of level MUST (the ones that gate). */
  failedMust: string[];
  /** The last line the command wrote to stderr (what a refused run says). */
  stderrLine?: string;
  problem?: string;
}

export function suiteOutcome(r: Ran, reportDir: string, expectReport = true): SuiteOutcome {
  let report: ConformanceReport | undefined;
  let problem: string | undefined;
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
  } catch {
    if (expectReport || r.timedOut)
      problem = `no report.json (exit ${r.code}${r.timedOut ? ', killed at the cap' : ''}): ${tail(r, 3)}`;
  }
  const stderrLine = r.stderr
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('npm warn'))
    .pop()
    ?.slice(0, 300);
  const checks = report?.checks ?? [];
  const requirements = report?.requirements ?? [];
  return {
    exitCode: r.code,
    timedOut: r.timedOut,
    wallMs: r.wallMs,
    verdict: report?.verdict ?? 'none',
    requests: report?.run.requests ?? 0,
    ...(report?.run.requestsSaved !== undefined ? { saved: report.run.requestsSaved } : {}),
    checks: checks.length,
    failedChecks: checks.filter((c) => c.status === 'fail').map((c) => c.checkId),
    erroredChecks: checks.filter((c) => c.status === 'error').map((c) => c.checkId),
    failedRequirements: requirements.filter((q) => q.status === 'fail').map((q) => q.id),
    failedMust: requirements.filter((q) => q.status === 'fail' && q.level === 'MUST').map((q) => q.id),
    ...(stderrLine ? { stderrLine } : {}),
    ...(problem ? { problem } : {}),
  };
}
