import fc from 'fast-check';
import type { ProbeContext } from '../../core/check/check.ts';
import { dataJson, toData } from '../../core/text/data-json.ts';
import { CannotJudge, ConformanceFailure, SkipCheck } from '../../core/check/errors.ts';
import { checkReplayCommand } from '../../core/run/replay.ts';
import { settleInFlight } from '../../core/http/in-flight.ts';
import { concurrencyOf } from '../../core/run/run-settings.ts';

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
  /**
   * The runs share state (a counter, a share of the budget read as they go): they are judged one after
   * another, as fast-check asks. Otherwise a run's outcome depends only on its value and the target's
   * answers, and its runs are judged several at once.
   */
  runsInOrder?: boolean;
  /**
   * Values judged on every seed before the generated ones (fast-check's `examples`): the places a
   * random value rarely lands. One that fails is reported like any counterexample, shrunk where the
   * arbitrary can shrink it, with the path that replays it (the replay asks the same examples first).
   */
  examples?: readonly T[];
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
  const examples = o.examples ?? [];
  let cannotJudge: Error | undefined;
  // A value the target's data leaves nothing to judge on (SkipCheck) is one run not judged, not the
  // property's end: the runs judged before and after it stand ("No green without evidence" asks for
  // one judged run; a property none of whose values could be judged ends as that skip).
  let skipped: SkipCheck | undefined;
  let judgedRuns = 0;
  // The runs judged ahead, up to --concurrency at once (their requests wait for the run's connections
  // like any other): a property of twenty walks takes the time of its longest walk, not of twenty in a
  // row. Read back in run order: fast-check's values are those fc.sample draws with the same
  // seed (each compared before its outcome is used), so the first run that does not pass, the shrinking
  // from it and the verdict are those of runs judged one after another. A replay judges its path alone.
  // The examples come first, then the generated values (fast-check draws these as if there were none).
  const ahead =
    o.runsInOrder || ctx.settings.replayPath
      ? []
      : [...examples, ...fc.sample(o.arbitrary, { seed: ctx.seed, numRuns })];
  const aheadJudged =
    ahead.length > 0 ? await settleInFlight(ahead, concurrencyOf(ctx.settings), (value) => o.predicate(value)) : [];
  let run = 0;
  let shrinking = false;
  const judge = async (value: T): Promise<void> => {
    const i = run++;
    const known = shrinking ? undefined : aheadJudged[i];
    if (known && fc.stringify(value) === fc.stringify(ahead[i])) {
      if (!known.ok) throw known.thrown;
      return;
    }
    await o.predicate(value);
  };
  const property = fc.asyncProperty(o.arbitrary, async (value) => {
    if (cannotJudge) return true;
    try {
      try {
        await judge(value);
        judgedRuns++;
      } catch (e) {
        // A run that did not pass ends the runs fast-check draws; what it asks next are shrinks (a
        // skipped value passes, and fast-check draws on).
        if (!(e instanceof SkipCheck)) shrinking = true;
        throw e;
      }
      return true;
    } catch (e) {
      if (e instanceof ConformanceFailure) throw e;
      if (e instanceof SkipCheck) {
        skipped ??= e;
        return true;
      }
      // The predicate cannot judge (a request the run cannot send, a bound of the suite's own reached):
      // no counterexample, no more runs; the check ends as `error` or `skip` with the reason.
      if (e instanceof CannotJudge) {
        cannotJudge = e;
        return true;
      }
      throw e;
    }
  });
  const result = await fc.check(property, {
    seed: ctx.seed,
    // fast-check counts the examples among its runs: the generated runs stay numRuns.
    numRuns: numRuns + examples.length,
    ...(examples.length > 0 ? { examples: examples.map((e): [T] => [e]) } : {}),
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
  if (skipped && judgedRuns === 0) throw skipped;
}

/** What a counterexample is, in words (a bare `counterexample 68` explains nothing). */
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
      return keys.length
        ? `an object with ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}`
        : 'an empty object';
    }
    default:
      return typeof value;
  }
}
