/**
 * Reports of a run that never happened, for the tests of the report writers and of the mask's pass
 * over rendered files: one target (unreachable, 127.0.0.1:1), one suite, seed 7.
 */
import type { CheckDeclaration, CheckOutcome } from '../../core/check/check.ts';
import type { Exchange } from '../../core/check/evidence.ts';
import { buildReport, type ReportInput } from '../../reports/build-report.ts';
import type { ConformanceReport } from '../../reports/model.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';

export interface SyntheticRun {
  /** The declared checks (every check of the suite when absent). */
  checks?: readonly CheckDeclaration[];
  /** The target file's containerFiles.containerId (`c` when absent). */
  containerId?: string;
  /** Run settings other than the defaults (a run of one request on a budget of 10, failing on MUST). */
  run?: Partial<ReportInput['run']>;
}

/** The report input of a run whose checks ended as `outcomes`. */
export function syntheticReportInput(outcomes: readonly CheckOutcome[], over: SyntheticRun = {}): ReportInput {
  return {
    checks: over.checks ?? ALL_CHECKS,
    outcomes: new Map(outcomes.map((o) => [o.checkId, o])),
    target: {
      baseUrl: 'http://127.0.0.1:1/v1',
      file: {
        baseUrl: 'http://127.0.0.1:1/v1',
        containerFiles: { containerId: over.containerId ?? 'c' },
        modelEndpoints: { model: 'a/b' },
        interns: { workspaceId: 'w' },
        hasRestrictedKey: false,
      },
    },
    suite: { name: 'conformance-suite', version: '0.1.0', commit: 'abc1234' },
    run: {
      seed: 7,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      numRuns: 1,
      maxRequests: 10,
      failOn: 'must',
      replay: 'npm run conformance -- --seed 7',
      ...over.run,
    },
    requestLog: [],
  };
}

export interface OneFailure {
  /** A check of the suite; the failure is of its first requirement. */
  checkId: string;
  reason: string;
  message: string;
  exchange: Omit<Exchange, 'durationMs' | 'retries'>;
  /** A value observed on the same requirement, when given. */
  observed?: unknown;
}

/** The report of a run in which one check failed once, on one exchange, and every other check was not selected. */
export function oneFailureReport(f: OneFailure): ConformanceReport {
  const check = ALL_CHECKS.find((c) => c.id === f.checkId);
  if (!check) throw new Error(`oneFailureReport: no check ${f.checkId}`);
  const outcome: CheckOutcome = {
    checkId: check.id,
    status: 'fail',
    reason: f.reason,
    failures: [
      {
        requirementId: check.requirements[0]!,
        message: f.message,
        exchanges: [{ ...f.exchange, durationMs: 1, retries: 0 }],
      },
    ],
    observations: 'observed' in f ? [{ requirementId: check.requirements[0]!, value: f.observed }] : [],
    requests: 1,
    seed: 1,
  };
  return buildReport(syntheticReportInput([outcome]));
}
