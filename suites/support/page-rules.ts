import { ConformanceFailure } from '../../core/errors.ts';
import { comparePaths } from '../../core/file-id.ts';
import { pageEnd, pathOf, sameId, type FetchedPage } from './file-pages.ts';

/** 4.1 / 8: without limit a page holds at most 100 files. */
const DEFAULT_LIMIT = 100;

/**
 * Every rule of 4.1 that one page must obey on its own, judged against the request that fetched it
 * (its limit and its cursor). Throws a ConformanceFailure naming the precise requirement.
 */
export function assertPageRules(fp: FetchedPage): void {
  const { page, res } = fp;
  const fail = (id: string, message: string): never => {
    throw new ConformanceFailure(id, message, [res.exchange]);
  };
  const limit = fp.limit ?? DEFAULT_LIMIT;
  const cursor = fp.after === undefined ? undefined : pathOf(fp.after);
  if (page.data.length > limit) fail('files.limit.page-size', `page holds ${page.data.length} files for limit ${limit}`);
  for (let i = 1; i < page.data.length; i++) {
    if (comparePaths(page.data[i - 1]!.path, page.data[i]!.path) >= 0) {
      fail('files.list.path-order', `data[${i - 1}].path ${JSON.stringify(page.data[i - 1]!.path)} is not before data[${i}].path ${JSON.stringify(page.data[i]!.path)} in byte-wise order`);
    }
  }
  const first = page.data[0];
  if (cursor !== undefined && first && comparePaths(first.path, cursor) <= 0) {
    fail('files.after.strictly-after', `after=${fp.after} names ${JSON.stringify(cursor)}, but the page starts at ${JSON.stringify(first.path)}, which is not after it`);
  }
  if (page.first_id !== null && first && !sameId(page.first_id, first.id)) fail('files.list.first-id', `first_id ${JSON.stringify(page.first_id)} is not the id of the first listed file ${first.id}`);
  if (page.first_id !== null && !first) fail('files.list.first-id', `first_id ${JSON.stringify(page.first_id)} on a page with no file`);
  if (page.has_more && page.last_id === null) fail('files.pagination.last-id-when-has-more', 'has_more is true but last_id is null');
  if (page.last_id === null && page.data.length > 0) fail('files.pagination.null-last-id', `last_id is null on a page of ${page.data.length} files`);
  const end = pageEnd(page);
  if (end === 'other-listed') fail('files.pagination.last-id-is-last-listed', `last_id ${page.last_id} names a listed file that is not the last one`);
  if (end === 'scan-bound') {
    const position = pathOf(page.last_id!);
    const last = page.data[page.data.length - 1];
    if (position === undefined) fail('files.pagination.scan-bound-position', `last_id ${JSON.stringify(page.last_id)} names no listed file and is not a container file id`);
    if (last && comparePaths(position!, last.path) <= 0) fail('files.pagination.scan-bound-position', `last_id names ${JSON.stringify(position)}, not after the last listed path ${JSON.stringify(last.path)}`);
    if (cursor !== undefined && comparePaths(position!, cursor) <= 0) fail('files.pagination.scan-bound-position', `last_id names ${JSON.stringify(position)}, not after the request's cursor ${JSON.stringify(cursor)}`);
  }
  if (page.has_more && page.data.length < limit && end !== 'scan-bound') {
    fail('files.pagination.short-page-at-scan-bound', `page of ${page.data.length} files for limit ${limit} with has_more true, and last_id is the last listed file (not a scan position)`);
  }
}
