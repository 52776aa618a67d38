import {
  absentFieldText,
  checkSeed,
  type CheckDeclaration,
  type CheckOutcome,
  type ProbeContext,
} from '../check/check.ts';
import type { Client } from '../http/client.ts';
import { CannotJudge, ConformanceFailure, SkipCheck } from '../check/errors.ts';
import { excerpt } from '../check/evidence.ts';
import { conform } from '../check/expect.ts';
import { boundedValue, curlOf, maskedValue, ResponseFindings, type JudgeContext } from './response-findings.ts';
import { maxFailuresReason, notJudgedAtMaxFailures } from './max-failures.ts';
import type { RunSettings } from './run-settings.ts';
import type { TargetView } from '../target/target.ts';

export { FINDINGS_PER_REQUIREMENT, type JudgeContext } from './response-findings.ts';

/**
 * Runs one check's probe, on a client of its own (Client.forCheck) over `client`'s run, and classifies what happened: a ConformanceFailure is the target's `fail`;
 * CannotJudge is `error` (or `skip` when the budget is spent); anything else is a suite `error`.
 * Every response the check receives is also handed to the whole-run judges (record rules, schema of
 * every response): what they find fails the check that saw it, under the finding's requirement.
 */
export async function executeCheck(
  check: CheckDeclaration,
  client: Client,
  target: TargetView,
  settings: Readonly<RunSettings>,
  judging: JudgeContext = { judges: [] },
  /** Between a whole-run check's gather and its probe: waits for its turn (core/run/engine.ts). */
  beforeProbe?: () => Promise<void>,
  /** Where its requests wait for a place in flight and for the pace: a lower rank is served first (the engine's schedule). */
  rank = 0,
): Promise<CheckOutcome> {
  const seed = checkSeed(settings.seed, check.id);
  // The check's own client over the run's state: checks in flight together keep their exchanges and
  // response listeners apart, and share the budget, the pace, the pause and the run's memory.
  // Its requests wait for a place in flight, and for the pace, by the rank the engine gives it.
  client = client.forCheck(check.id, rank);
  // The checks and judges read the target's answers as sent; what they say becomes output here, masked
  // before it is cut (a key the cut would split is not left half shown): "Hostile input".
  const shown = (text: string): string => excerpt(client.mask.text(text));
  const bounded = (value: unknown): unknown => boundedValue(value, client.mask);
  const outcome: CheckOutcome = {
    checkId: check.id,
    status: 'pass',
    failures: [],
    observations: [],
    requests: 0,
    seed,
  };
  // Each distinct violation once per check (Finding.dedupeKey); the report keeps it once per
  // requirement. Per check, not per run: what a check reports does not depend on what ran before it.
  const findings = new ResponseFindings(judging, outcome, client.mask);
  const notes = findings.notes;
  client.onResponse = (seen) => findings.take(seen);
  const ctx: ProbeContext = {
    api: client,
    target,
    settings,
    seed,
    log: client.log.entries,
    notes,
    observe: (requirementId, value) => {
      if (!check.requirements.includes(requirementId))
        throw new Error(`${check.id} observes ${requirementId}, which it does not declare`);
      outcome.observations.push({ requirementId, value: bounded(value) });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    notJudged: (requirementId, reason) => {
      if (!check.requirements.includes(requirementId))
        throw new Error(`${check.id} leaves ${requirementId} not judged, which it does not declare`);
      if (outcome.notJudged?.some((n) => n.requirementId === requirementId)) return;
      (outcome.notJudged ??= []).push({ requirementId, reason: shown(reason) });
    },
    requirement: check.requirements[0]!,
    conform: (condition, requirementId, message, res) => {
      if (!check.requirements.includes(requirementId))
        throw new Error(`${check.id} fails ${requirementId}, which it does not declare`);
      conform(condition, requirementId, message, res);
    },
  };
  try {
    const missing = check.needs?.(target);
    if (missing) {
      outcome.cause = 'target-field';
      outcome.field = missing.field;
      throw new SkipCheck(absentFieldText(missing));
    }
    await check.gather?.(ctx);
    await beforeProbe?.();
    await check.probe(ctx);
    // Nothing judged of any of its requirements: a skip with its reason, never a pass.
    const unjudged = outcome.notJudged ?? [];
    if (check.requirements.every((id) => unjudged.some((n) => n.requirementId === id)))
      throw new SkipCheck(unjudged[0]!.reason);
    outcome.probeCompleted = true;
  } catch (e) {
    if (e instanceof SkipCheck) {
      outcome.status = 'skip';
      outcome.reason = shown(e.message);
    } else if (e instanceof ConformanceFailure) {
      outcome.status = 'fail';
      outcome.reason = shown(e.message);
      const exchanges = e.exchanges.length ? [...e.exchanges] : client.exchanges.slice(-1);
      outcome.failures.push({
        requirementId: check.requirements.includes(e.requirementId) ? e.requirementId : check.requirements[0]!,
        message: shown(e.message),
        exchanges,
        ...curlOf(exchanges[exchanges.length - 1]),
        ...(e.counterexample
          ? { counterexample: { ...e.counterexample, value: maskedValue(e.counterexample.value, client.mask) } }
          : {}),
      });
    } else if (e instanceof CannotJudge) {
      const cut = e.reason === 'budget' || e.reason === 'stopped';
      // Not sent by the suite's own bound: not judged, with its reason (neither the target's failure nor the suite's error).
      outcome.status = cut || e.reason === 'unsendable' ? 'skip' : 'error';
      outcome.reason = shown(e.message);
      if (cut || client.state.stopped) {
        outcome.cause = 'run-limit';
        outcome.limit = e.reason === 'budget' ? 'budget' : client.state.deadlinePassed ? 'deadline' : 'stopped';
      }
      // Stopped at --max-failures: not judged, a cause of its own (the run is NON-CONFORMANT, not incomplete).
      if (settings.maxFailures !== undefined && client.state.stopped === maxFailuresReason(settings.maxFailures)) {
        outcome.status = 'skip';
        outcome.cause = 'max-failures';
        delete outcome.limit;
        outcome.reason = notJudgedAtMaxFailures(settings.maxFailures);
      }
    } else {
      outcome.status = 'error';
      outcome.reason = shown(`suite error: ${(e as Error)?.message ?? String(e)}`);
    }
  } finally {
    client.onResponse = undefined;
  }
  findings.finish();
  // What the check asked, sent or answered from the run's memory: which check of those asking one
  // request sent it does not change what each counts.
  outcome.requests = client.asked;
  return outcome;
}
