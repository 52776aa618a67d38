import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * What the listContainerFiles checks share (2.1, 2.2, 4.1, 8): the limits, the configured container,
 * a sample of its files, the path order of a page, the page after a cursor, a rejected parameter.
 */
import { ConformanceFailure } from '../../core/check/errors.ts';
import type { ProbeContext } from '../../core/check/check.ts';
import { expectStatus } from '../../core/check/expect.ts';
import { expectErrorShape } from '../judges/response-schema.ts';
import { errorBody } from './operations.ts';
import { PathOrderTracker } from './path-order.ts';
import { fullListing, fullListingPages } from './traversal.ts';
import { NO_FILE_LISTED } from './no-file-listed.ts';
import {
  filesOf,
  UnreadableListing,
  walkPages,
  walkToFile,
  type FetchedPage,
  type ForwardWalk,
  type ListedFile,
} from './file-pages.ts';

/** 4.1 / 8: limit 1 to 1000, default 100. */
export const LIMIT_MAX = 1000;
export const LIMIT_DEFAULT = 100;
/** Pages a sampling check walks at limit 1000: enough to pass a scan-bound page or two, few requests. */
export const SAMPLE_PAGES = 4;

export const main = (ctx: ProbeContext) => ctx.target.containerFiles.containerId;

/**
 * The files of the first pages of the container at limit 1000 (skips only when it lists none at all).
 * A listing may begin with any number of hidden objects (4.1 rule 3: `data` may be empty, 8 rule 1),
 * so pages without a file are followed as the shared full listing follows them, within its share of
 * the budget (the same requests, answered from the run's memory to whichever walk asks second).
 */
export async function sampleFiles(
  ctx: ProbeContext,
  pagesMax = SAMPLE_PAGES,
): Promise<Array<{ file: ListedFile; at: FetchedPage }>> {
  const walk = await firstListedPages(ctx, main(ctx), pagesMax);
  const files = filesOf(walk.pages);
  if (files.length === 0) ctx.skip(walk.noFile ?? 'containerFiles.containerId lists no file');
  return files;
}

/**
 * The first `pagesMax` pages of a container at limit 1000 and, when none of them lists a file and the
 * listing goes on, the pages after them up to the first that lists one (walkToFile, within the full
 * listing's share of the budget). `noFile` says why no file was reached, with its own cause.
 */
export async function firstListedPages(
  ctx: ProbeContext,
  containerId: string,
  pagesMax: number,
): Promise<{ pages: FetchedPage[]; noFile?: string }> {
  const { pages, end } = await walkPages(ctx, containerId, { limit: LIMIT_MAX, maxPages: pagesMax });
  if (filesOf(pages).length > 0) return { pages };
  const last = pages[pages.length - 1]!;
  if (end === 'last-page') return { pages, noFile: emptyListing(containerId, pages.length) };
  if (last.page.last_id === null || (end !== 'max-pages' && end !== 'allowance'))
    return {
      pages,
      noFile: `the listing of ${containerId} does not go on past ${pages.length} page(s) without a file (the pagination checks judge its cursors)`,
    };
  const more = await walkToFile(ctx, containerId, {
    limit: LIMIT_MAX,
    after: last.page.last_id,
    maxRequests: Math.max(1, fullListingPages(ctx) - pages.length),
  });
  const all = [...pages, ...more.pages];
  if (more.end === 'file') return { pages: all };
  if (more.end === 'last-page') return { pages: all, noFile: emptyListing(containerId, all.length) };
  if (more.end === 'allowance')
    return {
      pages: all,
      noFile: `the listing of ${containerId} showed no file in ${all.length} page(s) with has_more true, each a new cursor (4.1 rule 3: legal): the full listing's share of the request budget was spent before a file (a larger --max-requests judges it)`,
    };
  return {
    pages: all,
    noFile: `the listing of ${containerId} does not go on past ${all.length} page(s) without a file (the pagination checks judge its cursors)`,
  };
}

/** Why no file was sampled from a listing that ended without one (the cause no-file-listed.ts names). */
const emptyListing = (containerId: string, pages: number) =>
  `${NO_FILE_LISTED}: the listing of ${containerId} ended after ${pages} page(s) without one`;

/**
 * The path order(s) a page is in (UTF-8 or UTF-16 code units, 2.2 / 4.1), to compare other paths with
 * its files. Throws (as a suite error, not a failure) when it is in neither: files.list.path-order judges that.
 */
export function orderOf(p: FetchedPage): PathOrderTracker {
  const order = new PathOrderTracker();
  const d = p.page.data;
  for (let i = 1; i < d.length; i++) {
    if (order.before(d[i - 1]!.path, d[i]!.path)) {
      throw new UnreadableListing(
        `cannot judge: GET ${p.res.exchange.request.url} is not in path order (files.list.path-order judges it)`,
      );
    }
  }
  return order;
}

/** C0 controls and DEL: whether after may name such a path is left open (files.after.control-char-paths). */
export const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The page after `after` that lists the first file after it: through any number of empty pages that end
 * at the scan bound (4.1 rule 3), bounded only by the walk's share of the budget (file-pages.ts walkToFile).
 */
export async function firstFilesAfter(ctx: ProbeContext, after: string, limit: number): Promise<ForwardWalk> {
  return walkToFile(ctx, main(ctx), { limit, after });
}

export const q = (s: string) => JSON.stringify(s);
/** Where a sampled file sits in the page that is the evidence, for a message. */
export const where = (file: ListedFile, at: FetchedPage) => `/data/${at.page.data.indexOf(file)}`;

/** 7.1: a rejected parameter is 400 with the container-files error body. */
export async function expectRejected(
  ctx: ProbeContext,
  query: Record<string, string>,
  requirementId: RequirementId,
  what: string,
): Promise<void> {
  const res = await ctx.api.listContainerFiles(main(ctx), query);
  expectStatus(res, 400, requirementId, what);
  // The body whatever its media type: that is general.json-body's and general.json-media-type's.
  // The optional members of section 7 are general.errors.shape's (expectErrorShape).
  expectErrorShape('listContainerFiles', res, errorBody(res, 'files.errors.shape'));
}

/**
 * Whether the target may read an `after` without the cfile_ prefix as a scan position of its own (4.1
 * rule 3: "last_id names the scan position", by any token; reading scan-cursor-bare-base64): one of
 * its scan-bound cursors in the shared full listing lacks the prefix. `cursor` is that cursor; `unknown`
 * says why it cannot be told (the listing was cut before a page ended at the scan bound), so that a
 * refusal of such values is demanded only of a target whose cursors were seen, or whose listing ended.
 */
export async function prefixlessScanCursor(ctx: ProbeContext): Promise<{ cursor?: string; unknown?: string }> {
  let full;
  try {
    full = await fullListing(ctx, main(ctx));
  } catch (e) {
    // A listing that cannot be followed (its own cursor refused) is files.pagination.next-page's to fail,
    // in the checks that declare it; here it only leaves the question open.
    if (!(e instanceof ConformanceFailure)) throw e;
    return {
      unknown: `the shared listing of containerFiles.containerId could not be followed (${e.requirementId}: ${e.message}), so whether the target names scan positions without the cfile_ prefix (4.1 rule 3) is not known`,
    };
  }
  if (full.prefixlessScanCursor !== undefined) return { cursor: full.prefixlessScanCursor };
  if (full.scanBoundPages === 0 && !full.complete) {
    return {
      unknown: `the shared listing of containerFiles.containerId was cut after ${full.pages} pages at limit ${LIMIT_MAX} before any page ended at the scan bound, so whether the target names scan positions without the cfile_ prefix (4.1 rule 3) is not known`,
    };
  }
  return {};
}
