/**
 * Every 200 page of listContainerFiles the run receives, whichever check sent it, judged by the rules
 * of 4.1 and 2.2 that one page obeys on its own (suites/support/page-rules.ts), against the request
 * that fetched it: its limit, even one out of range that the server chose to accept, and its cursor.
 * A page with has_more and no last_id answered to a query check's limit=0 is as much a failure of 4.1
 * rule 1 as one met in a traversal (rule "Judge every response": the bad page is rarely the one a check asked for).
 */
import type { Finding, ResponseJudge, RunNote, SeenResponse } from '../../core/check/judge.ts';
import type { FilePageNote } from '../support/cross-walks.ts';
import { filePageProblem, type FilePage } from '../support/file-pages.ts';
import { limitOfRequest, PAGE_RULE_REQUIREMENTS, pageViolation } from '../support/page-rules.ts';

/** A cursor longer than this is not noted (a hostile cursor of megabytes is no walk to compare). */
const NOTED_CURSOR_CHARS = 4096;

/**
 * What the run keeps of a page for the whole-run comparison of walks (suites/support/cross-walks.ts):
 * its paths and cursors, for a 200 page asked with the management key, with only limit and after, that
 * breaks no rule of one page (a page that does is that rule's failure, never evidence of another).
 */
export function filePageNote(response: SeenResponse): RunNote | undefined {
  if (response.operation !== 'listContainerFiles' || response.status !== 200 || response.auth !== 'key')
    return undefined;
  if (Object.keys(response.query).some((k) => k !== 'limit' && k !== 'after')) return undefined;
  if (filePageProblem(response.json) !== undefined) return undefined;
  const page = response.json as FilePage;
  const after = response.query['after'];
  if (pageViolation({ page, limit: limitOfRequest(response.query['limit']), after: after === '' ? undefined : after }))
    return undefined;
  if ((after?.length ?? 0) > NOTED_CURSOR_CHARS || (page.last_id?.length ?? 0) > NOTED_CURSOR_CHARS) return undefined;
  const value: FilePageNote = {
    container: response.pathParams['container_id'] ?? '',
    limit: response.query['limit'],
    after,
    paths: page.data.map((f) => f.path),
    lastId: page.last_id,
    hasMore: page.has_more,
  };
  const chars =
    value.paths.reduce((n, p) => n + p.length + 16, 0) +
    (after?.length ?? 0) +
    (page.last_id?.length ?? 0) +
    value.container.length;
  return { key: JSON.stringify([value.container, value.limit ?? null, value.after ?? null]), value, chars };
}

export const containerFilePagesJudge: ResponseJudge = {
  id: 'files.pages',
  requirements: PAGE_RULE_REQUIREMENTS,
  judge(response): Finding[] {
    if (response.operation !== 'listContainerFiles' || response.status !== 200) return [];
    // A body that is no readable list is the schema judge's (files.list.schema).
    if (filePageProblem(response.json) !== undefined) return [];
    const after = response.query['after'];
    const broken = pageViolation({
      page: response.json as FilePage,
      limit: limitOfRequest(response.query['limit']),
      after: after === '' ? undefined : after,
    });
    if (!broken) return [];
    return [
      {
        requirementId: broken.requirementId,
        message: broken.message,
        exchange: response.exchange,
        dedupeKey: `${broken.requirementId}:page`,
      },
    ];
  },
  note: filePageNote,
};
