/**
 * Pages that end at their limit, asked where the listing has them whatever its data: 4.1 rule 2 ("`last_id`
 * is the id of the last listed file") holds there without rule 3's exception (a page that ended at the scan
 * bound may name a scan position instead). A page of the shared full listing (limit 1000) that lists more
 * than L files listed them before the scan bound ended it, the bound counting hidden objects (8 rule 1): the
 * page asked again from the same cursor at limit L ends at its limit, after its L-th file, with has_more
 * true. Asked at a spread of limits, with the walk on from its last_id to the next file, so that a last_id
 * that names a file the page did not list shows beside the full listing's page that lists it
 * (files.pagination.last-id-is-last-listed, files.pagination.walks-agree read both in the run's notes).
 * Listings where runs of hidden objects end most pages (a scan bound of 1) have such pages only between
 * them, where no walk from the start reaches at every limit: these are asked on every seed.
 */
import type { ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { fetchPage, UnreadableListing, walkToFile } from './file-pages.ts';
import { fullListing, type Traversal } from './traversal.ts';

/**
 * Limits spread over 1..1000 (Fibonacci numbers, each about 1.6 times the one before), whatever the data:
 * a choice of coverage, never a verdict (a limit not asked leaves its pages unjudged, it fails nothing).
 */
export const LIMIT_SPREAD = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987] as const;

/** Pages each walk on from a full page's last_id may take through pages without a file (4.1 rule 3). */
const WALK_ON_PAGES = 8;

/** Where a page at `limit` asked with `after` ends at its limit: the first page of the full listing that lists more than `limit` files. */
export function fullPagePlaces(
  full: Pick<Traversal, 'fullerPages'>,
  limits: readonly number[],
): Array<{ limit: number; after: string | undefined }> {
  const places: Array<{ limit: number; after: string | undefined }> = [];
  for (const limit of limits) {
    const page = full.fullerPages.find((p) => p.files > limit);
    if (page) places.push({ limit, after: page.after });
  }
  return places;
}

/** Requests fullPageWalks sends at most beside the full listing's: the page and the walk on from it, per limit. */
export const fullPageRequests = (limits: readonly number[]) => limits.length * (1 + WALK_ON_PAGES);

/**
 * Asks the page at each of `limits` from its place (fullPagePlaces) and walks on from its last_id to the
 * next file. A listing that cannot be read (its own cursor refused, a page that is no list) leaves the
 * places unasked: the checks that read it judge that.
 */
export async function fullPageWalks(ctx: ProbeContext, limits: readonly number[]): Promise<void> {
  const container = ctx.target.containerFiles.containerId;
  let full: Traversal;
  try {
    full = await fullListing(ctx, container);
  } catch (e) {
    if (e instanceof ConformanceFailure || e instanceof UnreadableListing) return;
    throw e;
  }
  for (const { limit, after } of fullPagePlaces(full, limits)) {
    try {
      const page = await fetchPage(ctx, container, { limit, ...(after !== undefined ? { after } : {}) });
      const next = page.page.last_id;
      if (!page.page.has_more || next === null) continue;
      await walkToFile(ctx, container, { limit, after: next, maxRequests: WALK_ON_PAGES });
    } catch (e) {
      // A page this walk cannot read ends this walk only: its status or shape is another check's.
      if (!(e instanceof UnreadableListing)) throw e;
    }
  }
}
