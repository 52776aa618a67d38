/**
 * Every 200 page of listContainerFiles the run receives, whichever check sent it, judged by the rules
 * of 4.1 and 2.2 that one page obeys on its own (suites/support/page-rules.ts), against the request
 * that fetched it: its limit, even one out of range that the server chose to accept, and its cursor.
 * A page with has_more and no last_id answered to a query check's limit=0 is as much a failure of 4.1
 * rule 1 as one met in a traversal (principle 2: the bad page is rarely the one a check asked for).
 */
import type { Finding, ResponseJudge } from '../../core/judge.ts';
import { filePageProblem, type FilePage } from '../support/file-pages.ts';
import { limitOfRequest, PAGE_RULE_REQUIREMENTS, pageViolation } from '../support/page-rules.ts';

export const containerFilePagesJudge: ResponseJudge = {
  id: 'files.pages',
  requirements: PAGE_RULE_REQUIREMENTS,
  judge(response): Finding[] {
    if (response.operation !== 'listContainerFiles' || response.status !== 200) return [];
    // A body that is no readable list is the schema judge's (files.list.schema).
    if (filePageProblem(response.json) !== undefined) return [];
    const after = response.query['after'];
    const broken = pageViolation({ page: response.json as FilePage, limit: limitOfRequest(response.query['limit']), after: after === '' ? undefined : after });
    if (!broken) return [];
    return [{ requirementId: broken.requirementId, message: broken.message, exchange: response.exchange, dedupeKey: `${broken.requirementId}:page` }];
  },
};
