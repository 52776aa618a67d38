import type { RequirementId } from '../../spec/requirement-ids.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import type { Exchange } from '../../core/check/evidence.ts';
import { pageEnd, pathOf, sameId, type FilePage } from './file-pages.ts';
import { afterInSomeOrder, PathOrderTracker } from './path-order.ts';
import { classifyPageSize } from './query-values.ts';
import { shown } from './values.ts';

/** 4.1 / 8: without limit a page holds at most 100 files; never more than 1000. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** A page and the request that fetched it: what the rules of one page are judged against. */
export interface PageUnderRules {
  page: FilePage;
  /** The limit asked (already an integer in 1..1000), or undefined when the request sent none. */
  limit: number | undefined;
  /** The `after` sent, or undefined for the first page. */
  after: string | undefined;
}

/** A rule of 4.1 / 2.2 one page breaks: its requirement and what is wrong. */
export interface PageViolation {
  requirementId: RequirementId;
  message: string;
}

/** Every requirement pageViolation can name. */
export const PAGE_RULE_REQUIREMENTS = [
  'files.limit.maximum',
  'files.limit.default-maximum',
  'files.limit.page-size',
  'files.list.path-order',
  'files.after.strictly-after',
  'files.list.first-id',
  'files.pagination.last-id-when-has-more',
  'files.pagination.null-last-id',
  'files.pagination.last-id-is-last-listed',
  'files.pagination.scan-bound-position',
] as const;

/**
 * The rules of one page a walk with a limit judges (assertPageRules: a page breaking one fails that rule,
 * not the walk's own). Every page such a walk fetches names a limit, so the default's maximum is not among them.
 */
export const ONE_PAGE_RULES = PAGE_RULE_REQUIREMENTS.filter((r) => r !== 'files.limit.default-maximum');

/**
 * Every MUST of 4.1 that one page must obey on its own, judged against the request that fetched it
 * (its limit and its cursor): the first rule broken, or undefined. Paths are compared in the order
 * the listing is in (`order`, narrowed here: 2.2 / 4.1 readings); a page shorter than limit is
 * files.pagination.short-page-at-scan-bound's (SHOULD, a check of its own). Written once for the
 * pagination checks (assertPageRules) and the whole-run judge of every page (suites/judges/).
 */
export function pageViolation(
  fp: PageUnderRules,
  order: PathOrderTracker = new PathOrderTracker(),
): PageViolation | undefined {
  const { page } = fp;
  const v = (requirementId: RequirementId, message: string): PageViolation => ({ requirementId, message });
  const cursor = fp.after === undefined ? undefined : pathOf(fp.after);
  const n = page.data.length;
  if (n > MAX_LIMIT) return v('files.limit.maximum', `page holds ${n} files, more than the maximum of 1000 (4.1, 8)`);
  if (fp.limit === undefined && n > DEFAULT_LIMIT)
    return v('files.limit.default-maximum', `page holds ${n} files without limit; the default is 100 (4.1, 8)`);
  if (fp.limit !== undefined && n > fp.limit)
    return v('files.limit.page-size', `page holds ${n} files for limit ${fp.limit}`);
  for (let i = 1; i < n; i++) {
    const why = order.before(page.data[i - 1]!.path, page.data[i]!.path);
    if (why)
      return v(
        'files.list.path-order',
        `data[${i - 1}].path ${shown(page.data[i - 1]!.path)} is listed before data[${i}].path ${shown(page.data[i]!.path)}, but ${why}`,
      );
  }
  // A pair after each other in some reading, not in the listing's, breaks the order, not the rule
  // that paired them: the same page judged alone or in a walk names the same requirement.
  const ruleOf = (a: string, b: string, requirementId: RequirementId) =>
    afterInSomeOrder(a, b) ? 'files.list.path-order' : requirementId;
  const first = page.data[0];
  if (cursor !== undefined && first) {
    const why = order.before(cursor, first.path);
    if (why)
      return v(
        ruleOf(cursor, first.path, 'files.after.strictly-after'),
        `after=${fp.after} names ${shown(cursor)}, but the page starts at ${shown(first.path)}, which is not after it: ${why}`,
      );
  }
  if (page.first_id !== null && first && !sameId(page.first_id, first.id))
    return v(
      'files.list.first-id',
      `first_id ${shown(page.first_id)} is not the id of the first listed file ${first.id}`,
    );
  if (page.first_id !== null && !first)
    return v('files.list.first-id', `first_id ${shown(page.first_id)} on a page with no file`);
  if (page.has_more && page.last_id === null)
    return v('files.pagination.last-id-when-has-more', 'has_more is true but last_id is null');
  if (page.last_id === null && n > 0)
    return v('files.pagination.null-last-id', `last_id is null on a page of ${n} files`);
  const end = pageEnd(page);
  if (end === 'other-listed')
    return v(
      'files.pagination.last-id-is-last-listed',
      `last_id ${page.last_id} names a listed file that is not the last one`,
    );
  // 4.1 rule 3: a last_id that is a container file id names a path, and listing resumes strictly after
  // it, so it lies after the page and after the cursor. An opaque token ("names the scan position" says
  // no more) is judged by where the listing resumes from it (traversals, the scan-bound-position check).
  const position = end === 'scan-bound' ? pathOf(page.last_id!) : undefined;
  if (position !== undefined) {
    const last = page.data[n - 1];
    const behindLast = last ? order.before(last.path, position) : undefined;
    if (behindLast)
      return v(
        ruleOf(last!.path, position, 'files.pagination.scan-bound-position'),
        `last_id names ${shown(position)}, not after the last listed path ${shown(last!.path)}: ${behindLast}`,
      );
    // 4.1 rule 4 says when last_id may be null ("only when has_more is false and data is empty"), not
    // that it must be: the empty last page may name the position it resumed from, its cursor, where
    // nothing follows (decision empty-last-page-position).
    const echoesCursor = !page.has_more && n === 0 && position === cursor;
    const behindCursor = cursor !== undefined && !echoesCursor ? order.before(cursor, position) : undefined;
    if (behindCursor)
      return v(
        ruleOf(cursor!, position, 'files.pagination.scan-bound-position'),
        `last_id names ${shown(position)}, not after the request's cursor ${shown(cursor)}: ${behindCursor}`,
      );
  }
  return undefined;
}

/**
 * The limit a page is judged against, from the request's raw `limit`: none (or empty, reading
 * limit-empty-default) is the default; an integer in plain digits the server chose to accept, even out
 * of range, is held to the bounds "Minimum 1, maximum 1000" (4.1) as the clamping reading reads them.
 * An integer in another spelling ("1e2", "05", "+5", "2.0") is read as the suite declares it
 * (general.integer-spelling, UNSPECIFIED): a server may take it as its integer or as no limit at all
 * (reading limit-spelling-default), so only the maximum holds; so does a value no reading makes an integer.
 */
export function limitOfRequest(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const kind = classifyPageSize(raw, 1, MAX_LIMIT);
  if (kind === 'spelling' || kind === 'not-an-integer') return MAX_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Number(raw)));
}

/** pageViolation for a check's own pages: throws a ConformanceFailure naming the precise requirement. */
export function assertPageRules(
  fp: PageUnderRules & { res: { exchange: Exchange } },
  order: PathOrderTracker = new PathOrderTracker(),
): void {
  const broken = pageViolation(fp, order);
  if (broken) throw new ConformanceFailure(broken.requirementId, broken.message, [fp.res.exchange]);
}
