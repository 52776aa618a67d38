import { ConformanceFailure } from '../../core/check/errors.ts';
import type { ListedFile } from './file-pages.ts';
import { FULL_LISTING_LIMIT, type Traversal } from './traversal.ts';
import { shown } from './values.ts';

/**
 * 2.2 / 4.1: the files of a traversal at `limit` must be the files of the full listing, in order. Where a
 * side is only the start of its listing (a prefix traversal, or a full listing cut by the budget), only
 * as far as it reaches is compared: what lies past a cut is not known, so it is never a failure.
 */
export function expectSameFiles(
  got: readonly ListedFile[],
  want: readonly ListedFile[],
  limit: number,
  cut: { got: boolean; want: boolean },
): void {
  const n =
    cut.got && cut.want
      ? Math.min(got.length, want.length)
      : cut.got
        ? got.length
        : cut.want
          ? want.length
          : Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    const g = got[i]?.path;
    const w = want[i]?.path;
    if (g === w) continue;
    const what =
      g === undefined
        ? `ends after ${i} files where limit 1000 lists ${shown(w)} next`
        : w === undefined
          ? `lists ${shown(g)} after the last file of limit 1000`
          : `lists ${shown(g)} at position ${i} where limit 1000 lists ${shown(w)}`;
    throw new ConformanceFailure('files.pagination.limit-independent', `traversal at limit ${limit} ${what}`);
  }
}

/**
 * The places files.property.strictly-after asks on every seed: after the last file of a listing that
 * ended (nothing may follow), and after the last file before each run of scan-bound pages the full
 * listing met, at limit 1 and at the full listing's own limit, in the listing's order.
 */
export function fixedPlaces(full: Traversal): Array<{ at: { path: string; position: string }; limit: number }> {
  const places: Array<{ at: { path: string; position: string }; limit: number }> = [];
  const last = full.files[full.files.length - 1];
  if (full.complete && last) places.push({ at: { path: last.path, position: 'last listed' }, limit: 1 });
  for (const run of full.scanBoundRuns) {
    const before = full.files[run.filesBefore - 1];
    if (!before) continue;
    for (const limit of [1, FULL_LISTING_LIMIT])
      places.push({ at: { path: before.path, position: 'last before hidden objects, listed' }, limit });
  }
  return places;
}
