import type { CheckDeclaration, CheckOutcome } from '../core/check/check.ts';
import { listingOf } from '../core/check/check-listing.ts';
import { catalogue, LEVELS, strongestLevel, type Requirement } from '../core/document/catalogue.ts';
import type { RequestLogEntry } from '../core/http/request-log.ts';
import { unfinishedListings, type RunCoverage } from '../core/run/coverage.ts';
import type { TargetView } from '../core/target/target.ts';
import {
  REQUIREMENT_STATUSES,
  type CheckResult,
  type ConformanceReport,
  type ReceivedResult,
  type RequirementFailure,
  type RequirementResult,
  type Verdict,
} from './model.ts';

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
  /** Responses the run received outside its checks (the preflight), judged: their failures count. */
  received?: readonly ReceivedResult[];
  /** --require-all: any MUST requirement not judged (skipped for whatever reason) makes the run incomplete. */
  requireAll?: boolean;
  /** Why the run stopped sending, when it did (the engine's stop): the cause an incomplete run names. */
  stopped?: string;
}

export const NOT_SELECTED = 'not selected in this run';
/** How a requirement's reason begins when a check failed first on another requirement and did not reach it. */
export const NOT_REACHED = 'not reached:';

/**
 * The verdict (rule "No green without evidence"). A MUST requirement the run's limits left
 * unjudged makes the run `incomplete` whatever else it found: its verdict covers less than it must.
 * Then a failure of a gating level is `non-conformant`, an error `error`; MUST requirements skipped
 * for an absent optional target field are named, and any MUST not judged, whatever the reason, makes
 * the run incomplete under --require-all.
 */
function verdictOf(
  requirements: readonly RequirementResult[],
  failOn: 'must' | 'should',
  requireAll: boolean,
  stopped: string | undefined,
  shard: boolean,
  coverage: RunCoverage | undefined,
): { verdict: Verdict; incomplete?: string; mustNotJudged: { count: number; fields: string[] } } {
  const found = verdictOfRequirements(requirements, failOn, requireAll, stopped, shard);
  // A listing the run's limits cut is records not judged, as a MUST not judged is, under --require-all;
  // an incomplete run names it beside its other cause.
  const unfinished = requireAll && coverage && !shard ? unfinishedListings(coverage) : [];
  if (!unfinished.length || found.verdict === 'non-conformant' || found.verdict === 'error') return found;
  const listings = `${unfinished.length} listing(s) not read to the end (--require-all): ${unfinished.join('; ')}`;
  return {
    ...found,
    verdict: 'incomplete',
    incomplete: found.incomplete ? `${found.incomplete}; ${listings}` : listings,
  };
}

function verdictOfRequirements(
  requirements: readonly RequirementResult[],
  failOn: 'must' | 'should',
  requireAll: boolean,
  stopped: string | undefined,
  shard: boolean,
): { verdict: Verdict; incomplete?: string; mustNotJudged: { count: number; fields: string[] } } {
  const must = requirements.filter((r) => r.level === 'MUST');
  const cut = must.filter((r) => r.cause === 'run-limit');
  const absent = must.filter((r) => r.cause === 'target-field');
  const fields = [...new Set(absent.map((r) => r.field ?? ''))].filter(Boolean).sort();
  const mustNotJudged = { count: absent.length, fields };
  if (cut.length) {
    // The run's own stop (the target stopped answering, the retry budget) is the cause; else the first cut's reason.
    const why = stopped ?? [...new Set(cut.map((r) => r.reason ?? ''))][0] ?? '';
    return { verdict: 'incomplete', incomplete: `${cut.length} MUST requirement(s) not judged: ${why}`, mustNotJudged };
  }
  // A run stopped (deadline, interruption) before every selected check ran covers less than it was
  // asked to, whatever level the cut checks carry.
  const cutAny = requirements.filter((r) => r.cause === 'run-limit');
  if (stopped && cutAny.length)
    return {
      verdict: 'incomplete',
      incomplete: `${cutAny.length} requirement(s) not judged: ${stopped}`,
      mustNotJudged,
    };
  const failed = requirements.some(
    (r) => r.status === 'fail' && (r.level === 'MUST' || (failOn === 'should' && r.level === 'SHOULD')),
  );
  if (failed) return { verdict: 'non-conformant', mustNotJudged };
  if (requirements.some((r) => r.status === 'error')) return { verdict: 'error', mustNotJudged };
  // --require-all: a certificate covers every MUST, so one not judged for any reason (an absent target
  // field, a skip for want of data, a check not selected) leaves the run incomplete. A shard's checks
  // of the other shards are not selected by design: its verdict is the merged report's.
  const unjudged = must.filter((r) => r.status === 'skip' || (r.status === 'disabled' && !shard));
  // Its cause names the absent fields itself: they are not said a second time beside it.
  if (requireAll && unjudged.length)
    return {
      verdict: 'incomplete',
      incomplete: requireAllText(unjudged, fields),
      mustNotJudged: { count: 0, fields: [] },
    };
  return { verdict: 'conformant', mustNotJudged };
}

/** Why --require-all finds the run incomplete: the absent target fields first, then the first other reason. */
function requireAllText(unjudged: readonly RequirementResult[], fields: readonly string[]): string {
  const absent = unjudged.filter((r) => r.cause === 'target-field');
  const other = unjudged.filter((r) => r.cause !== 'target-field');
  const parts = [
    absent.length ? `${fields.join(', ')} absent` : '',
    other[0] ? `${other.length} for other reasons, first ${other[0].id}: ${other[0].reason ?? other[0].status}` : '',
  ].filter(Boolean);
  return `${unjudged.length} MUST requirement(s) not judged (--require-all): ${parts.join('; ')}`;
}

/** Joins the catalogue, the declarations and the outcomes into the report; pure, so it is deterministic. */
export function buildReport(input: ReportInput): ConformanceReport {
  const checks: CheckResult[] = input.checks.map((c) => {
    const outcome = input.outcomes.get(c.id) ?? {
      checkId: c.id,
      status: 'skip' as const,
      reason: NOT_SELECTED,
      cause: 'not-selected' as const,
      failures: [],
      observations: [],
      requests: 0,
      seed: 0,
    };
    return {
      ...outcome,
      title: c.title,
      level: strongestLevel(c.requirements),
      operation: c.operation,
      kind: c.kind ?? 'check',
      requirements: [...c.requirements],
    };
  });
  // In the order of the run's tests, which is the order the console says findings in (core/check/check-listing.ts):
  // a requirement's first failure here, in report.json, summary.md and report.html, is the one the console said.
  const testRank = new Map(listingOf(input.checks).map((c, i) => [c.id, i]));
  const ran = checks
    .filter((c) => input.outcomes.has(c.checkId))
    .sort((a, b) => testRank.get(a.checkId)! - testRank.get(b.checkId)!);
  // What the run received outside its checks is judged after them: a requirement's first failure stays
  // the one its checks said first (the console's order), and one seen only there still fails it.
  const received = (input.received ?? []).map(
    (o): ReceivedResult => ({
      checkId: o.checkId,
      status: o.status,
      ...(o.reason !== undefined ? { reason: o.reason } : {}),
      failures: o.failures,
      observations: o.observations,
      requests: o.requests,
    }),
  );
  const requirements = catalogue().requirements.map((r) => judge(r, checks, ran, received));
  const counts = Object.fromEntries(
    LEVELS.map((l) => [l, Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0]))]),
  ) as ConformanceReport['counts'];
  for (const r of requirements) counts[r.level][r.status]++;
  const { verdict, incomplete, mustNotJudged } = verdictOf(
    requirements,
    input.run.failOn,
    input.requireAll ?? false,
    input.stopped,
    input.run.shard !== undefined,
    input.run.coverage,
  );
  const ranChecks = checks.filter((c) => c.cause !== 'not-selected').length;
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
      budgetExhausted: checks
        .filter((c) => c.status === 'skip' && c.cause === 'run-limit' && c.limit === 'budget')
        .map((c) => c.checkId),
      ...(ranChecks < checks.length || input.run.shard ? { partial: { checks: ranChecks, of: checks.length } } : {}),
      ...(incomplete ? { incomplete } : {}),
      ...(mustNotJudged.count ? { mustNotJudged } : {}),
      ...(input.requireAll ? { requireAll: true } : {}),
    },
    verdict,
    counts,
    requirements,
    checks,
    ...(received.length ? { received } : {}),
  };
}

function judge(
  r: Requirement,
  checks: readonly CheckResult[],
  allRan: readonly CheckResult[],
  received: readonly ReceivedResult[],
): RequirementResult {
  const covering = checks.filter((c) => c.requirements.includes(r.id));
  const base: RequirementResult = {
    id: r.id,
    level: r.level,
    section: r.section,
    operation: r.operation,
    statement: r.statement,
    ...(r.interpretation ? { interpretation: r.interpretation } : {}),
    // The document's own words the requirement rests on: what a vendor argues with is the document.
    ...(r.basis?.length ? { basis: r.basis.map((b) => ({ section: b.section, quote: b.quote })) } : {}),
    status: 'skip',
    checks: covering.map((c) => c.checkId),
  };
  // A failure seen by any check of the run counts, also one a whole-run judge attributed to this
  // requirement from a response another check received (core/run/execute-check.ts).
  // One distinct violation is reported once, by the first check that saw it.
  const seen = new Set<string>();
  const evidence: RequirementFailure[] = [...allRan, ...received].flatMap((c) =>
    c.failures
      .filter((f) => f.requirementId === r.id && !seen.has(f.message) && seen.add(f.message))
      .map(({ requirementId: _r, ...f }) => ({ checkId: c.checkId, ...f })),
  );
  if (covering.length === 0 && evidence.length === 0) {
    return {
      ...base,
      reason: r.observable === false ? 'not observable through the three read operations' : 'no check declared',
    };
  }
  const ran = allRan.filter((c) => c.requirements.includes(r.id));
  if (ran.length === 0 && evidence.length === 0)
    return { ...base, status: 'disabled', reason: 'its checks were not selected in this run', cause: 'not-selected' };
  // Why a requirement no check judged was left: a check that failed first on another requirement did
  // not reach it; else a reason of a check that did not fail (a failing check's reason is another
  // requirement's finding, said under that one).
  const notReached = ran.find((c) => c.status === 'fail' && c.probeCompleted !== true);
  // The check whose reason a requirement left unjudged gives: its cause and field go with it.
  // A check of its own cause first (no intern listed, say) before one that needs an absent target
  // field: the reason names what left the requirement itself unjudged, not another check's field.
  // A check that ran on but had nothing to judge this requirement by (ProbeContext.notJudged) says why for it.
  const notJudgedHere = (c: CheckResult) => c.notJudged?.find((n) => n.requirementId === r.id);
  const reasonOf = (c: CheckResult) => notJudgedHere(c)?.reason ?? c.reason;
  const said =
    ran.find((c) => c.status !== 'fail' && reasonOf(c) && c.cause !== 'target-field') ??
    ran.find((c) => c.status !== 'fail' && reasonOf(c));
  const unjudged = (otherwise: string) =>
    notReached
      ? `${NOT_REACHED} ${notReached.checkId} failed first on ${notReached.failures[0]?.requirementId}`
      : ((said && reasonOf(said)) ?? otherwise);
  const notReachedCause = notReached ? { cause: 'not-reached' as const } : {};

  const failures = evidence.map((f) => `${f.checkId}: ${f.message}`);
  if (r.level !== 'UNSPECIFIED' && failures.length)
    return { ...base, status: 'fail', reason: failures[0], failures: evidence };
  // Observations too may come from a judge fed another check's response (a duplicate object name).
  const observed = [...allRan, ...received].flatMap((c) =>
    c.observations.filter((o) => o.requirementId === r.id).map((o) => o.value),
  );
  const errors = ran.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason}`);
  // A check whose probe ran to its end judged this requirement, whatever a whole-run judge found
  // under another requirement on a response it received: a requirement's status is its own.
  // One that said it had nothing to judge it by did not pass it (rule "No green without evidence").
  const passed = ran.filter((c) => (c.status === 'pass' || c.probeCompleted === true) && !notJudgedHere(c));
  const withObserved = observed.length ? { observed } : {};

  // "Not shown" points are observed and reported, never failed (rule "Verdicts in both directions").
  if (r.level === 'UNSPECIFIED') {
    if (observed.length) return { ...base, status: 'observed', ...withObserved };
    if (errors.length) return { ...base, status: 'error', reason: errors[0] };
    return { ...base, status: 'skip', reason: unjudged('nothing observed'), ...notReachedCause };
  }
  if (failures.length) return { ...base, status: 'fail', reason: failures[0], ...withObserved, failures: evidence };
  // A run stopped at --max-failures leaves it not judged, a cause of its own: never a failure, never passed.
  // Its reason is the stop's, as a check cut before judging anything says it (a cut check may also hold
  // another requirement's finding).
  if (ran.some((c) => c.cause === 'max-failures')) {
    const reason = allRan.find((c) => c.cause === 'max-failures' && c.status === 'skip')?.reason;
    return {
      ...base,
      status: 'skip',
      reason: reason ?? 'not judged (--max-failures)',
      cause: 'max-failures',
      ...withObserved,
    };
  }
  // A limit that cut one of its checks short leaves the requirement unjudged, even if another passed.
  const cut = ran.find((c) => c.cause === 'run-limit');
  if (cut)
    return {
      ...base,
      status: cut.status === 'error' ? 'error' : 'skip',
      reason: `${cut.checkId}: ${cut.reason}`,
      cause: 'run-limit',
      ...(cut.limit ? { limit: cut.limit } : {}),
      ...withObserved,
    };
  if (errors.length) return { ...base, status: 'error', reason: errors[0], ...withObserved };
  if (passed.length) return { ...base, status: 'pass', ...withObserved };
  const absent = !notReached && ran.every((c) => c.cause === 'target-field');
  return {
    ...base,
    status: 'skip',
    ...(absent ? { cause: 'target-field' as const, ...(said?.field ? { field: said.field } : {}) } : {}),
    ...notReachedCause,
    reason: unjudged('skipped'),
    ...withObserved,
  };
}
