import type { RequirementId } from '../../spec/requirement-ids.ts';
import type { Exchange } from './evidence.ts';

/** A fast-check counterexample, with what it takes to replay it. */
export interface Counterexample {
  value: unknown;
  seed: number;
  path?: string;
  numRuns?: number;
}

/**
 * The target broke a requirement. Anything else thrown by a probe is a suite error (graphql-http's
 * split between "the target failed" and "the suite broke"): reported as `error`, never as `fail`.
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  constructor(
    readonly requirementId: RequirementId,
    message: string,
    readonly exchanges: readonly Exchange[] = [],
    readonly counterexample?: Counterexample,
  ) {
    super(message);
  }
}

/**
 * The requirement could not be judged because of the target or the run's limits (time-out, refused
 * connection, rate limit after retries, budget spent). Reported as `error` (or `skip` for the budget).
 */
export class CannotJudge extends Error {
  override readonly name = 'CannotJudge';
  constructor(
    /**
     * `target-file`: the target file does not describe the target (e.g. interns parameter names the
     * server does not know); `unreadable`: what the target answered cannot be read for this check
     * (another check judges it, e.g. a listing that is not 200); `budget`: the request budget is
     * spent; `stopped`: the run sends nothing more (deadline, interruption, a target that stopped
     * answering); `unsendable`: a request the suite does not send (a URL past MAX_URL_CHARS, built from a
     * value the target sent): the point is not judged, with that reason, and nothing is the suite's error;
     * `not-recorded`: an offline run (`conformance judge`) asked what its recording does not hold.
     */
    readonly reason:
      | 'transport'
      | 'rate-limited'
      | 'budget'
      | 'stopped'
      | 'target-file'
      | 'unreadable'
      | 'unsendable'
      | 'not-recorded',
    message: string,
    readonly exchanges: readonly Exchange[] = [],
  ) {
    super(message);
  }
}

/** A check that cannot run against this target (an optional target field is absent). */
export class SkipCheck extends Error {
  override readonly name = 'SkipCheck';
}
