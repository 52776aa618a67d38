import type { CheckOutcome } from '../check/check.ts';
import { requirement } from '../document/catalogue.ts';
import type { RunSettings } from './run-settings.ts';

/** Why a run stopped at --max-failures, in the words every output uses; the engine's stop reason. */
export function maxFailuresReason(limit: number): string {
  return `stopped after ${limit} failure${limit === 1 ? '' : 's'} (--max-failures)`;
}

/** A requirement's reason when the run stopped at --max-failures before judging it (a cause, never a failure). */
export function notJudgedAtMaxFailures(limit: number): string {
  return `not judged: ${maxFailuresReason(limit)}`;
}

/**
 * --max-failures: counts the requirements that failed at a gating level (a MUST, or a SHOULD with
 * --fail-on should: the verdict's own rule, reports/build-report.ts) in the outcomes of the checks as
 * they finish, and says when the limit is reached. What failed stays failed ("Verdicts in both
 * directions"): the run is NON-CONFORMANT whichever checks had finished, and the requirements left
 * are not judged, never passed ("No green without evidence").
 */
export class FailureCount {
  private readonly failed = new Set<string>();

  constructor(private readonly settings: Pick<RunSettings, 'maxFailures' | 'failOn'>) {}

  /** Notes one finished check's failures; true once the run has reached its --max-failures. */
  note(outcome: CheckOutcome): boolean {
    const limit = this.settings.maxFailures;
    if (limit === undefined) return false;
    for (const f of outcome.failures) {
      const level = requirement(f.requirementId).level;
      if (level === 'MUST' || (this.settings.failOn === 'should' && level === 'SHOULD'))
        this.failed.add(f.requirementId);
    }
    return this.failed.size >= limit;
  }
}
