import { CannotJudge } from '../../core/check/errors.ts';
/**
 * Helpers of the listContainerFiles checks (2.1, 2.2, 4.1): fetching pages, walking a bounded number
 * of them, and telling how a page ends (last listed file, scan bound, or neither).
 *
 * Everything here compares the target with itself: no helper knows any data of the reference.
 * Nothing is cached: every check fetches what it judges.
 */
import type { ApiResponse, Query } from '../../core/http/client.ts';
import type { ProbeContext } from '../../core/check/check.ts';
import { comparePaths, decodeFileId } from '../../core/document/file-id.ts';
import { afterInSomeOrder } from './path-order.ts';

/** The fields of a container file (2.1) the checks read; the rest is left to the schema check. */
export interface ListedFile {
  id: string;
  path: string;
  [field: string]: unknown;
}

/** A container file list (2.2) as far as the checks read it. */
export interface FilePage {
  data: ListedFile[];
  first_id: unknown;
  last_id: string | null;
  has_more: boolean;
  [field: string]: unknown;
}

/** One page fetched: the response (evidence), the page, and the query it was asked with. */
export interface FetchedPage {
  res: ApiResponse;
  page: FilePage;
  limit: number | undefined;
  /** The `after` sent, or undefined for the first page. */
  after: string | undefined;
}

/**
 * A listing the helpers cannot read (not 200, not a list). That is the business of the checks that
 * judge status and shape (files.response.schema); every other check cannot judge and says so: the
 * error is reported as `error`, never as a failure of a requirement the check did not probe.
 */
export class UnreadableListing extends CannotJudge {
  constructor(
    message: string,
    /** The answer that was not a 200 list, when there was one (a check may know whose mistake it is). */
    readonly response?: ApiResponse,
  ) {
    super('unreadable', message);
  }
}

/** Why a JSON body cannot be read as a container file list (2.2), or undefined when it can. */
export function filePageProblem(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'did not answer a JSON object';
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.data)) return 'data is not an array';
  for (const f of b.data) {
    const file = f as Record<string, unknown> | null;
    if (!file || typeof file !== 'object' || typeof file.id !== 'string' || typeof file.path !== 'string')
      return 'a data element has no string id and path';
  }
  if (typeof b.has_more !== 'boolean') return 'has_more is not a boolean';
  if (b.last_id !== null && typeof b.last_id !== 'string') return 'last_id is neither a string nor null';
  return undefined;
}

/** Reads a 200 body as a container file list, or explains why it cannot. */
export function readPage(res: ApiResponse): FilePage {
  const where = `GET ${res.exchange.request.url}`;
  if (res.status !== 200) throw new UnreadableListing(`cannot judge: ${where} answered ${res.status}, not 200`, res);
  const problem = filePageProblem(res.json);
  if (problem) throw new UnreadableListing(`cannot judge: ${where}${problem.startsWith('did') ? ' ' : ': '}${problem}`);
  return res.json as FilePage;
}

/** GET one page of `containerId` and read it (see readPage). */
export async function fetchPage(
  ctx: ProbeContext,
  containerId: string,
  q: { limit?: number; after?: string } = {},
): Promise<FetchedPage> {
  const query: Query = {};
  if (q.limit !== undefined) query.limit = q.limit;
  if (q.after !== undefined) query.after = q.after;
  const res = await ctx.api.listContainerFiles(containerId, query);
  return { res, page: readPage(res), limit: q.limit, after: q.after };
}

export interface Walk {
  pages: FetchedPage[];
  /** Why the walk stopped ('allowance': pages without a file spent the walk's share of the budget, see walkAllowance). */
  end: 'last-page' | 'max-pages' | 'no-cursor' | 'no-progress' | 'enough' | 'allowance';
}

/**
 * Follows `last_id` while `has_more` (4.1 rule 1), at most `maxPages` pages, or until `enough` says
 * the check has what it needs. A walk never loops: it stops when has_more comes without a cursor or
 * when the cursor does not move forward (those are judged by the pagination checks, not here).
 * With `followEmpty`, pages that list no file do not count towards `maxPages`: any number of them in
 * a row is legal (4.1 rule 3, 8 rule 1), so they are followed within the walk's share of the budget.
 */
export async function walkPages(
  ctx: ProbeContext,
  containerId: string,
  opts: {
    limit?: number;
    maxPages: number;
    after?: string;
    enough?: (pages: readonly FetchedPage[]) => boolean;
    followEmpty?: boolean;
  },
): Promise<Walk> {
  const pages: FetchedPage[] = [];
  const allowance = walkAllowance(ctx);
  let counted = 0;
  let after = opts.after;
  for (;;) {
    const p = await fetchPage(ctx, containerId, {
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      ...(after !== undefined ? { after } : {}),
    });
    pages.push(p);
    if (!opts.followEmpty || p.page.data.length > 0) counted++;
    if (!p.page.has_more) return { pages, end: 'last-page' };
    if (opts.enough?.(pages)) return { pages, end: 'enough' };
    if (counted >= opts.maxPages) return { pages, end: 'max-pages' };
    if (pages.length >= allowance) return { pages, end: 'allowance' };
    const next = p.page.last_id;
    if (next === null) return { pages, end: 'no-cursor' };
    // Forward in either path order the document allows (2.2 / 4.1), as walkToFile reads it.
    if (after !== undefined && (next === after || !forwardCursor(next, after))) return { pages, end: 'no-progress' };
    after = next;
  }
}

/**
 * Requests one forward walk (walkToFile) may send at most: a tenth of the run's budget. The document
 * bounds neither the scan bound (8 rule 1: "its value: not shown") nor how many hidden objects lie in
 * a row, so any number of empty pages in a row is faithful (4.1 rule 3: "`data` may be empty"); this
 * share only keeps one walk from spending the budget of every other check, and a walk that reaches it
 * leaves its question unjudged (never failed).
 */
export const WALK_BUDGET_SHARE = 0.1;

/** The requests one walk may send: its share of the run's budget, and never less than a few. */
export function walkAllowance(ctx: ProbeContext): number {
  return Math.max(4, Math.floor(ctx.settings.maxRequests * WALK_BUDGET_SHARE));
}

/** Where a forward walk ended (walkToFile). */
export interface ForwardWalk {
  /** The last page fetched: the first that lists a file when `end` is 'file'. */
  page: FetchedPage;
  /** Every page fetched, in order. */
  pages: FetchedPage[];
  /**
   * 'file': `page` lists a file; 'last-page': the listing ended (has_more false) before any file;
   * 'no-cursor': has_more true without a cursor; 'no-progress': a cursor came back or went backwards
   * (both judged by the pagination checks, not here); 'allowance': the walk's share of the budget was
   * spent on pages without a file, so where the listing resumes is not known (not judged).
   */
  end: 'file' | 'last-page' | 'no-cursor' | 'no-progress' | 'allowance';
}

/**
 * Asks the page after `after` and follows `last_id` through every page that lists no file, until a
 * page lists one or the listing ends. Pages that end at the scan bound may come back empty (4.1 rule 3),
 * any number of them in a row, so the walk goes on as long as each cursor is new and, where it names a
 * path, after the previous one; the only other end is the walk's allowance (walkAllowance), which the
 * caller reports as not judged, never as a failure: it is the suite's bound, not the document's.
 */
export async function walkToFile(
  ctx: ProbeContext,
  containerId: string,
  o: { limit?: number; after: string; maxRequests?: number; first?: FetchedPage },
): Promise<ForwardWalk> {
  const allowance = o.maxRequests ?? walkAllowance(ctx);
  const query = (after: string) => ({ ...(o.limit !== undefined ? { limit: o.limit } : {}), after });
  let page = o.first ?? (await fetchPage(ctx, containerId, query(o.after)));
  const pages = [page];
  const cursors = new Set<string>([o.after]);
  let after = o.after;
  for (;;) {
    if (page.page.data.length > 0) return { page, pages, end: 'file' };
    if (!page.page.has_more) return { page, pages, end: 'last-page' };
    const next = page.page.last_id;
    if (next === null) return { page, pages, end: 'no-cursor' };
    if (cursors.has(next) || !forwardCursor(next, after)) return { page, pages, end: 'no-progress' };
    if (pages.length >= allowance) return { page, pages, end: 'allowance' };
    cursors.add(next);
    after = next;
    page = await fetchPage(ctx, containerId, query(after));
    pages.push(page);
  }
}

/** Why a forward walk that reached no file cannot say where the listing resumes, for a skip or a note. */
export function walkNotReached(walk: ForwardWalk, from: string): string | undefined {
  if (walk.end !== 'allowance') return undefined;
  return `${from}: the target answered ${walk.pages.length} pages in a row without a file, each ending at the scan bound with has_more true and a new cursor (4.1 rule 3: legal); the walk's share of the request budget (${walk.pages.length} requests) was spent before a file was listed, so where the listing resumes is not judged`;
}

/** True when cursor `next` may follow `prev`: it names a path after prev's in some path order, or either is opaque. */
function forwardCursor(next: string, prev: string): boolean {
  const a = pathOf(next);
  const b = pathOf(prev);
  if (a === undefined || b === undefined) return true;
  return afterInSomeOrder(b, a);
}

/** Path named by an id, or undefined when the id is not a well-formed container file id. */
export function pathOf(id: string): string | undefined {
  const d = decodeFileId(id);
  return d.ok ? d.path : undefined;
}

/** True when two ids name the same file: equal strings, or both decode to the same path (padding may differ). */
export function sameId(a: unknown, b: string): boolean {
  if (a === b) return true;
  if (typeof a !== 'string') return false;
  const pa = pathOf(a);
  return pa !== undefined && pa === pathOf(b);
}

/**
 * How a page ends, by its last_id (4.1 rules 2-4):
 * - 'none': last_id is null;
 * - 'last-listed': last_id is the id of the last file of data (rule 2);
 * - 'other-listed': last_id is the id of a file of data that is not the last (rule 2 broken: a file
 *   of the page is not a scan position after the page);
 * - 'scan-bound': anything else. Following the catalogue's interpretation of 4.1 rule 3, such a page
 *   is taken to end at the scan bound, and its last_id must name a position after the page.
 */
export type PageEnd = 'none' | 'last-listed' | 'other-listed' | 'scan-bound';

export function pageEnd(page: FilePage): PageEnd {
  const last = page.last_id;
  if (last === null) return 'none';
  const lastFile = page.data[page.data.length - 1];
  if (lastFile && sameId(last, lastFile.id)) return 'last-listed';
  if (page.data.some((f) => sameId(last, f.id))) return 'other-listed';
  return 'scan-bound';
}

/** All files of the walked pages, in the order seen. */
export function filesOf(pages: readonly FetchedPage[]): Array<{ file: ListedFile; at: FetchedPage }> {
  return pages.flatMap((at) => at.page.data.map((file) => ({ file, at })));
}

/** True when the target writes ids with `=` padding (judged from ids that need it; RFC 4648 section 5). */
export function usesPadding(pages: readonly FetchedPage[]): boolean {
  return filesOf(pages).some(({ file }) => file.id.endsWith('='));
}

/**
 * A path strictly between two listed paths p < q (byte-wise), hence not listed when p and q are
 * consecutive files of a page in path order. A few plausible suffixes are tried before a control
 * character; undefined when none fits (q = p + "\u0000...").
 */
export function pathBetween(p: string, q: string): string | undefined {
  for (const suffix of ['.conformance-probe', ' ', '\u0001']) {
    const c = p + suffix;
    if (comparePaths(p, c) < 0 && comparePaths(c, q) < 0) return c;
  }
  return undefined;
}

/**
 * walkPages, except that an unreadable listing of an optional extra container (the restarted one)
 * is left to the check that owns it (files.container-id.restarted): undefined instead of an error.
 */
export async function walkOrSkip(
  ctx: ProbeContext,
  containerId: string,
  optional: boolean,
  opts: Parameters<typeof walkPages>[2],
): Promise<Walk | undefined> {
  try {
    return await walkPages(ctx, containerId, opts);
  } catch (e) {
    if (optional && e instanceof UnreadableListing) return undefined;
    throw e;
  }
}
