/**
 * listContainerFiles pagination (4.1 rules 1-5, 8 rule 1): the rules a walk over several pages shows.
 * The fast-check properties of pagination (any limit, any cursor) are in pagination-properties.ts.
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import {
  fetchPage,
  pageEnd,
  pathOf,
  readPage,
  UnreadableListing,
  walkOrSkip,
  walkPages,
  walkToFile,
  type FetchedPage,
} from '../support/file-pages.ts';
import { PathOrderTracker } from '../support/path-order.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { pageName, queryOf, type FilePageNote } from '../support/cross-walks.ts';
import { fullPageWalks, LIMIT_SPREAD } from '../support/full-pages.ts';
import { lastIdsPassingOver } from '../support/last-id-files.ts';
import { listsNoFile, NO_FILE_LISTED, notJudgedWithoutFiles } from '../support/no-file-listed.ts';
import { shown } from '../support/values.ts';

/** 4.1 / 8: limit maximum 1000. */
const LIMIT_MAX = 1000;

const main = (ctx: ProbeContext) => ctx.target.containerFiles.containerId;

/** The page judge whose notes keep every page of the run (suites/judges/container-file-pages.ts). */
const PAGES_JUDGE_ID = 'files.pages';
/** Pages of each of files.pagination.last-id-is-last-listed's own walks. */
const OWN_WALK_PAGES = 3;

/** files.pagination.last-id-is-last-listed's own walks from the start, at limit 10 and 1000: their pages. */
async function ownLastIdWalks(ctx: ProbeContext): Promise<FetchedPage[]> {
  const pages: FetchedPage[] = [];
  for (const limit of [10, LIMIT_MAX])
    pages.push(...(await walkPages(ctx, main(ctx), { limit, maxPages: OWN_WALK_PAGES })).pages);
  return pages;
}
const q = (s: string) => JSON.stringify(s);

/** The page after `from`, fetched with after set to its last_id: 2.2 promises it (a refusal fails files.pagination.next-page). */
async function nextPageAfter(ctx: ProbeContext, lastId: string, _from: FetchedPage): Promise<FetchedPage> {
  const res = await ctx.api.listContainerFiles(main(ctx), { limit: LIMIT_MAX, after: lastId });
  ctx.conform(
    !(res.status >= 400 && res.status < 500),
    'files.pagination.next-page',
    `has_more was true, yet after=last_id (${lastId}) answered HTTP ${res.status}: 2.2 promises another page`,
    res,
  );
  return { res, page: readPage(res), limit: LIMIT_MAX, after: lastId };
}

export const paginationChecks = defineChecks([
  {
    id: 'files.pagination.last-id-when-has-more',
    title: 'last_id is non-null whenever has_more is true',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.last-id-when-has-more'],
    async probe(ctx: ProbeContext) {
      // 4.1 rule 1: the next page is fetched with after = last_id, so has_more needs a cursor.
      const { pages } = await walkPages(ctx, main(ctx), { limit: 10, maxPages: 4 });
      for (const p of pages) {
        ctx.conform(
          !(p.page.has_more && p.page.last_id === null),
          ctx.requirement,
          'has_more is true but last_id is null',
          p.res,
        );
      }
      if (listsNoFile(pages))
        notJudgedWithoutFiles(ctx, [ctx.requirement], pages, 'its listing at limit 10 ended without one');
    },
  },
  {
    id: 'files.pagination.last-id-is-last-listed',
    title:
      'last_id is the id of the last listed file, never of another file of the page, nor of a file the page passed over',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.last-id-is-last-listed', 'files.pagination.next-page'],
    // Every page of the run is judged together (ctx.notes): the file a last_id names may be listed only
    // by another walk, at another limit or from another cursor.
    wholeRun: true,
    // Its own walks, and the full pages' at each limit of the spread: the page, and on to the next file
    // (a page or two where hidden objects lie between).
    estimatedRequests: 2 * OWN_WALK_PAGES + 2 + 3 * LIMIT_SPREAD.length,
    gather: async (ctx) => {
      await ownLastIdWalks(ctx);
      // Where pages end at their limit, at every limit of the spread: rule 2 holds there without rule
      // 3's exception, and runs of hidden objects may leave such pages nowhere a walk from the start reaches.
      await fullPageWalks(ctx, LIMIT_SPREAD);
    },
    async probe(ctx: ProbeContext) {
      // 4.1 rule 2. A last_id that names a listed file other than the last is no scan position after
      // the page, so it can only be rule 2 broken.
      const own = await ownLastIdWalks(ctx);
      if (listsNoFile(own)) {
        // Neither rule names a file here: no last_id among listed files, none passing over one.
        const what = 'its listing at limits 10 and 1000 ended without one';
        notJudgedWithoutFiles(ctx, ['files.pagination.last-id-is-last-listed'], own, what);
        ctx.notJudged('files.pagination.next-page', `${NO_FILE_LISTED}: ${what}, so no last_id to pass over a file`);
        return;
      }
      for (const p of own) {
        const last = p.page.data[p.page.data.length - 1];
        ctx.conform(
          pageEnd(p.page) !== 'other-listed',
          ctx.requirement,
          `last_id ${shown(p.page.last_id)} is the id of a listed file that is not the last one; expected ${last ? q(last.id) : 'null'}`,
          p.res,
        );
      }
      // A last_id that names a file the page did not list, one some page of the run lists: the next page
      // resumes strictly after it (4.1 `after`), so following it skips the file. A page that ended at
      // its limit breaks rule 2 itself; one that ended short took rule 3's exception, which names a scan
      // position, not a file passed over: there the walk loses a file (2.2, files.pagination.next-page).
      const container = main(ctx);
      const notes = (ctx.notes.of(PAGES_JUDGE_ID) as FilePageNote[]).filter((n) => n.container === container);
      for (const f of lastIdsPassingOver(notes, 5)) {
        const again = await ctx.api.fresh.listContainerFiles(container, queryOf(f.page));
        if (again.status !== 200 || readPage(again).last_id !== f.page.lastId) continue;
        const listing = await ctx.api.fresh.listContainerFiles(container, queryOf(f.listedBy));
        const page = pageName(f.page);
        throw new ConformanceFailure(
          f.full ? 'files.pagination.last-id-is-last-listed' : 'files.pagination.next-page',
          f.full
            ? `${page} lists ${f.page.paths.length} files, as many as its limit, so it ended at its limit and not at the scan bound; yet its last_id ${f.page.lastId} is the id of ${q(f.file)}, a file it did not list, which ${pageName(f.listedBy)} lists: the next page resumes strictly after that file, so a walk following last_id skips it (4.1 rule 2 "\`last_id\` is the id of the last listed file")`
            : `${page} lists ${f.page.paths.length} files and names as its last_id ${f.page.lastId}, the id of ${q(f.file)}, a file it did not list, which ${pageName(f.listedBy)} lists: a scan position (4.1 rule 3) is where the scan of hidden objects stopped, not a file passed over; the next page resumes strictly after that file, so a walk following last_id skips it (2.2 has_more "True when another page can be fetched with \`after\` set to \`last_id\`")`,
          [again.exchange, listing.exchange],
        );
      }
      if (ctx.notes.dropped > 0)
        ctx.skip(
          `the run's notes reached their bound (${ctx.notes.dropped} response(s) not kept): only part of the run's pages was compared, so the requirement is not judged whole`,
        );
    },
  },
  {
    id: 'files.pagination.scan-bound-position',
    title: 'A page that ends at the scan bound names a scan position after every listed path and after the cursor',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.scan-bound-position', 'files.pagination.next-page'],
    async probe(ctx: ProbeContext) {
      // 4.1 rule 3: last_id then "names the scan position", may not appear in data, data may be
      // empty. A position the next page resumes from must lie after the page and after the cursor.
      const { pages } = await walkPages(ctx, main(ctx), { limit: LIMIT_MAX, maxPages: 6 });
      // Paths compare in the order the listing is in (UTF-8 or UTF-16 code units, 2.2 / 4.1).
      const order = new PathOrderTracker();
      const listed = pages.flatMap((p) => p.page.data.map((f) => f.path));
      for (let i = 1; i < listed.length; i++) order.before(listed[i - 1]!, listed[i]!);
      let judged = 0;
      for (const [n, p] of pages.entries()) {
        if (pageEnd(p.page) !== 'scan-bound') continue;
        const id = p.page.last_id!;
        const cursor = p.after === undefined ? undefined : pathOf(p.after);
        const position = pathOf(id);
        // A container file id names a path: listing resumes strictly after it (4.1 after), so it lies
        // after the page. Anything else is an opaque token ("names the scan position" says no more),
        // judged by where the listing resumes from it: the first file of the next page.
        let at = position;
        let what = `scan position ${q(position ?? '')} (last_id)`;
        if (position === undefined) {
          const next = pages[n + 1] ?? (await nextPageAfter(ctx, id, p));
          // An empty page again (4.1 rule 3, any number in a row): followed to the first file after it,
          // which lies after the position too; a walk that reaches none compares nothing.
          const walk =
            next.page.data.length > 0 || !next.page.has_more
              ? undefined
              : await walkToFile(ctx, main(ctx), { limit: LIMIT_MAX, after: id, first: next });
          at = (walk?.page ?? next).page.data[0]?.path;
          what = `the listing resumed from the opaque last_id ${q(id)} at ${q(at ?? '')}`;
          if (at === undefined) continue;
        }
        // Counted once the position is known: a page whose position no walk reached judged nothing.
        judged++;
        for (const f of p.page.data) {
          const why = order.before(f.path, at!);
          ctx.conform(!why, ctx.requirement, `${what} is not after the listed path ${q(f.path)}: ${why}`, p.res);
        }
        if (cursor !== undefined) {
          const why = order.before(cursor, at!);
          ctx.conform(!why, ctx.requirement, `${what} is not after the request's cursor ${q(cursor)}: ${why}`, p.res);
        }
      }
      if (judged === 0)
        ctx.skip(
          `no page of the first ${pages.length} at limit ${LIMIT_MAX} ended at the scan bound at a position the walk could place (4.1 rule 3)`,
        );
    },
  },
  {
    id: 'files.pagination.null-last-id',
    title: 'A last page with files does not have a null last_id',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.null-last-id'],
    async probe(ctx: ProbeContext) {
      // 4.1 rule 4: last_id is null only when has_more is false and data is empty. With has_more
      // true a null last_id is rule 1's failure (files.pagination.last-id-when-has-more); here the
      // last page of a listing (has_more false) is judged: a null last_id needs an empty data.
      const ids = [main(ctx), ctx.target.containerFiles.restartedContainerId].filter(
        (x): x is string => x !== undefined,
      );
      let lastPages = 0;
      let withFiles = 0;
      let mainPages: FetchedPage[] = [];
      for (const containerId of ids) {
        const walk = await walkOrSkip(ctx, containerId, containerId !== main(ctx), {
          limit: LIMIT_MAX,
          maxPages: containerId === main(ctx) ? 8 : 3,
        });
        if (containerId === main(ctx)) mainPages = walk?.pages ?? [];
        for (const p of walk?.pages ?? []) {
          if (p.page.has_more) continue;
          lastPages++;
          if (p.page.data.length > 0) withFiles++;
          ctx.conform(
            !(p.page.last_id === null && p.page.data.length > 0),
            ctx.requirement,
            `last_id is null on a page of ${p.page.data.length} files; null is allowed only with has_more false and empty data`,
            p.res,
          );
        }
      }
      if (lastPages === 0)
        ctx.skip('no last page (has_more false) reached within a few pages of the configured containers');
      // Null on an empty last page is what rule 4 allows: only a last page with files judges it.
      if (withFiles === 0 && listsNoFile(mainPages))
        notJudgedWithoutFiles(
          ctx,
          [ctx.requirement],
          mainPages,
          `its listing at limit ${LIMIT_MAX} ended without one, and no other configured container's last page listed one`,
        );
    },
  },
  {
    id: 'files.pagination.short-page-at-scan-bound',
    title: 'A page shorter than limit with has_more true ends at the scan bound',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.short-page-at-scan-bound'],
    async probe(ctx: ProbeContext) {
      // 4.1 rules 2-3: a page ends at `limit` files, at the end of the listing, or at the scan bound;
      // short with has_more true and last_id its last file is none of these.
      const limit = 10;
      const { pages } = await walkPages(ctx, main(ctx), { limit, maxPages: 6 });
      for (const p of pages) {
        if (!p.page.has_more || p.page.data.length >= limit) continue;
        ctx.conform(
          pageEnd(p.page) !== 'last-listed',
          ctx.requirement,
          `limit=${limit} and has_more is true, but the page holds ${p.page.data.length} files and last_id is its last file, so it does not end at the scan bound`,
          p.res,
        );
      }
      if (listsNoFile(pages))
        notJudgedWithoutFiles(ctx, [ctx.requirement], pages, `its listing at limit ${limit} ended without one`);
    },
  },
  {
    id: 'files.scan-bound.observed',
    title: 'Observes how often pages end at the scan bound (its value is not shown)',
    operation: 'listContainerFiles',
    kind: 'observation',
    requirements: ['files.scan-bound.value'],
    async probe(ctx: ProbeContext) {
      // 8 rule 1: the value is not shown and hidden objects are never listed, so only its effect is
      // visible: pages whose last_id is a scan position, and empty pages with has_more true.
      const maxPages = 30;
      let pagesWalked = 0;
      let scanBoundPagesSeen = 0;
      let emptyPagesWithHasMore = 0;
      let smallestScanBoundPage: number | null = null;
      let stoppedBy = 'max-pages';
      let after: string | undefined;
      try {
        for (; pagesWalked < maxPages; ) {
          const p = await fetchPage(ctx, main(ctx), { limit: LIMIT_MAX, ...(after !== undefined ? { after } : {}) });
          pagesWalked++;
          if (pageEnd(p.page) === 'scan-bound' && p.page.has_more) {
            scanBoundPagesSeen++;
            smallestScanBoundPage = Math.min(smallestScanBoundPage ?? Infinity, p.page.data.length);
          }
          if (p.page.has_more && p.page.data.length === 0) emptyPagesWithHasMore++;
          if (!p.page.has_more) {
            stoppedBy = 'last-page';
            break;
          }
          if (p.page.last_id === null || p.page.last_id === after) {
            stoppedBy = 'no-cursor';
            break;
          }
          after = p.page.last_id;
        }
      } catch (e) {
        if (!(e instanceof UnreadableListing)) throw e;
        stoppedBy = e.message;
      }
      ctx.observe('files.scan-bound.value', {
        limit: LIMIT_MAX,
        pagesWalked,
        scanBoundPagesSeen,
        emptyPagesWithHasMore,
        smallestScanBoundPage,
        stoppedBy,
      });
    },
  },
]);
