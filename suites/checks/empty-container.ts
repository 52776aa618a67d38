/**
 * listContainerFiles on a container with no file (target field containerFiles.emptyContainerId), and
 * on a container id no deployment has. An empty listing is where 4.1's null cases meet: "data may be
 * empty" (2.2, rule 3), "last_id is null only when has_more is false and data is empty" (rule 4),
 * "last_id is non-null whenever has_more is true" (rule 1), and "first_id may be null" (rule 5).
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { encodeFileId } from '../../core/document/file-id.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import { UnreadableListing, walkPages } from '../support/file-pages.ts';
import { conformToSchema } from '../judges/response-schema.ts';
import { assertPageRules } from '../support/page-rules.ts';
import { brief, isObject, jsonType, shown } from '../support/values.ts';

/**
 * The requests of the empty container: the smallest limit, the default, the largest with a cursor
 * (4.1 / 8: limit 1 to 1000, default 100; `after` "any container file id"). The cursor names a path
 * no container needs to hold: listing resumes strictly after it, which in an empty container is nothing.
 * The path is 24 bytes, a multiple of 3, so its base64url has no `=` padding to add or leave out: the
 * id is the same whether the target pads ids or not (RFC 4648 section 5 leaves padding open), and an
 * empty container shows no id to learn the target's choice from.
 */
const EMPTY_QUERIES: ReadonlyArray<{ limit?: number; after?: string }> = [
  { limit: 1 },
  {},
  { limit: 1000, after: encodeFileId('conformance-suite/after-') },
];
/** Pages followed per query: an empty container may end several pages at the scan bound (4.1 rule 3). */
const MAX_PAGES = 4;

/**
 * The very first request refused with 404 or 403: 4.1 lists no 404, and an unknown container may be
 * listed empty or refused with 403 (reading unknown-container-forbidden), so the target file's
 * emptyContainerId is not a container this key may read; it is named, not failed on the server
 * (rule "Bad input exits 2"). files.errors.documented-status still judges the 404 as every error of the run.
 */
function carelessContainer(e: unknown, id: string): unknown {
  const res = e instanceof UnreadableListing ? e.response : undefined;
  if (!res || (res.status !== 404 && res.status !== 403) || /[?&]after=/.test(res.exchange.request.url)) return e;
  return new CannotJudge(
    'target-file',
    `containerFiles.emptyContainerId ${shown(id)} was answered ${res.status}: is it a container of the deployment (and one this key may read)? Check the target file`,
    [res.exchange],
  );
}

/**
 * The rules of this check an empty page cannot show broken, judged only on a page that lists files: the
 * records (2.1), their count and order, where the page resumes, and the pages' last_id among their files
 * (rules 2 and 4 break only with a file listed).
 */
const OVER_LISTED_FILES = [
  'files.file.schema',
  'files.limit.page-size',
  'files.list.path-order',
  'files.after.strictly-after',
  'files.pagination.null-last-id',
  'files.pagination.last-id-is-last-listed',
] as const;

export const emptyContainerChecks = defineChecks([
  {
    id: 'files.empty-container.pages',
    title:
      'A container with no file lists empty pages that obey 2.2 and 4.1 rules 1-5, at limits 1, default and 1000 with an after',
    operation: 'listContainerFiles',
    // assertPageRules names the precise rule a page breaks; the first is the one an empty page breaks most.
    requirements: [
      'files.pagination.last-id-when-has-more',
      'files.pagination.null-last-id',
      'files.pagination.last-id-is-last-listed',
      'files.pagination.scan-bound-position',
      'files.pagination.short-page-at-scan-bound',
      'files.list.first-id',
      'files.list.schema',
      'files.file.schema',
      'files.limit.page-size',
      'files.list.path-order',
      'files.after.strictly-after',
    ],
    estimatedRequests: EMPTY_QUERIES.length,
    needs: (t) => (t.containerFiles.emptyContainerId ? undefined : { field: 'containerFiles.emptyContainerId' }),
    async probe(ctx: ProbeContext) {
      const id = ctx.target.containerFiles.emptyContainerId!;
      let listed = 0;
      let withMore = 0;
      let withLastId = 0;
      for (const [n, q] of EMPTY_QUERIES.entries()) {
        // A page with has_more true and an empty data still has a cursor to follow (rule 3: it ended at the
        // scan bound); walkPages stops where the rules break (no cursor, no progress), bounded by MAX_PAGES.
        const { pages } = await walkPages(ctx, id, { ...q, maxPages: MAX_PAGES }).catch((e: unknown) => {
          throw n === 0 ? carelessContainer(e, id) : e;
        });
        for (const p of pages) {
          // 2.2: "data ... May be empty", but object, data, first_id, last_id and has_more are all present.
          conformToSchema(ctx, 'listContainerFiles', p.res);
          // 4.1 rules 1-5 judged against this request's limit and cursor: with empty data, has_more true
          // needs a non-null last_id naming a scan position after the cursor (rules 1 and 3), first_id is
          // null (rule 5: it is the id of the first file, and there is none).
          assertPageRules(p);
          listed += p.page.data.length;
          if (p.page.has_more) withMore++;
          if (p.page.last_id !== null) withLastId++;
        }
      }
      // A deployment's data is not ours: a container that lists files is not the empty one the target
      // file promised, so the emptiness itself is not failed (the rules above were still judged).
      if (listed > 0) ctx.skip(`containerFiles.emptyContainerId lists ${listed} file(s): it is not an empty container`);
      // What empty pages judged: the list, its first_id, and last_id where one was given or has_more was
      // true. A rule over the files a page lists holds of an empty page without showing anything (rule
      // "No green without evidence"); the main container's walks judge those.
      for (const id of OVER_LISTED_FILES)
        ctx.notJudged(id, 'the empty container lists no file: no listed file to judge it by');
      if (withMore === 0)
        for (const id of [
          'files.pagination.last-id-when-has-more',
          'files.pagination.short-page-at-scan-bound',
        ] as const)
          ctx.notJudged(id, 'no page of the empty container said has_more true: nothing to judge it by');
      if (withLastId === 0)
        ctx.notJudged(
          'files.pagination.scan-bound-position',
          'no page of the empty container gave a last_id: no position to judge',
        );
    },
  },
  {
    id: 'files.container-id.unknown',
    title: 'What a container id that no deployment has gets (not shown)',
    operation: 'listContainerFiles',
    kind: 'observation',
    requirements: ['files.container-id.unknown'],
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      // 4.1 says nothing of an unknown container: an empty list or an error of a status 4.1 lists (403
      // most naturally, reading unknown-container-forbidden) are choices a deployment can make, so the
      // answer is observed here. A status 4.1 does not list, 404 included, is no choice it leaves:
      // files.errors.documented-status fails it (spec/readings.yaml, decision files-error-statuses).
      const res = await ctx.api.listContainerFiles(`cntr_conformance-suite-unknown-${ctx.seed.toString(16)}`, {
        limit: 1,
      });
      const body = isObject(res.json) ? res.json : undefined;
      const error = body && isObject(body.error) ? body.error : undefined;
      ctx.observe('files.container-id.unknown', {
        status: res.status,
        ...(res.status === 200 && body
          ? {
              'data.length': Array.isArray(body.data) ? body.data.length : jsonType(body, 'data'),
              has_more: brief(body.has_more),
              last_id: brief(body.last_id),
            }
          : {}),
        ...(error ? { 'error.code': brief(error.code), 'error.message': brief(error.message) } : {}),
      });
    },
  },
]);
