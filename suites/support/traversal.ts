import type { ProbeContext } from '../../core/check/check.ts';
import { CannotJudge, ConformanceFailure } from '../../core/check/errors.ts';
import { deadlineLeftMs } from '../../core/run/run-settings.ts';
import { fetchPage, pageEnd, pathOf, readPage, type FetchedPage, type ListedFile } from './file-pages.ts';
import { pageViolation } from './page-rules.ts';
import { PathOrderTracker } from './path-order.ts';
import { shown } from './values.ts';

export interface Traversal {
  files: ListedFile[];
  pages: number;
  /** Pages whose last_id named a scan position (4.1 rule 3). */
  scanBoundPages: number;
  /**
   * Each run of pages in a row that ended at the scan bound (4.1 rule 3): how many files the walk had
   * listed when the run began, so files[filesBefore - 1] is the last file before the hidden objects
   * (none when 0), and how many such pages the run took. The places a walk through hidden objects may
   * lose a file, asked again from their neighbours (files.property.strictly-after, files.property.prefix).
   */
  scanBoundRuns: Array<{ filesBefore: number; pages: number }>;
  /**
   * Each page that listed more files than every page before it, in order: the cursor it was asked with
   * (undefined for the first) and how many files it listed. The first page that lists more than N files,
   * or the first that lists the most, is one of them (full-pages.ts, empty-start.ts); at most one a page
   * size (1 to 1000), however long the listing (rule "Hostile input": memory bounded).
   */
  fullerPages: Array<{ after: string | undefined; files: number }>;
  /** The first scan-position last_id without the cfile_ prefix, if any (4.1 rule 3 lets any token name one). */
  prefixlessScanCursor?: string;
  /** True when the listing ended (has_more false); false when stopped after `stopAfter` pages. */
  complete: boolean;
  /**
   * Why an unjudged walk stopped early: its share of the run's request budget ('page-cap'), the run's
   * deadline drawing near ('deadline'), or files or cursors that did not move forward.
   */
  stopped?: 'page-cap' | 'deadline' | 'not-forward';
  /** The path order(s) the listed files are in (UTF-8 or UTF-16 code units, 2.2 / 4.1). */
  order: PathOrderTracker;
}

export interface TraverseOptions {
  limit: number;
  after?: string;
  /** Stop (without judging the rest) after this many pages: a prefix traversal. */
  stopAfter?: number;
  /** false: read without judging (the shared full listing), stopping where the walk cannot go on. */
  judge?: boolean;
  /**
   * Pages the walk may take: past them it ends unjudged (a skip with the reason), never failed, as a
   * listing may be longer than any bound the suite sets (4.1 rule 3, 8 rule 1).
   */
  pageCap: number;
  /**
   * Milliseconds of the run's deadline the walk leaves to the other checks: once no more than this is
   * left, an unjudged walk stops ('deadline'), so the rest of the listing is said not judged, not lost
   * to a run cut short.
   */
  deadlineReserveMs?: number;
}

/**
 * Follows last_id while has_more (4.1 rule 1), judging every page (assertPageRules) and the walk:
 * files strictly increasing across pages (no file twice, none out of order), each cursor strictly
 * after the previous one. A cursor that cycles or goes backwards fails in bounded time; one that only
 * goes on longer than the page cap ends the traversal unjudged (ctx.skip), as a long listing is legal.
 */
export async function traverse(ctx: ProbeContext, containerId: string, o: TraverseOptions): Promise<Traversal> {
  const files: ListedFile[] = [];
  let after = o.after;
  let pages = 0;
  let scanBoundPages = 0;
  const scanBoundRuns: Traversal['scanBoundRuns'] = [];
  const fullerPages: Traversal['fullerPages'] = [];
  let inRun = false;
  let previous: FetchedPage | undefined;
  const judge = o.judge ?? true;
  const order = new PathOrderTracker();
  // Opaque cursors cannot be compared (4.1 rule 3); one handed out twice is a cycle.
  const cursors = new Set<string>();
  let prefixlessScanCursor: string | undefined;
  const more = () => (prefixlessScanCursor === undefined ? {} : { prefixlessScanCursor });
  const stop = (stopped: Traversal['stopped']): Traversal => ({
    files,
    pages,
    scanBoundPages,
    scanBoundRuns,
    fullerPages,
    complete: false,
    stopped,
    order,
    ...more(),
  });
  for (;;) {
    if (pages >= o.pageCap) {
      if (!judge) return stop('page-cap');
      // Many pages is no failure: every cursor so far was new and none went backwards (checked below),
      // and neither the number of files nor how many hidden objects lie in a row is bounded (8 rule 1,
      // 4.1 rule 3). The cap is the suite's economy, so the traversal ends unjudged, with the reason.
      ctx.skip(
        `the traversal at limit ${o.limit} had not ended after ${pages} pages, each with a new cursor that did not go backwards: a longer walk than the suite spends on one traversal (${o.pageCap} pages), so it is not judged`,
      );
    }
    if (!judge && o.deadlineReserveMs !== undefined && deadlineLeftMs(ctx.settings) <= o.deadlineReserveMs)
      return stop('deadline');
    // Also when only reading (the shared full listing): a refused cursor of the target's own is a failure
    // of the properties that read the listing, which all declare files.pagination.next-page.
    const fp = await fetchFollowed(ctx, containerId, o.limit, after, previous);
    pages++;
    if (fp.page.data.length > (fullerPages.at(-1)?.files ?? 0)) fullerPages.push({ after, files: fp.page.data.length });
    if (judge) {
      // 4.1: each cursor resumes after the previous one, a rule of the walk. A page whose only fault is
      // a last_id that comes back or goes behind breaks 4.1 rule 3 as well, which the whole-run page
      // judge fails on every page anyway: the walk reports its own rule, so progress is not left unreached.
      const broken = pageViolation(fp, order);
      const cursor =
        fp.page.has_more && fp.page.last_id !== null
          ? cursorProblem(fp.page.last_id, after, cursors, order)
          : undefined;
      if (cursor && (broken === undefined || broken.requirementId === 'files.pagination.scan-bound-position'))
        throw new ConformanceFailure('files.pagination.progress', cursor, [fp.res.exchange]);
      if (broken) throw new ConformanceFailure(broken.requirementId, broken.message, [fp.res.exchange]);
    }
    for (const f of fp.page.data) {
      const prev = files[files.length - 1];
      const why = prev ? order.before(prev.path, f.path) : undefined;
      if (why) {
        if (!judge) return stop('not-forward');
        const repeated = files.some((x) => x.path === f.path);
        throw new ConformanceFailure(
          repeated ? 'files.pagination.next-page' : 'files.list.path-order',
          repeated
            ? `file ${shown(f.path)} is listed twice (limit ${o.limit})`
            : `file ${shown(f.path)} comes after ${shown(prev!.path)} across pages (limit ${o.limit}), but ${why}`,
          [fp.res.exchange],
        );
      }
      files.push(f);
    }
    const atBound = pageEnd(fp.page) === 'scan-bound';
    if (atBound) {
      // A page that lists files and ends at the bound begins a run after its last file.
      if (!inRun || fp.page.data.length > 0) scanBoundRuns.push({ filesBefore: files.length, pages: 0 });
      scanBoundRuns[scanBoundRuns.length - 1]!.pages++;
    }
    inRun = atBound;
    if (atBound) {
      scanBoundPages++;
      if (!fp.page.last_id!.startsWith('cfile_')) prefixlessScanCursor ??= fp.page.last_id!;
    }
    if (!fp.page.has_more) {
      if (judge) await expectNothingAfter(ctx, containerId, fp);
      return { files, pages, scanBoundPages, scanBoundRuns, fullerPages, complete: true, order, ...more() };
    }
    if (o.stopAfter !== undefined && pages >= o.stopAfter)
      return { files, pages, scanBoundPages, scanBoundRuns, fullerPages, complete: false, order, ...more() };
    const next = fp.page.last_id;
    // 4.1 rule 1: has_more true needs a cursor; a walk without one cannot go on (judged: a failure).
    if (next === null) {
      if (!judge) return stop('not-forward');
      throw new ConformanceFailure(
        'files.pagination.last-id-when-has-more',
        `has_more is true but last_id is null (limit ${o.limit})`,
        [fp.res.exchange],
      );
    }
    const problem = cursorProblem(next, after, cursors, order);
    if (problem) {
      if (!judge) return stop('not-forward');
      throw new ConformanceFailure('files.pagination.progress', problem, [fp.res.exchange]);
    }
    cursors.add(next);
    after = next;
    previous = fp;
  }
}

/**
 * 4.1: each cursor resumes after the previous one. Compared where both name a path; an opaque cursor
 * (a scan position, 4.1 rule 3) only may not come back; the page cap ends the rest unjudged. What is
 * wrong with `next`, or undefined.
 */
function cursorProblem(
  next: string,
  after: string | undefined,
  cursors: ReadonlySet<string>,
  order: PathOrderTracker,
): string | undefined {
  const nextPath = pathOf(next);
  const prevPath = after === undefined ? undefined : pathOf(after);
  const backwards = nextPath !== undefined && prevPath !== undefined ? order.before(prevPath, nextPath) : undefined;
  if (!cursors.has(next) && !backwards) return undefined;
  return `cursor ${next}${nextPath !== undefined ? ` (${shown(nextPath)})` : ''} is not after the previous cursor${prevPath !== undefined ? ` (${shown(prevPath)})` : ''}: ${cursors.has(next) ? 'it was handed out before' : backwards}`;
}

/**
 * One page of a traversal. After a page with has_more true, 2.2 promises another page with after set to
 * its last_id, whatever that token looks like (4.1 rule 3): a refusal (4xx) is files.pagination.next-page's
 * failure. Other answers cannot be judged here (readPage says why).
 */
async function fetchFollowed(
  ctx: ProbeContext,
  containerId: string,
  limit: number,
  after: string | undefined,
  from: FetchedPage | undefined,
): Promise<FetchedPage> {
  if (from === undefined || after === undefined)
    return fetchPage(ctx, containerId, { limit, ...(after !== undefined ? { after } : {}) });
  const res = await ctx.api.listContainerFiles(containerId, { limit, after });
  if (res.status >= 400 && res.status < 500) {
    throw new ConformanceFailure(
      'files.pagination.next-page',
      `has_more was true, yet after=last_id (${after}) answered HTTP ${res.status}: 2.2 promises another page`,
      [from.res.exchange, res.exchange],
    );
  }
  return { res, page: readPage(res), limit, after };
}

/**
 * 2.2: has_more is true when another page can be fetched with after = last_id, so when it is false
 * nothing may come after last_id. One request settles it whatever the data: a page that ends early
 * (at the scan bound) while claiming to be the last is caught here.
 */
async function expectNothingAfter(ctx: ProbeContext, containerId: string, last: FetchedPage): Promise<void> {
  if (last.page.last_id === null) return;
  const next = await fetchPage(ctx, containerId, { limit: 1000, after: last.page.last_id });
  const first = next.page.data[0];
  if (first) {
    throw new ConformanceFailure(
      'files.pagination.next-page',
      `has_more was false, yet after=last_id (${last.page.last_id}) lists ${shown(first.path)}: the listing ended early`,
      [last.res.exchange, next.res.exchange],
    );
  }
}

/**
 * Fraction of the run's request budget the shared full listing may spend: every record of the listing is
 * judged only where a page holding it is fetched, and neither the number of files nor how many hidden
 * objects lie in a row is bounded (8 rule 1, 4.1 rule 3), so the listing is read as far as this share
 * goes, whatever its length; what lies past it is said not judged. The rest is the other checks'
 * (their own shares: walkAllowance, the properties' budgetShare), so they still run beside it.
 */
export const FULL_LISTING_SHARE = 0.4;

/**
 * Fraction of the run's deadline the full listing leaves to the rest of the run: a listing read at the
 * target's pace stops with the rest said not judged while the other checks can still finish.
 */
export const FULL_LISTING_DEADLINE_RESERVE = 0.25;

/** The limit the shared full listing is read at: the maximum (4.1), so the fewest requests. */
export const FULL_LISTING_LIMIT = 1000;

/** The pages the shared full listing may fetch: its share of the run's budget. */
export function fullListingPages(ctx: Pick<ProbeContext, 'settings'>): number {
  return Math.floor(ctx.settings.maxRequests * FULL_LISTING_SHARE);
}

/**
 * The full listing at limit 1000 (fewest requests), shared by the properties of one run. It is
 * the target compared with itself: other traversals must give the same sequence (limit-independent).
 * Fetched once per run: every page is answered from the run's memory to the checks that walk it
 * after the first (core/http/client.ts), and checks walking it together wait for the one request of each
 * page. Each check walks it itself, so each sees (and its judges judge) every page, whichever check
 * ran first: what a check concludes does not depend on the order the checks ran in.
 */
export async function fullListing(ctx: ProbeContext, containerId: string): Promise<Traversal> {
  // A share of the budget, not what is left of it: that depends on which checks ran before.
  const cap = fullListingPages(ctx);
  if (cap < 1)
    throw new CannotJudge(
      'budget',
      `request budget of ${ctx.settings.maxRequests} spent before the full listing could be read (its share of the budget, ${FULL_LISTING_SHARE}, is not one page)`,
    );
  // Read, not judged: the properties judge every page they fetch themselves, inside fast-check, so a
  // fault surfaces as a shrunk counterexample rather than as a failure of this shared read.
  return traverse(ctx, containerId, {
    limit: FULL_LISTING_LIMIT,
    pageCap: cap,
    judge: false,
    deadlineReserveMs: ctx.settings.deadlineMs * FULL_LISTING_DEADLINE_RESERVE,
  });
}

/** Where the shared full listing stopped unread, in words (a skip's reason), or undefined when it ended or stopped on the target's own cursor. */
export function listingNotRead(full: Traversal): string | undefined {
  if (full.stopped !== 'page-cap' && full.stopped !== 'deadline') return undefined;
  const last = full.files[full.files.length - 1];
  const where = last ? `as far as ${full.files.length} file(s), the last ${shown(last.path)},` : 'as far as no file';
  const why =
    full.stopped === 'page-cap'
      ? `its share of the request budget (${full.pages} pages at limit 1000, ${FULL_LISTING_SHARE} of --max-requests) was spent with has_more still true`
      : `the run's deadline drew near (${FULL_LISTING_DEADLINE_RESERVE} of --deadline is left to the other checks) with has_more still true`;
  return `the listing was read ${where} and no further: ${why}; the files past it and their records are not judged (a larger --max-requests or --deadline judges more)`;
}

/**
 * The page cap of a traversal at `limit` over a listing of `n` files with `scanBoundPages` scan-bound pages,
 * read in `fullPages` pages at limit 1000: a target may end its pages below limit (4.1 never says a page
 * is full), so a traversal may take as many pages as the full listing took, and more. The caller bounds
 * it by its own share of the budget.
 */
export function pageCapFor(n: number, limit: number, scanBoundPages: number, fullPages = 0): number {
  return 2 * Math.ceil(n / limit) + 2 * scanBoundPages + 2 * fullPages + 10;
}
