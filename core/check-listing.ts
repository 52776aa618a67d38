import type { CheckDeclaration } from './check.ts';
import type { CheckListing } from './playwright-tests.ts';
import { tagsOf } from './tags.ts';

/** What a Playwright test of each check needs: its id, its tags (for --grep), whether it runs last. */
export function listingOf(checks: readonly CheckDeclaration[]): CheckListing[] {
  return checks.map((c) => ({ id: c.id, tags: tagsOf(c), wholeRun: c.wholeRun ?? false }));
}
