import fc from 'fast-check';
import type { ProbeContext } from '../../core/check.ts';
import { dataJson, toData } from '../../core/data-json.ts';
import { CannotJudge, ConformanceFailure, SkipCheck } from '../../core/errors.ts';
import { checkReplayCommand } from '../../core/replay.ts';

/** The counterexample in a failure message: enough to read it; the report holds it whole. */
const MESSAGE_COUNTEREXAMPLE_CHARS = 600;

export interface PropertyOptions<T> {
  arbitrary: fc.Arbitrary<T>;
  /** Requests one run may send at most; with the property's share of the budget it sets numRuns. */
  requestsPerRun: number;
  /** Fraction of the run's request budget this property may spend (e.g. 0.05). */
  budgetShare: number;
  /** Judges one generated value; throws ConformanceFailure when the target breaks a requirement. */
  predicate: (value: T) => Promise<void>;
}

/**
 * Runs a fast-check property against the target. The seed is the check's own (derived from the run
 * seed), so a run replays exactly; numRuns is the run's setting, lowered to fit the property's share
 * of the request budget. A failure carries the shrunk counterexample, the seed and the path, and the
 * command that replays it. Requests that cannot be judged (time-out, budget) never count as
 * counterexamples: the check ends as `error` or `skip` instead.
 */
export async function checkProperty<T>(ctx: ProbeContext, checkId: string, o: PropertyOptions<T>): Promise<void> {
  const share = Math.floor(ctx.settings.maxRequests * o.budgetShare);
  const numRuns = Math.max(1, Math.min(ctx.settings.numRuns, Math.floor(share / o.requestsPerRun)));
  let cannotJudge: Error | undefined;
  const property = fc.asyncProperty(o.arbitrary, async (value) => {
    if (cannotJudge) return true;
    try {
      await o.predicate(value);
      return true;
    } catch (e) {
      if (e instanceof ConformanceFailure) throw e;
      // The predicate cannot judge (a request the run cannot send, a bound of the suite's own reached):
      // no counterexample, no more runs; the check ends as `error` or `skip` with the reason.
      if (e instanceof CannotJudge || e instanceof SkipCheck) {
        cannotJudge = e;
        return true;
      }
      throw e;
    }
  });
  const result = await fc.check(property, {
    seed: ctx.seed,
    numRuns,
    ...(ctx.settings.replayPath ? { path: ctx.settings.replayPath } : {}),
    // Shrinking re-sends requests: bounded in time, like everything else the suite does.
    interruptAfterTimeLimit: 60_000,
    markInterruptAsFailure: false,
  });
  if (result.failed) {
    const err = result.errorInstance;
    if (!(err instanceof ConformanceFailure)) throw err instanceof Error ? err : new Error(String(err));
    // The counterexample as data (a generated function or symbol as a marker, never its source),
    // the same in the message, the report and the replay.
    const value = toData(result.counterexample?.[0]);
    const path = result.counterexamplePath ?? undefined;
    const replay = checkReplayCommand(ctx.settings.replay, ctx.settings.seed, checkId, path);
    throw new ConformanceFailure(
      err.requirementId,
      `${err.message} — counterexample (${shapeOf(value)}, the generated input of ${checkId}): ${dataJson(value, MESSAGE_COUNTEREXAMPLE_CHARS)} (after ${result.numShrinks} shrinks; replay: ${replay})`,
      err.exchanges,
      { value, seed: result.seed, ...(path ? { path } : {}), numRuns },
    );
  }
  if (cannotJudge) throw cannotJudge;
}

/** What a counterexample is, in words (issue 21: a bare `counterexample 68` explains nothing). */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'string':
      return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
    case 'boolean':
      return 'a boolean';
    case 'object': {
      const keys = Object.keys(value as object);
      return keys.length ? `an object with ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}` : 'an empty object';
    }
    default:
      return typeof value;
  }
}
