/**
 * listContainerFiles (2.1, 2.2, 4.1, 8): the rules one request or one page can show. Multi-page
 * traversals (every file exactly once, progress, limit independence) are in the pagination checks.
 *
 * Data-agnostic throughout: a live container's files are not ours, so every check compares the
 * target with itself (a page with the page fetched after it, a listed path with a path built between
 * two listed ones) and skips when the container has too little to probe.
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { expectJson, expectStatus } from '../../core/check/expect.ts';
import { compareUtf16, PathOrderTracker } from '../support/path-order.ts';
import { filesOf, readPage, sameId, walkOrSkip, walkPages } from '../support/file-pages.ts';
import {
  containerIdEchoRule,
  createdAtSecondsRule,
  fileIdRule,
  pathRelativeRule,
} from '../judges/container-file-records.ts';
import { conformRecord } from '../judges/records.ts';
import { conformToSchema } from '../judges/response-schema.ts';
import { firstListedPages, LIMIT_MAX, main, q, sampleFiles, SAMPLE_PAGES, where } from '../support/container-files.ts';
import { walkOnToFiles } from '../support/empty-start.ts';
import { listsNoFile, notJudgedWithoutFiles } from '../support/no-file-listed.ts';
import { shown } from '../support/values.ts';

export const containerFilesChecks = defineChecks([
  {
    id: 'files.response.schema',
    title: 'A page of the container is a container file list of 2.2 made of container files of 2.1',
    operation: 'listContainerFiles',
    requirements: ['files.list.schema', 'files.file.schema', 'files.list.media-type'],
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId);
      expectStatus(res, 200, 'files.list.schema');
      // 4.1: "Response 200: container file list (2.2), media type application/json".
      expectJson(res, 'files.list.media-type');
      // A violation inside data[n] is the file's (2.1), any other the list's (2.2): the attribution
      // the response-schema judge applies to every page of the run.
      conformToSchema(ctx, 'listContainerFiles', res);
      // The list is judged on an empty page too; its records only where it lists one.
      const page = { page: readPage(res), after: undefined };
      if (listsNoFile([page]))
        notJudgedWithoutFiles(ctx, ['files.file.schema'], [page], 'its first page ended the listing without one');
      else if (page.page.data.length === 0) {
        // A first page without a file, has_more true (4.1 rule 3): the records are judged on a page asked
        // where the run's listing showed files, past any number of such pages.
        const on = await walkOnToFiles(ctx, { limit: LIMIT_MAX, maxPages: 1 }, 'its first page');
        if (on.noFile !== undefined) ctx.notJudged('files.file.schema', on.noFile);
        else for (const p of on.pages) conformToSchema(ctx, 'listContainerFiles', p.res);
      }
    },
  },
  {
    id: 'files.file.id',
    title: 'Every file id is cfile_ followed by the base64url (URL-safe alphabet) encoding of its path',
    operation: 'listContainerFiles',
    requirements: ['files.file.id-encodes-path', 'files.file.id-url-safe-alphabet'],
    async probe(ctx: ProbeContext) {
      // 2.1: decoded and compared with path, padding either way (the rule: suites/judges/container-file-records.ts).
      for (const { file, at } of await sampleFiles(ctx)) conformRecord(ctx, fileIdRule, file, at.res, where(file, at));
    },
  },
  {
    id: 'files.file.container-id-echo',
    title: 'container_id of every file echoes the container_id path parameter, also for a restarted container',
    operation: 'listContainerFiles',
    requirements: ['files.file.container-id-echo'],
    async probe(ctx: ProbeContext) {
      // 4.1: a restarted session's id (-r<nonce>) is a container id of its own: echo it whole.
      const ids = [main(ctx), ctx.target.containerFiles.restartedContainerId].filter(
        (x): x is string => x !== undefined,
      );
      let seen = 0;
      const noFile: string[] = [];
      for (const containerId of ids) {
        // The main container through any run of hidden objects at its start (4.1 rule 3); the restarted one sampled.
        const walk =
          containerId === main(ctx)
            ? await firstListedPages(ctx, containerId, 1)
            : await walkOrSkip(ctx, containerId, true, {
                limit: LIMIT_MAX,
                maxPages: 3,
                enough: (ps) => filesOf(ps).length > 0,
              });
        if (walk && 'noFile' in walk && walk.noFile) noFile.push(walk.noFile);
        for (const { file, at } of filesOf(walk?.pages ?? [])) {
          seen++;
          conformRecord(ctx, containerIdEchoRule(containerId), file, at.res, where(file, at));
        }
      }
      if (seen === 0) ctx.skip(noFile[0] ?? 'no configured container lists a file');
    },
  },
  {
    id: 'files.file.created-at-seconds',
    title: 'created_at is an integer Unix timestamp in seconds, not milliseconds',
    operation: 'listContainerFiles',
    requirements: ['files.file.created-at-seconds'],
    async probe(ctx: ProbeContext) {
      for (const { file, at } of await sampleFiles(ctx))
        conformRecord(ctx, createdAtSecondsRule, file, at.res, where(file, at));
    },
  },
  {
    id: 'files.file.path-relative',
    title: 'path is relative to the container (does not begin with /)',
    operation: 'listContainerFiles',
    requirements: ['files.file.path-relative'],
    async probe(ctx: ProbeContext) {
      // 2.1 "Path relative to the container": read as not beginning with "/" (SHOULD: no grammar is given).
      for (const { file, at } of await sampleFiles(ctx))
        conformRecord(ctx, pathRelativeRule, file, at.res, where(file, at));
    },
  },
  {
    id: 'files.list.path-order',
    title:
      'The files of a page are in strictly increasing lexicographic path order, UTF-8 or UTF-16, one order throughout',
    operation: 'listContainerFiles',
    requirements: ['files.list.path-order'],
    async probe(ctx: ProbeContext) {
      // 2.2 / 4.1 "lexicographic path order": over UTF-8 bytes (= code points) or over UTF-16 code
      // units, both faithful readings (spec/readings.yaml), but one of them over the whole listing.
      // Locale, case-insensitive and mixed orders fail, and equal neighbours are one path listed twice.
      const files = await sampleFiles(ctx);
      const order = new PathOrderTracker();
      for (let i = 1; i < files.length; i++) {
        const a = files[i - 1]!;
        const b = files[i]!;
        if (a.at !== b.at) continue; // across pages is the pagination checks' business
        const why = order.before(a.file.path, b.file.path);
        ctx.conform(
          !why,
          ctx.requirement,
          `${q(a.file.path)} is listed before ${q(b.file.path)}, but ${why}`,
          b.at.res,
        );
      }
    },
  },
  {
    id: 'files.list.first-id',
    title: 'first_id is null or the id of the first file of the page',
    operation: 'listContainerFiles',
    requirements: ['files.list.first-id'],
    async probe(ctx: ProbeContext) {
      const { pages } = await walkPages(ctx, main(ctx), { limit: LIMIT_MAX, maxPages: SAMPLE_PAGES });
      for (const p of pages) {
        if (!('first_id' in p.page)) continue; // absence is files.list.schema's
        const first = p.page.first_id;
        const file = p.page.data[0];
        // 4.1 rule 5: null is always allowed; otherwise it names data[0] (padding may differ).
        if (first === null) continue;
        ctx.conform(
          file !== undefined,
          ctx.requirement,
          `first_id is ${shown(first)} on a page with no file; expected null`,
          p.res,
        );
        ctx.conform(
          sameId(first, file.id),
          ctx.requirement,
          `first_id is ${shown(first)}, expected null or the id of the first file ${q(file.id)}`,
          p.res,
        );
      }
    },
  },
  {
    id: 'files.container-id.restarted',
    title: "A restarted session's container id (suffix -r<nonce>) is accepted as the path parameter",
    operation: 'listContainerFiles',
    requirements: ['files.container-id.restarted'],
    needs: (t) =>
      t.containerFiles.restartedContainerId ? undefined : { field: 'containerFiles.restartedContainerId' },
    async probe(ctx: ProbeContext) {
      const id = ctx.target.containerFiles.restartedContainerId!;
      const res = await ctx.api.listContainerFiles(id);
      // 4.1: "A restarted session is a separate container with its own id carrying the suffix -r<nonce>".
      expectStatus(res, 200, 'files.container-id.restarted', `restarted container ${q(id)}`);
      readPage(res);
    },
  },
  {
    id: 'files.rate-limit.observed',
    title: 'Observes the 429 responses of the run so far (thresholds and windows are not shown)',
    operation: 'listContainerFiles',
    kind: 'observation',
    requirements: ['files.rate-limit.thresholds'],
    wholeRun: true,
    async probe(ctx: ProbeContext) {
      // 8 rule 3: a 429 exists, its thresholds are not shown. The run's request log is what the
      // client saw (retries included); this check sends nothing.
      const files = ctx.log.filter((e) => /\/containers\/[^/]+\/files$/.test(new URL(e.url).pathname));
      const limited = files.filter((e) => e.status === 429);
      // What the target chose, not what this run happened to send: no request counts or check names
      // (they change with the seed and the selection, and two implementations are compared on this).
      ctx.observe('files.rate-limit.thresholds', {
        limited: limited.length > 0,
        // Sorted: the log's order is the order checks in flight together happened to send in.
        retryAfter: [...new Set(limited.map((e) => e.retryAfter ?? null))]
          .sort((a, b) => compareUtf16(String(a), String(b)))
          .slice(0, 10),
      });
    },
  },
]);
