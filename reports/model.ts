import type { CheckKind, CheckOutcome } from '../core/check.ts';
import type { Level } from '../core/catalogue.ts';
import type { Operation } from '../core/operations.ts';
import type { TargetView } from '../core/target.ts';

export type RequirementStatus = 'pass' | 'fail' | 'skip' | 'disabled' | 'observed' | 'error';
export type Verdict = 'conformant' | 'non-conformant' | 'error';

export interface RequirementResult {
  id: string;
  level: Level;
  section: string;
  operation: Operation;
  statement: string;
  interpretation?: string;
  status: RequirementStatus;
  reason?: string;
  checks: string[];
  observed?: unknown[];
}

export interface CheckResult extends CheckOutcome {
  title: string;
  level: Level;
  operation: Operation;
  kind: CheckKind;
  requirements: string[];
}

/** report.json: the machine record of one run (schema: reports/report.schema.json). */
export interface ConformanceReport {
  reportVersion: 1;
  specVersion: string;
  suite: { name: string; version: string; commit: string };
  target: { baseUrl: string; file: TargetView };
  run: {
    seed: number;
    startedAt: string;
    durationMs: number;
    requests: number;
    retries: number;
    numRuns: number;
    maxRequests: number;
    failOn: 'must' | 'should';
    /** Checks cut short because the request budget was spent. */
    budgetExhausted: string[];
    replay: string;
  };
  verdict: Verdict;
  counts: Record<Level, Record<RequirementStatus, number>>;
  requirements: RequirementResult[];
  checks: CheckResult[];
}
