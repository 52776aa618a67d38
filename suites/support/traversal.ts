import type { ProbeContext } from '../../core/check.ts';
import { CannotJudge, ConformanceFailure } from '../../core/errors.ts';
import { comparePaths } from '../../core/file-id.ts';
import { fetchPage, pageEnd, pathOf, type FetchedPage, type ListedFile } from './file-pages.ts';
import { assertPageRules } from './page-rules.ts';

export interface Traversal {
  files: ListedFile[];
  pages: number;
  /** Pages whose last_id named a scan position (4.1 rule 3). */
  scanBoundPages: number;
  /** True when the listing ended (has_more false); false when stopped after `stopAfter` pages. */
  complete: boolean;
  /** Why an unjudged walk stopped early: its page cap, or files or cursors that did not move forward. */
  stopped?: 'page-cap' | 'not-forward';
}

export interface TraverseOptions {
  limit: number;
  after?: string;
  /** Stop (without judging the rest) after this many pages: a prefix traversal. */
  stopAfter?: number;
  /** false: read without judging (the shared full listing), stopping where the walk cannot go on. */
  judge?: boolean;
  /** More pages than this is a failure of progress (4.1): the cursor does not lead to the end. */
  pageCap: number;
}

/**
 * Follows last_id while has_more (4.1 rule 1), judging every page (assertPageRules) and the walk:
 * files strictly increasing across pages (no file twice, none out of order), each cursor strictly
 * after the previous one, and the page cap. A cursor that cycles, goes backwards or never ends fails
 * in bounded time.
 */
export async function traverse(ctx: ProbeContext, containerId: string, o: TraverseOptions): Promise<Traversal> {
  const files: ListedFile[] = [];
  let after = o.after;
  let pages = 0;
  let scanBoundPages = 0;
  let previous: FetchedPage | undefined;
  const judge = o.judge ?? true;
  const stop = (stopped: Traversal['stopped']): Traversal => ({ files, pages, scanBoundPages, complete: false, stopped });
  for (;;) {
    if (pages >= o.pageCap) {
      if (!judge) return stop('page-cap');
      throw new ConformanceFailure('files.pagination.progress', `traversal at limit ${o.limit} still had has_more after ${pages} pages (cap derived from the listing); the cursor does not lead to the end`, previous ? [previous.res.exchange] : []);
    }
    const fp = await fetchPage(ctx, containerId, { limit: o.limit, ...(after !== undefined ? { after } : {}) });
    pages++;
    if (judge) assertPageRules(fp);
    for (const f of fp.page.data) {
      const prev = files[files.length - 1];
      if (prev && comparePaths(prev.path, f.path) >= 0) {
        if (!judge) return stop('not-forward');
        const repeated = files.some((x) => x.path === f.path);
        throw new ConformanceFailure(
          repeated ? 'files.pagination.next-page' : 'files.list.path-order',
          repeated ? `file ${JSON.stringify(f.path)} is listed twice across pages (limit ${o.limit})` : `file ${JSON.stringify(f.path)} comes after ${JSON.stringify(prev.path)} across pages (limit ${o.limit})`,
          [fp.res.exchange],
        );
      }
      files.push(f);
    }
    if (pageEnd(fp.page) === 'scan-bound') scanBoundPages++;
    if (!fp.page.has_more) {
      if (judge) await expectNothingAfter(ctx, containerId, fp);
      return { files, pages, scanBoundPages, complete: true };
    }
    if (o.stopAfter !== undefined && pages >= o.stopAfter) return { files, pages, scanBoundPages, complete: false };
    const next = fp.page.last_id!;
    const nextPath = pathOf(next);
    const prevPath = after === undefined ? undefined : pathOf(after);
    if (!judge && (nextPath === undefined || (prevPath !== undefined && comparePaths(nextPath, prevPath) <= 0))) return stop('not-forward');
    if (nextPath === undefined) throw new ConformanceFailure('files.pagination.progress', `last_id ${JSON.stringify(next)} is not a container file id, so it cannot be followed`, [fp.res.exchange]);
    if (prevPath !== undefined && comparePaths(nextPath, prevPath) <= 0) {
      throw new ConformanceFailure('files.pagination.progress', `cursor ${next} (${JSON.stringify(nextPath)}) is not after the previous cursor (${JSON.stringify(prevPath)}): ${nextPath === prevPath ? 'repeated' : 'went backwards'}`, [fp.res.exchange]);
    }
    after = next;
    previous = fp;
  }
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
      `has_more was false, yet after=last_id (${last.page.last_id}) lists ${JSON.stringify(first.path)}: the listing ended early`,
      [last.res.exchange, next.res.exchange],
    );
  }
}

/** Largest page cap of any traversal, whatever the data: beyond it the run's budget is the bound. */
export const ABSOLUTE_PAGE_CAP = 400;

// One cache per client: the client lives as long as the run's worker (or one in-process probe), so a
// listing is never reused for another target, even one that got the same address.
const caches = new WeakMap<object, Map<string, Traversal>>();

/**
 * The full listing at limit 1000 (fewest requests), shared by the properties of one run. It is
 * the target compared with itself: other traversals must give the same sequence (limit-independent).
 */
export async function fullListing(ctx: ProbeContext, containerId: string): Promise<Traversal> {
  let cache = caches.get(ctx.api);
  if (!cache) caches.set(ctx.api, (cache = new Map()));
  const key = containerId;
  const hit = cache.get(key);
  if (hit) return hit;
  // At most a tenth of the budget: beyond that no traversal property could afford to compare with it.
  const remaining = ctx.settings.maxRequests - ctx.api.log.count;
  const cap = Math.min(ABSOLUTE_PAGE_CAP, Math.floor(ctx.settings.maxRequests / 10), Math.floor(remaining / 2));
  if (cap < 1) throw new CannotJudge('budget', `request budget of ${ctx.settings.maxRequests} spent before the full listing could be read (${remaining} left)`);
  // Read, not judged: the properties judge every page they fetch themselves, inside fast-check, so a
  // fault surfaces as a shrunk counterexample rather than as a failure of this shared read.
  const t = await traverse(ctx, containerId, { limit: 1000, pageCap: cap, judge: false });
  cache.set(key, t);
  return t;
}

/** The page cap of a traversal at `limit` over a listing of `n` files with `scanBoundPages` scan-bound pages. */
export function pageCapFor(n: number, limit: number, scanBoundPages: number): number {
  return Math.min(ABSOLUTE_PAGE_CAP, 2 * Math.ceil(n / limit) + 2 * scanBoundPages + 10);
}
