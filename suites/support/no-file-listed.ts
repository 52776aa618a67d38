/**
 * A container that lists no file (2.2 "May be empty"): rules of listContainerFiles that only a page with
 * something on it can show broken hold of its empty pages without showing anything. The records and their
 * count, order and resumption need a listed file, rule 1 a page with has_more true, rule 3 a page that
 * ended at the scan bound; a check whose pages had none of these says it did not judge such a rule, with
 * the cause, and never passes it (rule "No green without evidence"). What an empty listing does show
 * (its shape, has_more false, first_id) stays judged.
 */
import type { ProbeContext } from '../../core/check/check.ts';
import type { RequirementId } from '../../spec/requirement-ids.ts';
import { pageEnd, type FilePage } from './file-pages.ts';

/**
 * Requirements only a listed file can break: a record (2.1), how many files a page holds, their order,
 * where a page after one resumes, a page's last_id among its files (4.1 rules 2 and 4).
 */
const OVER_LISTED_FILES: ReadonlySet<RequirementId> = new Set<RequirementId>([
  'files.file.schema',
  'files.limit.page-size',
  'files.limit.default-maximum',
  'files.limit.default',
  'files.limit.default-value',
  'files.limit.maximum',
  'files.list.path-order',
  'files.after.strictly-after',
  'files.pagination.null-last-id',
  'files.pagination.last-id-is-last-listed',
  'files.pagination.short-page-at-scan-bound',
]);

/** The cause of every requirement said not judged here. */
export const NO_FILE_LISTED = 'the container lists no file';

/** True when the walk from the start (a page asked without after) ended, has_more false, without listing a file. */
export function listsNoFile(pages: ReadonlyArray<{ page: FilePage; after: string | undefined }>): boolean {
  return pages.every((p) => p.page.data.length === 0) && pages.some((p) => p.after === undefined && !p.page.has_more);
}

/**
 * On a container that lists no file, says not judged each of `requirements` the check's `pages` could not
 * show broken: every rule over listed files, last-id-when-has-more when no page said has_more true,
 * scan-bound-position when none ended at the scan bound. `what` says what the check asked, for the reason.
 */
export function notJudgedWithoutFiles(
  ctx: Pick<ProbeContext, 'notJudged'>,
  requirements: readonly RequirementId[],
  pages: ReadonlyArray<{ page: FilePage }>,
  what: string,
): void {
  const withMore = pages.some((p) => p.page.has_more);
  const atScanBound = pages.some((p) => pageEnd(p.page) === 'scan-bound');
  for (const id of requirements) {
    if (OVER_LISTED_FILES.has(id)) ctx.notJudged(id, `${NO_FILE_LISTED}: ${what}, so no listed file to judge it by`);
    else if (id === 'files.pagination.last-id-when-has-more' && !withMore)
      ctx.notJudged(id, `${NO_FILE_LISTED}: ${what}, none with has_more true, so nothing to judge it by`);
    else if (id === 'files.pagination.scan-bound-position' && !atScanBound)
      ctx.notJudged(id, `${NO_FILE_LISTED}: ${what}, none ended at the scan bound, so no scan position to judge`);
  }
}
