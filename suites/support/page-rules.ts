import { ConformanceFailure } from '../../core/errors.ts';
import { pageEnd, pathOf, sameId, type FetchedPage } from './file-pages.ts';
import { PathOrderTracker } from './path-order.ts';

/** 4.1 / 8: without limit a page holds at most 100 files. */
const DEFAULT_LIMIT = 100;

/**
 * Every MUST of 4.1 that one page must obey on its own, judged against the request that fetched it
 * (its limit and its cursor). Throws a ConformanceFailure naming the precise requirement. Paths are
 * compared in the order the listing is in (`order`, narrowed here: UTF-8 or UTF-16, 2.2 / 4.1); a
 * page shorter than limit is files.pagination.short-page-at-scan-bound's (SHOULD, a check of its own).
 */
export function assertPageRules(fp: FetchedPage, order: PathOrderTracker = new PathOrderTracker()): void {
  const { page, res } = fp;
  const fail = (id: string, message: string): never => {
    throw new ConformanceFailure(id, message, [res.exchange]);
  };
  const limit = fp.limit ?? DEFAULT_LIMIT;
  const cursor = fp.after === undefined ? undefined : pathOf(fp.after);
  if (page.data.length > limit) fail('files.limit.page-size', `page holds ${page.data.length} files for limit ${limit}`);
  for (let i = 1; i < page.data.length; i++) {
    const why = order.before(page.data[i - 1]!.path, page.data[i]!.path);
    if (why) fail('files.list.path-order', `data[${i - 1}].path ${JSON.stringify(page.data[i - 1]!.path)} is listed before data[${i}].path ${JSON.stringify(page.data[i]!.path)}, but ${why}`);
  }
  const first = page.data[0];
  if (cursor !== undefined && first) {
    const why = order.before(cursor, first.path);
    if (why) fail('files.after.strictly-after', `after=${fp.after} names ${JSON.stringify(cursor)}, but the page starts at ${JSON.stringify(first.path)}, which is not after it: ${why}`);
  }
  if (page.first_id !== null && first && !sameId(page.first_id, first.id)) fail('files.list.first-id', `first_id ${JSON.stringify(page.first_id)} is not the id of the first listed file ${first.id}`);
  if (page.first_id !== null && !first) fail('files.list.first-id', `first_id ${JSON.stringify(page.first_id)} on a page with no file`);
  if (page.has_more && page.last_id === null) fail('files.pagination.last-id-when-has-more', 'has_more is true but last_id is null');
  if (page.last_id === null && page.data.length > 0) fail('files.pagination.null-last-id', `last_id is null on a page of ${page.data.length} files`);
  const end = pageEnd(page);
  if (end === 'other-listed') fail('files.pagination.last-id-is-last-listed', `last_id ${page.last_id} names a listed file that is not the last one`);
  // 4.1 rule 3: a last_id that is a container file id names a path, and listing resumes strictly after
  // it, so it lies after the page and after the cursor. An opaque token ("names the scan position" says
  // no more) is judged by where the listing resumes from it (traversals, the scan-bound-position check).
  const position = end === 'scan-bound' ? pathOf(page.last_id!) : undefined;
  if (position !== undefined) {
    const last = page.data[page.data.length - 1];
    const behindLast = last ? order.before(last.path, position) : undefined;
    if (behindLast) fail('files.pagination.scan-bound-position', `last_id names ${JSON.stringify(position)}, not after the last listed path ${JSON.stringify(last!.path)}: ${behindLast}`);
    const behindCursor = cursor !== undefined ? order.before(cursor, position) : undefined;
    if (behindCursor) fail('files.pagination.scan-bound-position', `last_id names ${JSON.stringify(position)}, not after the request's cursor ${JSON.stringify(cursor)}: ${behindCursor}`);
  }
}
