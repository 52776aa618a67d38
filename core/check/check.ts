import type { RequirementId } from '../../spec/requirement-ids.ts';
import type { ApiResponse, Client } from '../http/client.ts';
import type { Counterexample } from './errors.ts';
import type { Exchange } from './evidence.ts';
import type { Operation } from '../document/operations.ts';
import type { RequestLogEntry } from '../http/request-log.ts';
import type { RunNotesView } from '../run/run-notes.ts';
import type { RunSettings } from '../run/run-settings.ts';
import type { TargetView } from '../target/target.ts';

/** What a probe gets: the client (the only way to the target), the target without its keys, the run. */
export interface ProbeContext {
  api: Client;
  target: TargetView;
  settings: Readonly<RunSettings>;
  /** This check's own seed, derived from the run seed and the check id (so --grep replays it alone). */
  seed: number;
  /** Records what the target chose on a point the document leaves open (or any point worth showing). */
  observe(requirementId: RequirementId, value: unknown): void;
  /** Every request the run has sent so far (whole-run checks run after all others, so they see the run's). */
  log: readonly RequestLogEntry[];
  /**
   * What the run's judges noted of every response so far, whichever check received it (ids, paths,
   * cursors of the pages: core/run/run-notes.ts): what whole-run checks compare one walk with another by.
   */
  notes: RunNotesView;
  /** Ends the check as skipped: it cannot be run against this target. */
  skip(reason: string): never;
  /**
   * Says that this check, though it runs on, had nothing to judge `requirementId` (one it declares) by,
   * with the reason: the requirement is not passed by this check (rule "No green without evidence"). A
   * check that ends without failing, every requirement of it said so, is a skip with the first reason.
   */
  notJudged(requirementId: RequirementId, reason: string): void;
  /** The check's own requirement: its first declared one. */
  requirement: RequirementId;
  /**
   * Fails the check on `requirementId` (one it declares) unless `condition` holds, with the response
   * as evidence: the one `conform` (core/check/expect.ts), refusing a requirement the check does not declare.
   */
  conform(condition: unknown, requirementId: RequirementId, message: string, res?: ApiResponse): asserts condition;
}

export type CheckKind = 'check' | 'observation' | 'property';

/** An optional field of the target file a check needs and the file leaves out: the field as data, and why it is needed. */
export interface AbsentField {
  field: string;
  /** Why the check needs it (said after the field, in parentheses). */
  why?: string;
}

/** The reason a check skipped for an absent field gives (the field is also its outcome's `field`). */
export function absentFieldText(absent: AbsentField): string {
  return `${absent.field} is not set in the target file${absent.why ? ` (${absent.why})` : ''}`;
}

/**
 * Why a check, or a requirement, was not judged, typed: what the reports read, never the reason's text.
 * `target-field`: an optional target field is absent (its name in `field`); `run-limit`: the run's
 * limits cut it short (which one in `limit`); `not-selected`: --grep or --shard left it out;
 * `not-reached` (a requirement): a check of it failed first on another requirement.
 */
export type NotJudgedCause = 'target-field' | 'run-limit' | 'not-selected' | 'not-reached' | 'max-failures';

/**
 * Which of the run's limits cut a check short: the request budget (`budget`), the suite's deadline
 * (`deadline`), or a stop (`stopped`: an interruption, a target that stopped answering, the retry budget spent).
 */
export type RunLimit = 'budget' | 'deadline' | 'stopped';

/** One check is one declared thing; the Playwright tests, report rows and traceability derive from it. */
export interface CheckDeclaration {
  /** Stable id, e.g. `files.limit.bounds`. */
  id: string;
  title: string;
  operation: Operation;
  /** Requirement ids of spec/requirements.yaml this check proves (or observes). Its level derives from them. */
  requirements: readonly RequirementId[];
  kind?: CheckKind;
  /**
   * Judges what the whole run sent (its request log) as well as what it sends itself: run after
   * every other selected check, whatever the order of selection, so --grep and --shard do not change it.
   */
  wholeRun?: boolean;
  /**
   * A whole-run check's own requests, sent while the other checks run, not one after another once
   * they have ended (the run would be longer by all of them). The probe asks them again at its turn
   * and the run's memory answers: what the probe sees is the same, only when it was sent differs. A skip or failure here ends the check.
   */
  gather?(ctx: ProbeContext): Promise<void>;
  /** The optional target field the check cannot run without, when it is absent, or undefined. */
  needs?(target: TargetView): AbsentField | undefined;
  /**
   * Requests the probe is expected to send to the target, for the --dry-run plan (cli/plan.ts) and
   * the plan order: in all for a check or an observation, per fast-check run for a property (the plan
   * multiplies by --num-runs). A request asked again is answered from the run's memory and not
   * counted: the budget counts what is sent. Defaults: check 2, observation 1, property 2 per run
   * (ESTIMATED_REQUESTS).
   */
  estimatedRequests?: number;
  probe(ctx: ProbeContext): Promise<void>;
}

/** Default request estimates per kind (for a property: per fast-check run). */
export const ESTIMATED_REQUESTS: Record<CheckKind, number> = { check: 2, observation: 1, property: 2 };

/** Requests one check is expected to send: its own estimate, else the default of its kind. */
export function estimateOf(check: CheckDeclaration, numRuns: number): number {
  const kind = check.kind ?? 'check';
  const n = check.estimatedRequests ?? ESTIMATED_REQUESTS[kind];
  return kind === 'property' ? n * numRuns : n;
}

/**
 * The order a run starts its checks in: the ones expected to send most first (a property's runs, a
 * walk's pages: requests that follow one another, the run's longest chains), so that short checks fill
 * the places between; among equals, the order declared. What a check concludes does not depend on it.
 */
export function planOrder<C extends CheckDeclaration>(checks: readonly C[], numRuns: number): C[] {
  return [...checks].sort((a, b) => estimateOf(b, numRuns) - estimateOf(a, numRuns));
}

/**
 * The checks in the order they are expected to finish, checks started in planOrder with `places` in
 * flight, each taking as long as its estimate: the order a run's Playwright tests ask for their
 * outcomes in (playwright/playwright-tests.ts), so that the worker reports each while the rest still run
 * instead of waiting on one that ends late with the others finished behind it. The engine serves the
 * checks' requests in this order (core/run/engine.ts), which keeps the forecast close where places in
 * flight or the pace hold the run back. Whole-run checks finish after every other check, in plan
 * order. Only a forecast: any order gives the same outcomes.
 */
export function expectedFinishOrder<C extends CheckDeclaration>(
  checks: readonly C[],
  numRuns: number,
  places: number,
): C[] {
  const freeAt: number[] = Array.from({ length: Math.max(1, places) }, () => 0);
  const finish = new Map<C, number>();
  const planned = planOrder(checks, numRuns);
  for (const c of planned) {
    if (c.wholeRun) continue;
    // A handful of places: the earliest free one is found by looking at each.
    let at = 0;
    for (let i = 1; i < freeAt.length; i++) if (freeAt[i]! < freeAt[at]!) at = i;
    const end = freeAt[at]! + estimateOf(c, numRuns);
    freeAt[at] = end;
    finish.set(c, end);
  }
  const rank = new Map(planned.map((c, i) => [c, i]));
  return [...checks].sort(
    (a, b) => (finish.get(a) ?? Infinity) - (finish.get(b) ?? Infinity) || rank.get(a)! - rank.get(b)!,
  );
}

/** What one check run produced; attached to its Playwright test result and read by the reporter. */
export interface CheckOutcome {
  checkId: string;
  status: 'pass' | 'fail' | 'error' | 'skip';
  reason?: string;
  /**
   * Why a check that was selected did not judge: an optional target field is absent (`target-field`),
   * or the run's limits cut it short (`run-limit`: budget, deadline, a target that stopped answering,
   * the retry budget). A run-limit cut of a MUST makes the run incomplete (rule "No green without evidence").
   */
  cause?: Exclude<NotJudgedCause, 'not-reached'>;
  /** With cause `run-limit`: which limit. */
  limit?: RunLimit;
  /** With cause `target-field`: the absent field. */
  field?: string;
  /**
   * The probe ran to its end without failing: every requirement of the check without a failure of
   * its own is judged and passed, even when a whole-run judge failed another requirement on a
   * response this check received (a requirement's status is its own).
   */
  probeCompleted?: true;
  /** Requirements of the check it had nothing to judge by (ProbeContext.notJudged), each with its reason. */
  notJudged?: Array<{ requirementId: RequirementId; reason: string }>;
  failures: Array<{
    requirementId: RequirementId;
    message: string;
    exchanges: Exchange[];
    curl?: string;
    counterexample?: Counterexample;
  }>;
  observations: Array<{ requirementId: RequirementId; value: unknown }>;
  requests: number;
  seed: number;
}

export const OUTCOME_ATTACHMENT = 'conformance-outcome';

/** Declares a group of checks (one file per operation or cross-cutting concern). */
export function defineChecks(checks: readonly CheckDeclaration[]): readonly CheckDeclaration[] {
  return checks;
}

/**
 * Each check's seed, from the run seed and the check id, independent of run order (so --grep replays
 * one check alone). The check id is hashed (32-bit FNV-1a) and mixed with the run seed by a bijective
 * 32-bit finaliser (murmur3 fmix32): for one check, distinct run seeds give distinct check seeds.
 */
export function checkSeed(runSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (const c of checkId) h = Math.imul(h ^ c.codePointAt(0)!, 0x01000193) >>> 0;
  let x = (h ^ (runSeed >>> 0)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}
