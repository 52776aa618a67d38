/**
 * listContainerFiles (2.1, 2.2, 4.1, 8): the rules one request or one page can show. Multi-page
 * traversals (every file exactly once, progress, limit independence) are in the pagination checks.
 *
 * Data-agnostic throughout: a live container's files are not ours, so every check compares the
 * target with itself (a page with the page fetched after it, a listed path with a path built between
 * two listed ones) and skips when the container has too little to probe.
 */
import { defineChecks, type ProbeContext } from '../../core/check.ts';
import { expectJson, expectSchema, expectStatus } from '../../core/expect.ts';
import { encodeFileId } from '../../core/file-id.ts';
import { errorBody } from '../support/operations.ts';
import { PathOrderTracker } from '../support/path-order.ts';
import {
  fetchPage,
  filesOf,
  pageEnd,
  pathBetween,
  pathOf,
  readPage,
  sameId,
  UnreadableListing,
  usesPadding,
  walkOrSkip,
  walkPages,
  type FetchedPage,
  type ListedFile,
  type Walk,
} from '../support/file-pages.ts';
import { containerIdEchoRule, createdAtSecondsRule, fileIdRule, pathRelativeRule } from '../judges/container-file-records.ts';
import { conformRecord } from '../judges/records.ts';
import { conformToSchema } from '../judges/response-schema.ts';

/** 4.1 / 8: limit 1 to 1000, default 100. */
const LIMIT_MAX = 1000;
const LIMIT_DEFAULT = 100;
/** Pages a sampling check walks at limit 1000: enough to pass a scan-bound page or two, few requests. */
const SAMPLE_PAGES = 4;

const main = (ctx: ProbeContext) => ctx.target.containerFiles.containerId;

/** The files of the first pages of the container at limit 1000 (skips when there are none). */
async function sampleFiles(ctx: ProbeContext, pagesMax = SAMPLE_PAGES): Promise<Array<{ file: ListedFile; at: FetchedPage }>> {
  const { pages } = await walkPages(ctx, main(ctx), { limit: LIMIT_MAX, maxPages: pagesMax });
  const files = filesOf(pages);
  if (files.length === 0) ctx.skip(`no file listed in the first ${pages.length} page(s) of containerFiles.containerId`);
  return files;
}

/**
 * The path order(s) a page is in (UTF-8 or UTF-16 code units, 2.2 / 4.1), to compare other paths with
 * its files. Throws (as a suite error, not a failure) when it is in neither: files.list.path-order judges that.
 */
function orderOf(p: FetchedPage): PathOrderTracker {
  const order = new PathOrderTracker();
  const d = p.page.data;
  for (let i = 1; i < d.length; i++) {
    if (order.before(d[i - 1]!.path, d[i]!.path)) {
      throw new UnreadableListing(`cannot judge: GET ${p.res.exchange.request.url} is not in path order (files.list.path-order judges it)`);
    }
  }
  return order;
}

/** C0 controls and DEL: whether after may name such a path is left open (files.after.control-char-paths). */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Fetches the page after `after`, following at most `hops` empty pages that end at the scan bound
 * (4.1 rule 3: data may be empty there), and returns the first page that lists a file (or the last one fetched).
 */
async function firstFilesAfter(ctx: ProbeContext, after: string, limit: number, hops = 3): Promise<FetchedPage> {
  let p = await fetchPage(ctx, main(ctx), { limit, after });
  for (let n = 0; n < hops && p.page.data.length === 0 && p.page.has_more && p.page.last_id !== null; n++) {
    p = await fetchPage(ctx, main(ctx), { limit, after: p.page.last_id });
  }
  return p;
}

const q = (s: string) => JSON.stringify(s);
/** Where a sampled file sits in the page that is the evidence, for a message. */
const where = (file: ListedFile, at: FetchedPage) => `/data/${at.page.data.indexOf(file)}`;

/** 7.1: a rejected parameter is 400 with the container-files error body. */
async function expectRejected(ctx: ProbeContext, query: Record<string, string>, requirementId: string, what: string): Promise<void> {
  const res = await ctx.api.listContainerFiles(main(ctx), query);
  expectStatus(res, 400, requirementId, what);
  // The body whatever its media type: that is general.json-body's and general.json-media-type's.
  expectSchema(errorBody(res, 'files.errors.shape'), 'ContainerFilesError', 'files.errors.shape', res);
}

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
      const ids = [main(ctx), ctx.target.containerFiles.restartedContainerId].filter((x): x is string => x !== undefined);
      let seen = 0;
      for (const containerId of ids) {
        const walk = await walkOrSkip(ctx, containerId, containerId !== main(ctx), { limit: LIMIT_MAX, maxPages: 3, enough: (ps) => filesOf(ps).length > 0 });
        for (const { file, at } of filesOf(walk?.pages ?? [])) {
          seen++;
          conformRecord(ctx, containerIdEchoRule(containerId), file, at.res, where(file, at));
        }
      }
      if (seen === 0) ctx.skip('no file listed in the first pages of the configured containers');
    },
  },
  {
    id: 'files.file.created-at-seconds',
    title: 'created_at is an integer Unix timestamp in seconds, not milliseconds',
    operation: 'listContainerFiles',
    requirements: ['files.file.created-at-seconds'],
    async probe(ctx: ProbeContext) {
      for (const { file, at } of await sampleFiles(ctx)) conformRecord(ctx, createdAtSecondsRule, file, at.res, where(file, at));
    },
  },
  {
    id: 'files.file.path-relative',
    title: 'path is relative to the container (does not begin with /)',
    operation: 'listContainerFiles',
    requirements: ['files.file.path-relative'],
    async probe(ctx: ProbeContext) {
      // 2.1 "Path relative to the container": read as not beginning with "/" (SHOULD: no grammar is given).
      for (const { file, at } of await sampleFiles(ctx)) conformRecord(ctx, pathRelativeRule, file, at.res, where(file, at));
    },
  },
  {
    id: 'files.list.path-order',
    title: 'The files of a page are in strictly increasing lexicographic path order, UTF-8 or UTF-16, one order throughout',
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
        ctx.conform(!why, `${q(a.file.path)} is listed before ${q(b.file.path)}, but ${why}`, b.at.res);
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
        ctx.conform(file !== undefined, `first_id is ${JSON.stringify(first)} on a page with no file; expected null`, p.res);
        ctx.conform(sameId(first, file.id), `first_id is ${JSON.stringify(first)}, expected null or the id of the first file ${q(file.id)}`, p.res);
      }
    },
  },
  {
    id: 'files.container-id.restarted',
    title: "A restarted session's container id (suffix -r<nonce>) is accepted as the path parameter",
    operation: 'listContainerFiles',
    requirements: ['files.container-id.restarted'],
    needs: (t) => (t.containerFiles.restartedContainerId ? undefined : 'containerFiles.restartedContainerId is not set in the target file'),
    async probe(ctx: ProbeContext) {
      const id = ctx.target.containerFiles.restartedContainerId!;
      const res = await ctx.api.listContainerFiles(id);
      // 4.1: "A restarted session is a separate container with its own id carrying the suffix -r<nonce>".
      expectStatus(res, 200, 'files.container-id.restarted', `restarted container ${q(id)}`);
      readPage(res);
    },
  },
  {
    id: 'files.limit.default-maximum',
    title: 'Without limit a page holds at most 100 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.default-maximum'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8: "limit ... default 100": whatever else a page does, it holds no more than that.
      const { pages } = await walkPages(ctx, main(ctx), { maxPages: 3 });
      for (const p of pages) {
        const n = p.page.data.length;
        ctx.conform(n <= LIMIT_DEFAULT, `a page without limit holds ${n} files, more than the default of ${LIMIT_DEFAULT}`, p.res);
      }
    },
  },
  {
    id: 'files.limit.default',
    title: 'Without limit a page that ends neither the listing nor at the scan bound holds exactly 100 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.default'],
    async probe(ctx: ProbeContext) {
      // SHOULD (4.1 never says a page is full): a page that ends at the scan bound (4.1 rule 3) may be
      // short, so walk forward (bounded) to a page that ends at its last listed file with has_more true.
      const full = (p: FetchedPage) => p.page.has_more && pageEnd(p.page) === 'last-listed';
      const { pages } = await walkPages(ctx, main(ctx), { maxPages: 8, enough: (ps) => full(ps[ps.length - 1]!) });
      for (const p of pages) {
        const n = p.page.data.length;
        if (full(p)) {
          ctx.conform(
            n === LIMIT_DEFAULT,
            `a page without limit holds ${n} files with has_more true and last_id its last file (not at the scan bound); expected the default of ${LIMIT_DEFAULT}`,
            p.res,
          );
        }
      }
    },
  },
  {
    id: 'files.limit.bounds-accepted',
    title: 'limit=1 and limit=1000 are accepted',
    operation: 'listContainerFiles',
    requirements: ['files.limit.bounds-accepted'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8: "Minimum 1, maximum 1000": both ends are inside the range.
      for (const limit of [1, LIMIT_MAX]) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit });
        expectStatus(res, 200, 'files.limit.bounds-accepted', `limit=${limit}`);
        readPage(res);
      }
    },
  },
  {
    id: 'files.limit.out-of-range-rejected',
    title: 'limit=0, limit=-1 and limit=1001 are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.limit.out-of-range-rejected'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8 bounds; 7.1: "Invalid request parameters" is 400. SHOULD: the bounds also read as those
      // of the page size used (reading limit-clamped), so a clamped page is reported, not failed.
      for (const v of ['0', '-1', '1001']) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit: v });
        expectStatus(res, 400, 'files.limit.out-of-range-rejected', `limit=${v}`);
      }
    },
  },
  {
    id: 'files.limit.maximum',
    title: 'limit=1001 and limit=5000 are refused, or answered with at most 1000 files',
    operation: 'listContainerFiles',
    requirements: ['files.limit.maximum'],
    async probe(ctx: ProbeContext) {
      // 4.1 / 8 "maximum 1000": refused (SHOULD, files.limit.out-of-range-rejected) or clamped, never exceeded.
      for (const limit of [1001, 5000]) {
        const res = await ctx.api.listContainerFiles(main(ctx), { limit });
        if (res.status !== 200) continue;
        const p = readPage(res);
        ctx.conform(p.data.length <= LIMIT_MAX, `limit=${limit} answered a page of ${p.data.length} files, more than the maximum of ${LIMIT_MAX}`, res);
      }
    },
  },
  {
    id: 'files.limit.non-integer-rejected',
    title: 'limit=abc and limit=1.5 are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.limit.non-integer-rejected', 'files.errors.shape'],
    async probe(ctx: ProbeContext) {
      // 4.1: limit is an integer; 7.1: invalid parameters are 400 (not read as a prefix, not defaulted).
      // Only values that are no integer under any reading; other spellings are observed (files.limit.spelling).
      for (const v of ['abc', '1.5']) await expectRejected(ctx, { limit: v }, 'files.limit.non-integer-rejected', `limit=${q(v)}`);
    },
  },
  {
    id: 'files.limit.spelling',
    title: 'What limit=1e2, 2.0, +5, 05, 0x10 and an empty limit get (the spelling of an integer is left open)',
    operation: 'listContainerFiles',
    kind: 'observation',
    requirements: ['general.integer-spelling'],
    async probe(ctx: ProbeContext) {
      // 4.1 gives the type "integer", not how a query string spells one (readings limit-number-spellings, limit-empty-default).
      const seen: Record<string, number> = {};
      for (const v of ['1e2', '2.0', '+5', '05', '0x10', '']) seen[`limit=${v}`] = (await ctx.api.listContainerFiles(main(ctx), { limit: v })).status;
      ctx.observe('general.integer-spelling', { operation: 'listContainerFiles', statuses: seen });
    },
  },
  {
    id: 'files.limit.page-size',
    title: 'A page never holds more files than limit (limit 1 and 7, a few pages each)',
    operation: 'listContainerFiles',
    requirements: ['files.limit.page-size'],
    async probe(ctx: ProbeContext) {
      for (const limit of [1, 7]) {
        const { pages } = await walkPages(ctx, main(ctx), { limit, maxPages: 3 });
        for (const p of pages) {
          ctx.conform(p.page.data.length <= limit, `limit=${limit} but the page holds ${p.page.data.length} files`, p.res);
        }
      }
    },
  },
  {
    id: 'files.after.strictly-after',
    title: "after set to the k-th file's id resumes exactly at file k+1 of the same page",
    operation: 'listContainerFiles',
    requirements: ['files.after.strictly-after'],
    async probe(ctx: ProbeContext) {
      // 4.1 `after`: "Listing resumes strictly after that path." Compare the page with itself: the
      // page after its k-th file starts with its (k+1)-th and lists nothing at or before the k-th.
      const limit = 5;
      const { pages } = await walkPages(ctx, main(ctx), { limit, maxPages: 5, enough: (ps) => ps[ps.length - 1]!.page.data.length >= 2 });
      const base = pages.find((p) => p.page.data.length >= 2);
      if (!base) return ctx.skip(`no page of the first ${pages.length} at limit ${limit} lists two files`);
      const order = orderOf(base);
      const data = base.page.data;
      const k = Math.floor((data.length - 2) / 2);
      const cursor = data[k]!;
      const next = await firstFilesAfter(ctx, cursor.id, limit);
      for (const f of next.page.data) {
        const why = order.before(cursor.path, f.path);
        ctx.conform(!why, `after=${q(cursor.id)} (path ${q(cursor.path)}) but the page lists ${q(f.path)}, which is not after it: ${why}`, next.res);
      }
      const expected = data.slice(k + 1).map((f) => f.path);
      const got = next.page.data.map((f) => f.path);
      ctx.conform(got.length > 0, `after=${q(cursor.id)} lists no file, expected ${q(expected[0]!)} (listed after it on the page before)`, next.res);
      const n = Math.min(got.length, expected.length);
      ctx.conform(
        got.slice(0, n).every((p, i) => p === expected[i]),
        `after=${q(cursor.id)} lists ${JSON.stringify(got.slice(0, n))}, expected ${JSON.stringify(expected.slice(0, n))} (the files after ${q(cursor.path)} on the page before)`,
        next.res,
      );
    },
  },
  {
    id: 'files.after.any-file-id',
    title: 'after set to the id of a path between two listed files is accepted and resumes strictly after that path',
    operation: 'listContainerFiles',
    requirements: ['files.after.any-file-id'],
    async probe(ctx: ProbeContext) {
      // 4.1 `after`: "the previous page's last_id, or any container file id" - including the id of
      // a path that no file has. A path between two neighbours of a page is surely not listed.
      const limit = 5;
      // A path between two neighbours, without control characters (whether those may be named is left open).
      const between = (a: string, b: string) => {
        const c = pathBetween(a, b);
        return c !== undefined && !CONTROL.test(c) ? c : undefined;
      };
      const hasPair = (p: FetchedPage) => p.page.data.some((f, i) => i > 0 && between(p.page.data[i - 1]!.path, f.path) !== undefined);
      const { pages } = await walkPages(ctx, main(ctx), { limit, maxPages: 5, enough: (ps) => hasPair(ps[ps.length - 1]!) });
      const base = pages.find(hasPair);
      if (!base) return ctx.skip(`no page of the first ${pages.length} at limit ${limit} has two neighbouring files with a path between them`);
      const order = orderOf(base);
      const i = base.page.data.findIndex((f, j) => j > 0 && between(base.page.data[j - 1]!.path, f.path) !== undefined);
      const before = base.page.data[i - 1]!;
      const nextFile = base.page.data[i]!;
      const probe = between(before.path, nextFile.path)!;
      // The target's own padding style, so only the path is new (RFC 4648 section 5 leaves padding open).
      const after = encodeFileId(probe, usesPadding(pages));
      const res = await ctx.api.listContainerFiles(main(ctx), { limit, after });
      expectStatus(res, 200, 'files.after.any-file-id', `after=${q(after)}, the id of ${q(probe)} (between the listed ${q(before.path)} and ${q(nextFile.path)})`);
      let p: FetchedPage = { res, page: readPage(res), limit, after };
      for (let n = 0; n < 3 && p.page.data.length === 0 && p.page.has_more && p.page.last_id !== null; n++) {
        p = await fetchPage(ctx, main(ctx), { limit, after: p.page.last_id });
      }
      for (const f of p.page.data) {
        const why = order.before(probe, f.path);
        ctx.conform(!why, `after the id of ${q(probe)} the page lists ${q(f.path)}, which is not after it: ${why}`, p.res);
      }
      const first = p.page.data[0];
      ctx.conform(
        first !== undefined && first.path === nextFile.path,
        `after the id of ${q(probe)} the listing resumes at ${first ? q(first.path) : 'no file'}, expected ${q(nextFile.path)} (the file after it on the page before)`,
        p.res,
      );
    },
  },
  {
    id: 'files.after.no-prefix-rejected',
    title: 'after values without the cfile_ prefix are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.after.no-prefix-rejected', 'files.errors.shape'],
    async probe(ctx: ProbeContext) {
      // 2.1: "The literal prefix cfile_": without it a value is no container file id under any reading
      // (and none the suite's probes are a last_id the target gave), so it is malformed input, 400 (7.1).
      const bad: Array<[string, string]> = [
        ['YWJj', 'base64url of "abc" without the prefix'],
        ['file_YWJj', 'another prefix'],
        ['CFILE_YWJj', 'the prefix in capitals'],
      ];
      for (const [after, why] of bad) await expectRejected(ctx, { after }, 'files.after.no-prefix-rejected', `after=${q(after)} (${why})`);
    },
  },
  {
    id: 'files.after.invalid-rejected',
    title: 'after values with the cfile_ prefix that are not base64url are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.after.invalid-rejected'],
    async probe(ctx: ProbeContext) {
      // 2.1 defines the id (cfile_ + base64url); 7.1 gives 400 for malformed input. SHOULD: how strictly
      // a cursor is decoded is not said, and lenient decoders (Node's, Python's) accept some of these
      // (readings cursor-lenient-base64, cursor-standard-alphabet). Padding and trailing bits are left alone.
      const bad: Array<[string, string]> = [
        ['cfile_fn5+', 'standard-alphabet "+" (base64 of "~~~")'],
        ['cfile_Pz8/', 'standard-alphabet "/" (base64 of "???")'],
        ['cfile_YWJjZ', 'an impossible base64 length'],
        ['cfile_%%%!', 'characters outside base64url'],
      ];
      for (const [after, why] of bad) {
        const res = await ctx.api.listContainerFiles(main(ctx), { after });
        expectStatus(res, 400, 'files.after.invalid-rejected', `after=${q(after)} (${why})`);
      }
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
        retryAfter: [...new Set(limited.map((e) => e.retryAfter ?? null))].slice(0, 10),
      });
    },
  },
]);
