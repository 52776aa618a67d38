import { expectedFinishOrder, type CheckDeclaration } from './check.ts';
import { DEFAULTS } from '../run/run-settings.ts';
import { tagsOf } from './tags.ts';

export interface CheckListing {
  id: string;
  tags: string[];
  wholeRun: boolean;
  /** The check's declaration (suites/check-locations.ts): where Playwright locates its test. */
  location?: { file: string; line: number; column: number };
}

/**
 * What a Playwright test of each check needs: its id, its tags (for --grep), whether it runs last; in
 * the order a run with the default settings is expected to finish them (expectedFinishOrder), which is
 * the order the tests ask for their outcomes. The same whatever the run's settings, so every shard of
 * a run splits the same list.
 */
export function listingOf(checks: readonly CheckDeclaration[]): CheckListing[] {
  return expectedFinishOrder(checks, DEFAULTS.numRuns, DEFAULTS.concurrency).map((c) => ({
    id: c.id,
    tags: tagsOf(c),
    wholeRun: c.wholeRun ?? false,
  }));
}
