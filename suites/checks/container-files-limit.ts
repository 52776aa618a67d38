/**
 * listContainerFiles `limit` (4.1, 8: 1 to 1000, default 100): its bounds, default and spellings.
 * Data-agnostic: judged on the target's own listing.
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { expectStatus } from '../../core/check/expect.ts';
import { expectRejected, LIMIT_DEFAULT, LIMIT_MAX, main, q } from '../support/container-files.ts';
import { fetchPage, pageEnd, readPage, walkPages, type FetchedPage, type FilePage } from '../support/file-pages.ts';
import { onlyEmptyStart, walkOnToFiles } from '../support/empty-start.ts';
import { listsNoFile, notJudgedWithoutFiles } from '../support/no-file-listed.ts';

/** The reason's words for a listing asked without limit that ended without a file. */
const withoutLimitEnded = (pages: number) => `its listing without limit ended after ${pages} page(s) without one`;

/** Spellings of an integer limit the document does not rule on (files.limit.spelling). */
const LIMIT_SPELLINGS = ['1e2', '2.0', '+5', '05', '0x10', ''];

export const containerFilesLimitChecks = defineChecks([
  {
    id: 'files.limit.default-maximum',
    title: 'Without limit a page holds at most 100 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.default-maximum'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8: "limit ... default 100": whatever else a page does, it holds no more than that.
      const start = await walkPages(ctx, main(ctx), { maxPages: 3 });
      let pages = start.pages;
      // A start of pages without a file shows nothing of the default: asked again where the run's
      // listing showed files (4.1 rule 3 lets any number of empty pages open it).
      if (onlyEmptyStart(pages)) {
        const on = await walkOnToFiles(ctx, { maxPages: 3 }, `its first ${pages.length} page(s) without limit`);
        if (on.noFile !== undefined) return ctx.notJudged(ctx.requirement, on.noFile);
        pages = [...pages, ...on.pages];
      }
      for (const p of pages) {
        const n = p.page.data.length;
        ctx.conform(
          n <= LIMIT_DEFAULT,
          ctx.requirement,
          `a page without limit holds ${n} files, more than the default of ${LIMIT_DEFAULT}`,
          p.res,
        );
      }
      if (listsNoFile(pages)) notJudgedWithoutFiles(ctx, [ctx.requirement], pages, withoutLimitEnded(pages.length));
    },
  },
  {
    id: 'files.limit.default',
    title: 'Without limit a page that ends neither the listing nor at the scan bound holds exactly 100 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.default'],
    async probe(ctx: ProbeContext) {
      // SHOULD (4.1 never says a page is full): a page that ends at the scan bound (4.1 rule 3) may be
      // short, so walk forward (bounded) to a page that ends at its last listed file with has_more true.
      const full = (p: FetchedPage) => p.page.has_more && pageEnd(p.page) === 'last-listed';
      const { pages, end } = await walkPages(ctx, main(ctx), {
        maxPages: 8,
        followEmpty: true,
        enough: (ps) => full(ps[ps.length - 1]!),
      });
      if (listsNoFile(pages))
        return notJudgedWithoutFiles(ctx, [ctx.requirement], pages, withoutLimitEnded(pages.length));
      // Pages that end at the scan bound say nothing of the default: without one that ends at its last
      // file, the default is not judged (a listing that ended has none to show, a walk cut short may).
      if (!pages.some(full) && end !== 'last-page')
        return ctx.skip(
          `no page of the first ${pages.length} without limit ended at its last listed file with has_more true (each ended at the scan bound, 4.1 rule 3): the default page size is not judged`,
        );
      for (const p of pages) {
        const n = p.page.data.length;
        if (full(p)) {
          ctx.conform(
            n === LIMIT_DEFAULT,
            ctx.requirement,
            `a page without limit holds ${n} files with has_more true and last_id its last file (not at the scan bound); expected the default of ${LIMIT_DEFAULT}`,
            p.res,
          );
        }
      }
    },
  },
  {
    id: 'files.limit.default-value',
    title: 'Without limit each page is the page limit=100 gives from the same cursor: same files, has_more and last_id',
    operation: 'listContainerFiles',
    requirements: ['files.limit.default-value'],
    async probe(ctx: ProbeContext) {
      // 4.1 "| limit | integer | no | 100 |": a request without limit is served as limit=100, whatever
      // the server's page sizes (a page need not be full: a server capping at 50 caps both alike).
      // Pages that end at the scan bound (rule 3) are alike at any limit, so the walk goes on to a
      // page that ends at its last listed file with has_more true, where the limit shows.
      const shape = (p: FetchedPage) =>
        JSON.stringify([p.page.data.map((f) => f.path), p.page.has_more, p.page.last_id]);
      const full = (p: FetchedPage) => p.page.has_more && pageEnd(p.page) === 'last-listed';
      const enough = (ps: readonly FetchedPage[]) => full(ps[ps.length - 1]!);
      let { pages } = await walkPages(ctx, main(ctx), { maxPages: 8, enough });
      // Empty pages alike at both limits show nothing of the default: past a start of pages without a
      // file (4.1 rule 3), the pages compared are those asked again where the run's listing showed files.
      if (onlyEmptyStart(pages)) {
        const on = await walkOnToFiles(ctx, { maxPages: 8, enough }, `its first ${pages.length} page(s) without limit`);
        if (on.noFile !== undefined) return ctx.notJudged(ctx.requirement, on.noFile);
        pages = on.pages;
      }
      const hundreds: FetchedPage[] = [];
      for (const without of pages) {
        const hundred = await fetchPage(ctx, main(ctx), {
          limit: LIMIT_DEFAULT,
          ...(without.after !== undefined ? { after: without.after } : {}),
        });
        hundreds.push(hundred);
        if (shape(hundred) === shape(without)) continue;
        // Live data is not ours: asked again without limit, a page that changed is not judged. Asked of
        // the target itself (api.fresh), not of the run's memory: the question is whether it moved.
        const again = await fetchPage(
          { ...ctx, api: ctx.api.fresh },
          main(ctx),
          without.after !== undefined ? { after: without.after } : {},
        );
        if (shape(again) !== shape(without))
          return ctx.skip(
            `the page without limit after ${q(String(without.after ?? '(start)'))} changed between two requests: the listing is moving`,
          );
        const [a, b] = [without.page, hundred.page];
        ctx.conform(
          false,
          ctx.requirement,
          `after ${q(String(without.after ?? '(start)'))}: without limit the page lists ${a.data.length} files (has_more ${a.has_more}, last_id ${q(String(a.last_id))}); with limit=${LIMIT_DEFAULT} it lists ${b.data.length} (has_more ${b.has_more}, last_id ${q(String(b.last_id))}): the default is not ${LIMIT_DEFAULT}`,
          without.res,
        );
      }
      // Two empty pages alike show nothing of the default: only how many files a page holds does.
      if (listsNoFile([...pages, ...hundreds]))
        notJudgedWithoutFiles(
          ctx,
          [ctx.requirement],
          pages,
          `its listing without limit and at limit=${LIMIT_DEFAULT} ended after ${pages.length} page(s) without one`,
        );
    },
  },
  {
    id: 'files.limit.bounds-accepted',
    title: 'limit=1 and limit=1000 are accepted',
    operation: 'listContainerFiles',
    requirements: ['files.limit.bounds-accepted'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8: "Minimum 1, maximum 1000": both ends are inside the range.
      for (const limit of [1, LIMIT_MAX]) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit });
        expectStatus(res, 200, 'files.limit.bounds-accepted', `limit=${limit}`);
        readPage(res);
      }
    },
  },
  {
    id: 'files.limit.out-of-range-rejected',
    title: 'limit=0, limit=-1 and limit=1001 are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.limit.out-of-range-rejected'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8 bounds; 7.1: "Invalid request parameters" is 400. SHOULD: the bounds also read as those
      // of the page size used (reading limit-clamped), so a clamped page is reported, not failed.
      for (const v of ['0', '-1', '1001']) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit: v });
        expectStatus(res, 400, 'files.limit.out-of-range-rejected', `limit=${v}`);
      }
    },
  },
  {
    id: 'files.limit.maximum',
    title: 'limit=1001 and limit=5000 are refused, or answered with at most 1000 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.maximum'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8 "maximum 1000": refused (SHOULD, files.limit.out-of-range-rejected) or clamped, never exceeded.
      const served: Array<{ page: FilePage; after: undefined }> = [];
      for (const limit of [1001, 5000]) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit });
        if (res.status !== 200) continue;
        const p = readPage(res);
        served.push({ page: p, after: undefined });
        ctx.conform(
          p.data.length <= LIMIT_MAX,
          ctx.requirement,
          `limit=${limit} answered a page of ${p.data.length} files, more than the maximum of ${LIMIT_MAX}`,
          res,
        );
      }
      // A refusal judges it; a page served with no file on it does not.
      if (served.length === 2 && listsNoFile(served))
        notJudgedWithoutFiles(
          ctx,
          [ctx.requirement],
          served,
          'limit=1001 and limit=5000 each ended the listing without one',
        );
    },
  },
  {
    id: 'files.limit.non-integer-rejected',
    title: 'limit=abc and limit=1.5 are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.limit.non-integer-rejected', 'files.errors.shape'],
    async probe(ctx: ProbeContext) {
      // 4.1: limit is an integer; 7.1: invalid parameters are 400 (not read as a prefix, not defaulted).
      // Only values that are no integer under any reading; other spellings are observed (files.limit.spelling).
      for (const v of ['abc', '1.5'])
        await expectRejected(ctx, { limit: v }, 'files.limit.non-integer-rejected', `limit=${q(v)}`);
    },
  },
  {
    id: 'files.limit.spelling',
    title: 'What limit=1e2, 2.0, +5, 05, 0x10 and an empty limit get (the spelling of an integer is left open)',
    operation: 'listContainerFiles',
    kind: 'observation',
    requirements: ['general.integer-spelling'],
    estimatedRequests: LIMIT_SPELLINGS.length,
    async probe(ctx: ProbeContext) {
      // 4.1 gives the type "integer", not how a query string spells one (readings limit-number-spellings, limit-empty-default).
      const seen: Record<string, number> = {};
      for (const v of LIMIT_SPELLINGS)
        seen[`limit=${v}`] = (await ctx.api.listContainerFiles(main(ctx), { limit: v })).status;
      ctx.observe('general.integer-spelling', { operation: 'listContainerFiles', statuses: seen });
    },
  },
  {
    id: 'files.limit.page-size',
    title: 'A page never holds more files than limit (limit 1 and 7, a few pages each)',
    operation: 'listContainerFiles',
    requirements: ['files.limit.page-size'],
    async probe(ctx: ProbeContext) {
      const walked: FetchedPage[] = [];
      for (const limit of [1, 7]) {
        const { pages } = await walkPages(ctx, main(ctx), { limit, maxPages: 3 });
        walked.push(...pages);
        for (const p of pages) {
          ctx.conform(
            p.page.data.length <= limit,
            ctx.requirement,
            `limit=${limit} but the page holds ${p.page.data.length} files`,
            p.res,
          );
        }
      }
      if (listsNoFile(walked))
        notJudgedWithoutFiles(
          ctx,
          [ctx.requirement],
          walked,
          'its listing at limit 1 and at limit 7 ended without one',
        );
    },
  },
]);
