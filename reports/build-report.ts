import type { CheckDeclaration, CheckOutcome } from '../core/check.ts';
import { catalogue, LEVELS, strongestLevel, type Requirement } from '../core/catalogue.ts';
import type { RequestLogEntry } from '../core/request-log.ts';
import type { TargetView } from '../core/target.ts';
import { REQUIREMENT_STATUSES, type CheckResult, type ConformanceReport, type RequirementFailure, type RequirementResult, type Verdict } from './model.ts';

export interface ReportInput {
  checks: readonly CheckDeclaration[];
  /** Outcome of every check that ran; a declared check without one was not selected (disabled). */
  outcomes: ReadonlyMap<string, CheckOutcome>;
  target: { baseUrl: string; file: TargetView };
  suite: ConformanceReport['suite'];
  run: Omit<ConformanceReport['run'], 'requests' | 'retries' | 'budgetExhausted'>;
  requestLog: readonly RequestLogEntry[];
  /** Requests sent before the checks (the command line's preflight): they count in the run's total. */
  requestsBefore?: number;
}

/** Joins the catalogue, the declarations and the outcomes into the report; pure, so it is deterministic. */
export function buildReport(input: ReportInput): ConformanceReport {
  const checks: CheckResult[] = input.checks.map((c) => {
    const outcome = input.outcomes.get(c.id) ?? { checkId: c.id, status: 'skip' as const, reason: 'not selected in this run', failures: [], observations: [], requests: 0, seed: 0 };
    return { ...outcome, title: c.title, level: strongestLevel(c.requirements), operation: c.operation, kind: c.kind ?? 'check', requirements: [...c.requirements] };
  });
  const ran = checks.filter((c) => input.outcomes.has(c.checkId));
  const requirements = catalogue().requirements.map((r) => judge(r, checks, ran, input.outcomes));
  const counts = Object.fromEntries(LEVELS.map((l) => [l, Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0]))])) as ConformanceReport['counts'];
  for (const r of requirements) counts[r.level][r.status]++;
  const failOn = input.run.failOn;
  const failed = requirements.some((r) => r.status === 'fail' && (r.level === 'MUST' || (failOn === 'should' && r.level === 'SHOULD')));
  const verdict: Verdict = failed ? 'non-conformant' : requirements.some((r) => r.status === 'error') ? 'error' : 'conformant';
  return {
    reportVersion: 1,
    specVersion: catalogue().specVersion,
    specDocument: catalogue().document,
    suite: input.suite,
    target: input.target,
    run: {
      ...input.run,
      requests: input.requestLog.length + (input.requestsBefore ?? 0),
      retries: input.requestLog.filter((e) => e.retry).length,
      budgetExhausted: checks.filter((c) => c.status === 'skip' && c.reason?.startsWith('request budget')).map((c) => c.checkId),
    },
    verdict,
    counts,
    requirements,
    checks,
  };
}

function judge(r: Requirement, checks: readonly CheckResult[], allRan: readonly CheckResult[], outcomes: ReadonlyMap<string, CheckOutcome>): RequirementResult {
  const covering = checks.filter((c) => c.requirements.includes(r.id));
  const base: RequirementResult = {
    id: r.id,
    level: r.level,
    section: r.section,
    operation: r.operation,
    statement: r.statement,
    ...(r.interpretation ? { interpretation: r.interpretation } : {}),
    status: 'skip',
    checks: covering.map((c) => c.checkId),
  };
  // A failure seen by any check of the run counts, also one a whole-run judge attributed to this
  // requirement from a response another check received (core/execute-check.ts).
  const evidence: RequirementFailure[] = allRan.flatMap((c) =>
    c.failures
      .filter((f) => f.requirementId === r.id)
      .map(({ requirementId: _r, ...f }) => ({ checkId: c.checkId, ...f })),
  );
  if (covering.length === 0 && evidence.length === 0) {
    return { ...base, reason: r.observable === false ? 'not observable through the three read operations' : 'no check declared' };
  }
  const ran = covering.filter((c) => outcomes.has(c.checkId));
  if (ran.length === 0 && evidence.length === 0) return { ...base, status: 'disabled', reason: 'its checks were not selected in this run' };

  const failures = evidence.map((f) => `${f.checkId}: ${f.message}`);
  if (r.level !== 'UNSPECIFIED' && failures.length) return { ...base, status: 'fail', reason: failures[0], failures: evidence };
  const observed = ran.flatMap((c) => c.observations.filter((o) => o.requirementId === r.id).map((o) => o.value));
  const errors = ran.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason}`);
  const passed = ran.filter((c) => c.status === 'pass');
  const withObserved = observed.length ? { observed } : {};

  // "Not shown" points are observed and reported, never failed (principle 1).
  if (r.level === 'UNSPECIFIED') {
    if (observed.length) return { ...base, status: 'observed', ...withObserved };
    if (errors.length) return { ...base, status: 'error', reason: errors[0] };
    return { ...base, status: 'skip', reason: ran.map((c) => c.reason).find(Boolean) ?? 'nothing observed' };
  }
  if (failures.length) return { ...base, status: 'fail', reason: failures[0], ...withObserved, failures: evidence };
  if (errors.length) return { ...base, status: 'error', reason: errors[0], ...withObserved };
  if (passed.length) return { ...base, status: 'pass', ...withObserved };
  const notReached = ran.find((c) => c.status === 'fail');
  return {
    ...base,
    status: 'skip',
    reason: notReached ? `not reached: ${notReached.checkId} failed first on ${notReached.failures[0]?.requirementId}` : (ran.map((c) => c.reason).find(Boolean) ?? 'skipped'),
    ...withObserved,
  };
}
