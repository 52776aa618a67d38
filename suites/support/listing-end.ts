/**
 * The end of a listing, walked at small limits on every seed. Only there does a page with files left
 * after it have to say has_more true (2.2: "True when another page can be fetched with `after` set to
 * `last_id`"), and only there may a last page list one file and end the listing (4.1 rule 4:
 * "`last_id` is null only when `has_more` is false and `data` is empty"). Walks from the start reach
 * the end only at large limits, and a random `after` rarely lands among the last few files of a long
 * listing: so the walks start after the file that comes LISTING_END_FILES files before the end, at every
 * limit from 1 to LISTING_END_FILES, and follow last_id to the listing's end.
 */
import type { ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { firstThrown, settleInFlight } from '../../core/http/in-flight.ts';
import { concurrencyOf } from '../../core/run/run-settings.ts';
import { walkPages, type FetchedPage } from './file-pages.ts';
import { assertPageRules } from './page-rules.ts';
import { PathOrderTracker } from './path-order.ts';
import type { Traversal } from './traversal.ts';
import { shown } from './values.ts';

/** How many files before the end the walks start: the limits 1..this end pages one, two and three files before it. */
export const LISTING_END_FILES = 3;

/**
 * Walks the end of a listing read to its end (`full.complete`; otherwise where it ends is not known, and
 * nothing is walked). Every page is judged by the rules of one page; a walk that ends (has_more false)
 * before the last files of the full listing, or lists other files, fails. A walk cut by its share of the
 * budget compares what it listed, and fails nothing it did not see.
 */
export async function walkListingEnd(ctx: ProbeContext, full: Traversal): Promise<void> {
  if (!full.complete || full.files.length === 0) return;
  const n = full.files.length;
  const from = n > LISTING_END_FILES ? full.files[n - 1 - LISTING_END_FILES] : undefined;
  const tail = full.files.slice(Math.max(0, n - LISTING_END_FILES)).map((f) => f.path);
  const container = ctx.target.containerFiles.containerId;
  const limits = Array.from({ length: LISTING_END_FILES }, (_, i) => i + 1);
  // Walked together (each a chain of pages), judged in the order of their limits: the same failure first however they end.
  const settled = await settleInFlight(limits, concurrencyOf(ctx.settings), (limit) =>
    walkPages(ctx, container, {
      limit,
      ...(from ? { after: from.id } : {}),
      maxPages: LISTING_END_FILES + 1,
      followEmpty: true,
    }),
  );
  firstThrown(settled);
  for (const [k, s] of settled.entries()) {
    if (!s?.ok) continue;
    const walk = s.value;
    const limit = limits[k]!;
    const order = new PathOrderTracker();
    for (const fp of walk.pages) assertPageRules(fp, order);
    const got = walk.pages.flatMap((fp) => fp.page.data.map((f) => f.path));
    const ended = walk.end === 'last-page';
    const last = walk.pages[walk.pages.length - 1]!;
    const start = from ? `after ${shown(from.path)}` : 'from the start';
    const i = got.findIndex((p, j) => p !== tail[j]);
    if (i >= 0 || got.length > tail.length)
      throw otherFiles(limit, start, got, tail, Math.max(0, i < 0 ? tail.length : i), walk.pages);
    if (ended && got.length < tail.length)
      throw new ConformanceFailure(
        'files.pagination.next-page',
        `the walk ${start} at limit ${limit} ends (has_more false) after ${got.length === 0 ? 'no file' : shown(got[got.length - 1])}, but the listing has ${shown(tail[got.length])} after it (2.2 has_more: "True when another page can be fetched with \`after\` set to \`last_id\`")`,
        [last.res.exchange],
      );
  }
}

function otherFiles(
  limit: number,
  start: string,
  got: readonly string[],
  tail: readonly string[],
  at: number,
  pages: readonly FetchedPage[],
): ConformanceFailure {
  // The page that lists the file where the walk and the full listing part (the last page when it lists too few).
  let seen = 0;
  const page = pages.find((fp) => (seen += fp.page.data.length) > at) ?? pages[pages.length - 1]!;
  return new ConformanceFailure(
    'files.pagination.limit-independent',
    `the walk ${start} at limit ${limit} lists ${shown(got[at])} where the full listing (limit 1000) lists ${shown(tail[at] ?? 'nothing more')}`,
    [page.res.exchange],
  );
}
