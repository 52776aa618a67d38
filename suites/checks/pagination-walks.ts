/**
 * listContainerFiles walks judged together: every page of the run, whichever check fetched
 * it, and walks of this check's own at limits spread from 1 to 987, compared one walk with another
 * (suites/support/cross-walks.ts). A server whose last_id at some limits names a file the page did not
 * list (4.1 rule 2 "`last_id` is the id of the last listed file") passes every rule of one page: only
 * another walk that lists the file shows that this one passed over it.
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { firstThrown, settleInFlight } from '../../core/http/in-flight.ts';
import { concurrencyOf } from '../../core/run/run-settings.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import type { Exchange } from '../../core/check/evidence.ts';
import {
  firstFilesAfterEmptyStart,
  pageName,
  passedOver,
  queryOf,
  type FilePageNote,
  type PassedOver,
} from '../support/cross-walks.ts';
import {
  readPage,
  UnreadableListing,
  walkPages,
  WALK_BUDGET_SHARE,
  type FetchedPage,
  type Walk,
} from '../support/file-pages.ts';
import { fullPageWalks, LIMIT_SPREAD } from '../support/full-pages.ts';

/**
 * The limits of this check's own walks, from the start of the listing and from where a page at each ends
 * at its limit (full-pages.ts): a spread over 1..1000 whatever the data; the run's other walks (random
 * limits of the properties) add theirs.
 */
export const WALK_LIMITS = LIMIT_SPREAD;
/**
 * A walk of this check's own ends once it listed files on this many pages (so it crossed cursors
 * with files on both sides), or after WALK_MAX_PAGES pages (runs of hidden objects may fill many
 * pages with nothing, 4.1 rule 3), or when its part of the check's share of the budget is spent: each
 * bound only leaves walks unmade, the pages fetched are judged as they are.
 */
const PAGES_WITH_FILES = 3;
const WALK_MAX_PAGES = 16;

const JUDGE_ID = 'files.pages';

/**
 * The same page asked of the target again (api.fresh: never the run's memory of it): the evidence of a
 * finding (the notes keep no bodies), and a check that the listing did not change meanwhile.
 */
async function askAgain(ctx: ProbeContext, n: FilePageNote): Promise<{ exchange: Exchange; same: boolean }> {
  const res = await ctx.api.fresh.listContainerFiles(n.container, queryOf(n));
  if (res.status !== 200) return { exchange: res.exchange, same: false };
  const page = readPage(res);
  const same = page.last_id === n.lastId && JSON.stringify(page.data.map((f) => f.path)) === JSON.stringify(n.paths);
  return { exchange: res.exchange, same };
}

/** The finding as a failure, with both walks' pages asked again as evidence; undefined when the listing answered otherwise this time. */
async function confirmed(ctx: ProbeContext, f: PassedOver): Promise<ConformanceFailure | undefined> {
  // The first and last page of each chain (the empty pages between are counted in the message).
  const ends = (pages: readonly FilePageNote[]) =>
    pages.length > 1 ? [pages[0]!, pages[pages.length - 1]!] : [pages[0]!];
  const exchanges: Exchange[] = [];
  for (const n of [...ends(f.walk.pages), ...ends(f.other.pages)]) {
    const again = await askAgain(ctx, n);
    if (!again.same) return undefined;
    exchanges.push(again.exchange);
  }
  const q = JSON.stringify;
  const w = f.walk;
  const how =
    w.kind === 'cursor'
      ? `${pageName(w.pages[0]!)} ends with ${q(w.from)} and last_id ${w.pages[0]!.lastId}; ${w.pages.length > 2 ? `after ${w.pages.length - 2} empty page(s), ` : ''}${pageName(w.pages[w.pages.length - 1]!)} begins with ${q(w.to)}`
      : `${pageName(w.pages[0]!)} lists ${q(w.to)} right after ${q(w.from)}`;
  const o = f.other;
  const where = o.kind === 'cursor' ? `${pageName(o.pages[0]!)} and the page after its last_id` : pageName(o.pages[0]!);
  return new ConformanceFailure(
    f.requirementId,
    `a walk passed over ${q(f.skipped)}: ${how}, but ${where} list${o.kind === 'cursor' ? '' : 's'} ${q(f.skipped)} right after ${q(w.from)}, and the listing leads from it to ${q(w.to)} (${w.kind === 'cursor' ? '4.1 rule 2 "`last_id` is the id of the last listed file": following it lost a file' : '4.1 "Lists the files of a container": a page at one limit left out a file the listing has'})`,
    exchanges,
  );
}

/**
 * A walk of this check's own from the start that has listed no file after this many pages leaves the rest
 * of the start to the run's longer walks (firstFilesAfterEmptyStart): any number of pages without a file
 * may open a listing (4.1 rule 3 "`data` may be empty"; 8 rule 1, the scan bound's value is not shown), and
 * one such run at every limit would spend the check's share on pages that show no file.
 */
const EMPTY_START_PAGES = 4;

/** Pages with a file among a walk's. */
const withFiles = (pages: readonly FetchedPage[]) => pages.filter((p) => p.page.data.length > 0).length;

/**
 * This check's own walks at each of WALK_LIMITS, from the start of the listing or, with `after`, from
 * that cursor ("or any container file id", 4.1 after). The share of the budget is split evenly, so which
 * walks are made and how far they go does not depend on the order they end in: they are walked
 * together, up to --concurrency at once. A walk left unmade or cut short by an unreadable page is
 * undefined.
 */
async function ownWalks(
  ctx: ProbeContext,
  o: { limits: readonly number[]; share: number; after?: string },
): Promise<Array<Walk | undefined>> {
  const container = ctx.target.containerFiles.containerId;
  const perWalk = Math.min(WALK_MAX_PAGES, Math.floor(o.share / Math.max(1, o.limits.length)));
  const limits = perWalk >= 1 ? o.limits : o.limits.slice(0, o.share);
  const walked = await settleInFlight(limits, concurrencyOf(ctx.settings), async (limit) => {
    try {
      return await walkPages(ctx, container, {
        limit,
        maxPages: Math.max(1, perWalk),
        ...(o.after !== undefined ? { after: o.after } : {}),
        enough: (pages) =>
          withFiles(pages) >= PAGES_WITH_FILES ||
          (o.after === undefined && withFiles(pages) === 0 && pages.length >= EMPTY_START_PAGES),
      });
    } catch (e) {
      // A page this walk cannot read ends this walk only: its status or shape is another check's.
      if (!(e instanceof UnreadableListing)) throw e;
      return undefined;
    }
  });
  firstThrown(walked);
  return o.limits.map((_, i) => (walked[i]?.ok ? walked[i].value : undefined));
}

/** This check's share of the run's request budget, its walks from the start and from where files begin together. */
const shareOf = (ctx: ProbeContext) => Math.floor(ctx.settings.maxRequests * WALK_BUDGET_SHARE);

/** The walks from the start, sent beside the other checks (gather) and asked again in the probe (the run's memory). */
const walksFromStart = (ctx: ProbeContext) => ownWalks(ctx, { limits: WALK_LIMITS, share: shareOf(ctx) });

/**
 * Where a listing opens with pages without a file, the limits whose walk from the start met only those
 * are walked again from the cursor the run's longer walks found the first file after (the traversal
 * crosses runs of hidden objects this check's share cannot), within what is left of the share: so every
 * limit's walk lists files on every such listing, whatever the other checks' limits were.
 */
async function walksFromFirstFiles(
  ctx: ProbeContext,
  fromStart: ReadonlyArray<Walk | undefined>,
  notes: readonly FilePageNote[],
): Promise<boolean> {
  const blind = WALK_LIMITS.filter((_, i) => {
    const w = fromStart[i];
    return w !== undefined && withFiles(w.pages) === 0 && w.pages[w.pages.length - 1]!.page.has_more;
  });
  const first = firstFilesAfterEmptyStart(notes, ctx.target.containerFiles.containerId);
  if (blind.length === 0 || first?.after === undefined) return false;
  const spent = fromStart.reduce((n, w) => n + (w?.pages.length ?? 0), 0);
  const share = shareOf(ctx) - spent;
  if (share < 1) return false;
  await ownWalks(ctx, { limits: blind, share, after: first.after });
  return true;
}

export const paginationWalkChecks = defineChecks([
  {
    id: 'files.pagination.walks-agree',
    title: 'Every walk the run made lists the same file after each file: no walk passes over a file another walk lists',
    operation: 'listContainerFiles',
    requirements: ['files.pagination.next-page', 'files.pagination.limit-independent'],
    wholeRun: true,
    // The full pages' walks besides (two requests a limit where nothing lies between), which
    // files.pagination.last-id-is-last-listed asks too, answered to the second from the run's memory.
    estimatedRequests: WALK_LIMITS.length * (PAGES_WITH_FILES + 2) + 4,
    gather: async (ctx) => {
      await walksFromStart(ctx);
      await fullPageWalks(ctx, WALK_LIMITS);
    },
    async probe(ctx: ProbeContext) {
      const container = ctx.target.containerFiles.containerId;
      // The run's walks (noted as they came: ctx.notes), this check's own among them at limits the run
      // may not have used: sent beside the other checks (gather), asked again here from the run's memory.
      // Every page fetched is noted by the page judge as any other.
      const fromStart = await walksFromStart(ctx);
      const noted = () => (ctx.notes.of(JUDGE_ID) as FilePageNote[]).filter((n) => n.container === container);
      let notes = noted();
      if (await walksFromFirstFiles(ctx, fromStart, notes)) notes = noted();
      if (notes.every((n) => n.paths.length === 0))
        ctx.skip(
          notes.some((n) => n.hasMore)
            ? `the run's walks of the container met only pages without a file (${notes.length} page(s), has_more true: 4.1 rule 3 "data may be empty"), as far as their shares of the request budget went: no walk to compare, so it is not judged`
            : 'the container lists no file: no walk to compare',
        );
      for (const f of passedOver(notes, 5)) {
        const failure = await confirmed(ctx, f);
        if (failure) throw failure;
      }
      if (ctx.notes.dropped > 0)
        ctx.skip(
          `the run's notes reached their bound (${ctx.notes.dropped} response(s) not kept): only part of the run's walks was compared, so the requirement is not judged whole`,
        );
    },
  },
]);
