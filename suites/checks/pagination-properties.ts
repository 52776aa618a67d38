import type { RequirementId } from '../../spec/requirement-ids.ts';
import fc from 'fast-check';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { conform } from '../../core/check/expect.ts';
import { expectErrorShape } from '../judges/response-schema.ts';
import {
  invalidLimit,
  malformedAuthorization,
  malformedCursor,
  pathAround,
  validLimit,
} from '../../generators/arbitraries/index.ts';
import { encodeFileId, FILE_ID_PREFIX } from '../../core/document/file-id.ts';
import { FILES_LIMIT } from '../../spec/parameter-bounds.ts';
import { prefixlessScanCursor } from '../support/container-files.ts';
import { readPage, walkNotReached, walkToFile, type FetchedPage } from '../support/file-pages.ts';
import { notJudgedWithoutFiles } from '../support/no-file-listed.ts';
import { OPERATION_PROBES } from '../support/operations.ts';
import { assertPageRules, PAGE_RULE_REQUIREMENTS } from '../support/page-rules.ts';
import { compareIn, PathOrderTracker } from '../support/path-order.ts';
import { walkListingEnd } from '../support/listing-end.ts';
import { checkProperty } from '../support/property.ts';
import { classifyPageSize } from '../support/query-values.ts';
import {
  FULL_LISTING_LIMIT,
  fullListing,
  listingNotRead,
  pageCapFor,
  traverse,
  type Traversal,
} from '../support/traversal.ts';
import { shown } from '../support/values.ts';
import { expectSameFiles, fixedPlaces } from '../support/traversal-places.ts';

// Properties of listContainerFiles (4.1) that hold for ANY data: the target is compared with itself
// (a traversal at one limit against the full listing at limit 1000), never with known data.

/**
 * The rules of one page its walks judge (assertPageRules: a page breaking one fails that rule, not the
 * property's own). Every page they fetch names a limit, so the default's maximum is never judged here.
 */
const ONE_PAGE_RULES = PAGE_RULE_REQUIREMENTS.filter((r) => r !== 'files.limit.default-maximum');

/** The rules every page of a traversal is judged by and the walk itself. */
const PAGE_RULES = [
  'files.pagination.next-page',
  'files.pagination.limit-independent',
  'files.pagination.progress',
  ...ONE_PAGE_RULES,
] as const;

/** Fraction of the run's request budget files.property.prefix spends, its walk from the start included. */
const PREFIX_SHARE = 0.05;

/** Fraction of the run's request budget files.property.traversal spends on its traversals. */
const TRAVERSAL_SHARE = 0.12;

/** Fraction of the run's request budget files.property.strictly-after spends, its walks included. */
const STRICTLY_AFTER_SHARE = 0.04;

/** C0 controls and DEL: a path holding one may be refused as after (reading cursor-control-refused). */
const CONTROL = /[\u0000-\u001f\u007f]/;

async function listing(ctx: ProbeContext): Promise<Traversal> {
  return fullListing(ctx, ctx.target.containerFiles.containerId);
}

export const paginationPropertyChecks = defineChecks([
  {
    id: 'files.property.traversal',
    title: 'For any limit, following last_id while has_more yields the full listing exactly once, in path order',
    operation: 'listContainerFiles',
    kind: 'property',
    requirements: [...PAGE_RULES],
    // Sent per run (the plan multiplies by --num-runs): limits of n/20 and more, from about 20 pages
    // down to 1 at 1000; on the reference's listing 4-7 a run once the run's memory answers repeats.
    estimatedRequests: 7,
    async probe(ctx: ProbeContext) {
      const full = await listing(ctx);
      const n = full.files.length;
      if (n === 0) ctx.skip('the container lists no file: nothing to traverse');
      // The listing's end at small limits, on every seed, before the random limits (listing-end.ts).
      await walkListingEnd(ctx, full);
      // An endless cursor and a container too large for the budget look the same from outside: neither
      // is failed; the prefix and strictly-after properties still judge every page they read.
      const notRead = listingNotRead(full);
      if (notRead !== undefined) ctx.skip(`a full traversal is beyond what the run may spend: ${notRead}`);
      // Limits that keep one traversal within about 20 pages of files (the budget bounds the rest).
      const bounds = FILES_LIMIT();
      const minLimit = Math.min(bounds.max, Math.max(bounds.min, Math.ceil(n / 20)));
      await checkProperty(ctx, 'files.property.traversal', {
        arbitrary: validLimit({ min: minLimit, max: bounds.max }),
        // A target may end its pages below limit (4.1 never says a page is full): as many as the full listing took.
        requestsPerRun: Math.max(Math.ceil(n / minLimit), full.pages) + full.scanBoundPages + 1,
        budgetShare: TRAVERSAL_SHARE,
        predicate: async (limit) => {
          // Within the property's share of the budget: past it the walk ends unjudged (traverse says so).
          // At the full listing's own limit every page is the run's memory's, which costs no budget.
          const share = Math.floor(ctx.settings.maxRequests * TRAVERSAL_SHARE);
          const cap = Math.max(
            1,
            Math.min(pageCapFor(n, limit, full.scanBoundPages, full.pages), share),
            limit === FULL_LISTING_LIMIT ? full.pages + 1 : 0,
          );
          // A cap derived from a listing that did not end (a file or a cursor that did not move forward)
          // bounds no walk: the walk is then judged page by page for as many pages, and not failed there.
          const t = await traverse(
            ctx,
            ctx.target.containerFiles.containerId,
            full.complete ? { limit, pageCap: cap } : { limit, stopAfter: cap, pageCap: cap + 1 },
          );
          expectSameFiles(t.files, full.files, limit, { got: !t.complete, want: !full.complete });
        },
      });
    },
  },
  {
    id: 'files.property.prefix',
    title: 'For any small limit, the first pages list exactly the first files of the full listing',
    operation: 'listContainerFiles',
    kind: 'property',
    requirements: [...PAGE_RULES],
    // Up to 4 pages a run, but only 20 limits: a limit drawn again is answered from the run's memory.
    estimatedRequests: 2,
    async probe(ctx: ProbeContext) {
      const full = await listing(ctx);
      if (full.files.length === 0) ctx.skip('the container lists no file');
      // Asked on every seed, before the random limits (fast-check's example, so a failure there is a
      // counterexample with its replay path like any other): the start of the listing at the limit whose
      // first page ends right at the last file before the first hidden objects the full listing met, then
      // on through them to the file after. Whether a walk keeps that file may hang on where its page ended
      // (4.1 rule 2 "`last_id` is the id of the last listed file"), and a random limit rarely lands there.
      const start = full.scanBoundRuns[0];
      const fixedLimit =
        start !== undefined && start.filesBefore > 0 && start.filesBefore <= FILES_LIMIT().max
          ? start.filesBefore
          : undefined;
      const fixedPages =
        start === undefined
          ? 0
          : Math.min(Math.floor((ctx.settings.maxRequests * PREFIX_SHARE) / 2), 2 * start.pages + 3);
      await checkProperty(ctx, 'files.property.prefix', {
        arbitrary: validLimit({ min: 1, max: 20 }),
        examples: fixedLimit === undefined ? [] : [fixedLimit],
        requestsPerRun: 4,
        budgetShare: PREFIX_SHARE,
        predicate: async (limit) => {
          // The fixed limit walks on through the hidden objects; any other limit reads its first pages.
          const pages = limit === fixedLimit ? fixedPages : 4;
          const t = await traverse(ctx, ctx.target.containerFiles.containerId, {
            limit,
            stopAfter: pages,
            pageCap: pages + 1,
          });
          expectSameFiles(t.files, full.files, limit, { got: !t.complete, want: !full.complete });
        },
      });
    },
  },
  {
    id: 'files.property.strictly-after',
    title: 'For any path, present or not, after=cfile_+base64url(path) resumes with exactly the files after it',
    operation: 'listContainerFiles',
    kind: 'property',
    // files.limit.bounds-accepted: a limit refused without after as well is the limit's fault, not the cursor's.
    requirements: [
      'files.after.strictly-after',
      'files.after.any-file-id',
      'files.after.control-char-paths',
      'files.pagination.next-page',
      'files.limit.bounds-accepted',
      ...ONE_PAGE_RULES.filter((r) => r !== 'files.after.strictly-after'),
    ],
    // One resumed page a run on the reference's data; pages that end at the scan bound add the walk to the next file.
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      const full = await listing(ctx);
      const walked: FetchedPage[] = []; // what the walks judged: an empty listing shows no file (no-file-listed.ts)
      const paths = full.files.map((f) => f.path);
      // The order(s) the listing is in (UTF-8 or UTF-16 code units, 2.2 / 4.1): where the data cannot
      // tell them apart, either is the target's, and a resumed listing may follow either.
      const orders = full.order.orders;
      // The id is written as the target writes its own: RFC 4648 leaves padding to the referring document.
      const padded = full.files.some((f) => f.id.endsWith('='));
      // Up to five distinct paths of each answer (a generated path may come again).
      const refusedControl = new Set<string>();
      const acceptedControl = new Set<string>();
      // The property's share of the budget (checkProperty's budgetShare below) bounds its walks in all.
      const share = Math.floor(ctx.settings.maxRequests * STRICTLY_AFTER_SHARE);
      const started = ctx.api.asked;
      let judged = 0;
      let notReached: string | undefined;
      const resumeAt = async (at: { path: string; position: string }, limit: number, allowance: number) => {
        const after = encodeFileId(at.path, padded);
        const expectations = orders.map((o) => paths.filter((p) => compareIn(o, p, at.path) > 0));
        const order = new PathOrderTracker();
        const res = await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId, { limit, after });
        // 2.1 gives no path grammar: whether a path with NUL or a control character is "any container
        // file id" is left open (reading cursor-control-refused), so its refusal is observed; so is
        // that of a path beginning with "/", which no container file has ("Path relative to the
        // container", files.file.path-relative; reading cursor-absolute-refused).
        const open = CONTROL.test(at.path) || at.path.startsWith('/');
        if (res.status === 400 && open) {
          if (refusedControl.size < 5) refusedControl.add(JSON.stringify(at.path));
          return;
        }
        // Accepted is the other answer the reading allows: observed as well, then judged as any cursor.
        if (res.status === 200 && open && acceptedControl.size < 5) acceptedControl.add(JSON.stringify(at.path));
        if (res.status !== 200) {
          // Which of the two the target refused: the limit alone ("Minimum 1, maximum 1000", 4.1) or the cursor.
          const alone = await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId, { limit });
          ctx.conform(
            alone.status === 200,
            'files.limit.bounds-accepted',
            `limit=${limit} answered ${alone.status} (with and without after), expected 200 (4.1 "Minimum 1, maximum 1000")`,
            alone,
          );
        }
        ctx.conform(
          res.status === 200,
          'files.after.any-file-id',
          `after=${after} (${at.position} path ${shown(at.path)}) answered ${res.status}, not 200`,
          res,
        );
        // Pages at the scan bound may be empty, any number in a row (4.1 rule 3, 8 rule 1): followed within the allowance.
        const spent = ctx.api.asked - started;
        const walk = await walkToFile(ctx, ctx.target.containerFiles.containerId, {
          limit,
          after,
          first: { res, page: readPage(res), limit, after },
          maxRequests: Math.max(1, allowance - spent),
        });
        for (const fp of walk.pages) assertPageRules(fp, order);
        walked.push(...walk.pages);
        const got = walk.page.page.data.map((f) => f.path);
        // Not reached within the share: where the listing resumes is not known, so nothing is compared.
        if (walk.end === 'allowance') {
          notReached = walkNotReached(walk, `after=${after}`);
          return;
        }
        judged++;
        // A file the full traversal never listed: following last_id ended early or skipped it (2.2).
        const known = new Set(paths);
        const unknown = got.find((p) => !known.has(p));
        if (full.complete && unknown !== undefined) {
          throw new ConformanceFailure(
            'files.pagination.next-page',
            `after=${after} (${at.position} path ${shown(at.path)}) at limit ${limit} lists ${shown(unknown)}, which following last_id from the start never listed: the traversal ended early or skipped it`,
          );
        }
        // A full listing that stopped because a file or a cursor did not move forward (a page out of
        // order, a file twice) is no order to compare with: the page rules above judged these pages.
        if (full.stopped === 'not-forward') return;
        // A walk that ended without a file (the listing ended, or its cursor stopped moving forward, which
        // files.pagination.progress judges) compares what it got. Past the end of a listing cut short by
        // the budget nothing is known, so only its known part is compared.
        const matches = (expected: readonly string[]) => {
          const compared = full.complete ? got : got.slice(0, expected.length);
          const want = expected.slice(0, compared.length);
          return compared.length === want.length && compared.every((p, i) => p === want[i]);
        };
        ctx.conform(
          expectations.some(matches),
          ctx.requirement,
          `after ${at.position} path ${shown(at.path)} resumed with ${shown(got.slice(0, 3))}, expected ${shown(expectations[0]!.slice(0, 3))} (the files after it in ${orders.join(' or ')})`,
        );
      };
      // Always asked, whatever the seed, before the random places (fast-check's examples, so a failure
      // there is a counterexample with its replay path like any other): the end of the listing, and the
      // last file before each run of pages that ended at the scan bound, at limit 1 and at the full
      // listing's limit: where a walk through hidden objects can lose the file that follows them
      // ("Listing resumes strictly after that path", 4.1; has_more "True when another page can be
      // fetched with `after` set to `last_id`", 2.2), and a random place rarely lands. Within half the
      // share, so the random places keep the rest: a fixed place past it is not asked.
      const fixedShare = Math.floor(share / 2);
      const fixed = fixedPlaces(full);
      const isFixed = new Set<object>(fixed);
      await checkProperty(ctx, 'files.property.strictly-after', {
        arbitrary: fc.record({
          at: pathAround(paths, { compare: (a, b) => compareIn(orders[0]!, a, b) }) as fc.Arbitrary<{
            path: string;
            position: string;
          }>,
          limit: validLimit({ min: 1, max: 20 }),
        }),
        examples: fixed,
        requestsPerRun: 3,
        budgetShare: STRICTLY_AFTER_SHARE,
        // Its runs share the walks' part of the budget and what they count (judged, not reached).
        runsInOrder: true,
        predicate: async (place) => {
          if (!isFixed.has(place)) return resumeAt(place.at, place.limit, share);
          if (ctx.api.asked - started >= fixedShare) return;
          return resumeAt(place.at, place.limit, fixedShare);
        },
      });
      if (refusedControl.size > 0 || acceptedControl.size > 0)
        ctx.observe('files.after.control-char-paths', {
          ...(refusedControl.size > 0 ? { refusedWith400: [...refusedControl] } : {}),
          ...(acceptedControl.size > 0 ? { acceptedWith200: [...acceptedControl] } : {}),
        });
      if (full.complete && full.files.length === 0)
        notJudgedWithoutFiles(ctx, ONE_PAGE_RULES, walked, `its listing ended after ${full.pages} page(s) without one`);
      if (judged === 0 && notReached !== undefined)
        ctx.skip(`no generated cursor reached a listed file: ${notReached}`);
    },
  },
  {
    id: 'files.property.invalid-inputs',
    title:
      'Any limit that is no integer and any after without the cfile_ prefix gives 400 with the 7.1 error body whose code is 400',
    operation: 'listContainerFiles',
    kind: 'property',
    requirements: [
      'files.limit.non-integer-rejected',
      'files.after.no-prefix-rejected',
      'files.errors.shape',
      'files.errors.code-equals-status',
    ],
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      const bounds = FILES_LIMIT();
      // Only what every reading refuses (spec/readings.yaml): out-of-range integers, other spellings of an
      // integer and malformed cfile_ ids are files.property.strict-inputs' (SHOULD) or observed. A value
      // without the prefix may be the target's own scan cursor when its cursors lack it (4.1 rule 3).
      const limits = invalidLimit(bounds)
        .filter((l) => classifyPageSize(l.value, bounds.min, bounds.max) === 'not-an-integer')
        .map((l): { limit?: string; after?: string; requirement: RequirementId } => ({
          limit: l.value,
          requirement: 'files.limit.non-integer-rejected',
        }));
      const cursors = malformedCursor()
        .filter((after) => !after.startsWith(FILE_ID_PREFIX))
        .map((after): { limit?: string; after?: string; requirement: RequirementId } => ({
          after,
          requirement: 'files.after.no-prefix-rejected',
        }));
      const own = await prefixlessScanCursor(ctx);
      const input = own.cursor === undefined && own.unknown === undefined ? fc.oneof(limits, cursors) : limits;
      await checkProperty(ctx, 'files.property.invalid-inputs', {
        arbitrary: input,
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async (q) => {
          const { requirement, ...query } = q;
          const res = await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId, query);
          conform(res.status === 400, requirement, `${shown(query)} answered ${res.status}, expected 400`, res);
          expectErrorShape('listContainerFiles', res);
          const code = (res.json as { error: { code: unknown } }).error.code;
          ctx.conform(code === 400, 'files.errors.code-equals-status', `error.code is ${shown(code)} on a 400`, res);
        },
      });
    },
  },
  {
    id: 'files.property.strict-inputs',
    title: 'Any out-of-range integer limit and any malformed cfile_ id as after gives 400',
    operation: 'listContainerFiles',
    kind: 'property',
    requirements: ['files.limit.out-of-range-rejected', 'files.after.invalid-rejected'],
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      const bounds = FILES_LIMIT();
      // SHOULD (spec/readings.yaml): a limit may be clamped into range, and a cursor decoded leniently.
      const input = fc.oneof(
        invalidLimit(bounds)
          .filter((l) => classifyPageSize(l.value, bounds.min, bounds.max) === 'out-of-range')
          .map((l) => ({ limit: l.value, requirement: 'files.limit.out-of-range-rejected' as const })),
        malformedCursor()
          .filter((after) => after.startsWith(FILE_ID_PREFIX))
          .map((after) => ({ after, requirement: 'files.after.invalid-rejected' as const })),
      );
      await checkProperty(ctx, 'files.property.strict-inputs', {
        arbitrary: input,
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async ({ requirement, ...query }) => {
          const res = await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId, query);
          ctx.conform(res.status === 400, requirement, `${shown(query)} answered ${res.status}, expected 400`, res);
        },
      });
    },
  },
  {
    id: 'auth.property.malformed-credentials',
    title: 'Any Authorization value that carries no known key gives 401, on every operation',
    operation: 'general',
    kind: 'property',
    requirements: ['auth.invalid-401'],
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      await checkProperty(ctx, 'auth.property.malformed-credentials', {
        arbitrary: fc.record({ auth: malformedAuthorization(), op: fc.constantFrom(...OPERATION_PROBES) }),
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async ({ auth, op }) => {
          const res = auth.header === '' ? await op.send(ctx, 'none') : await op.send(ctx, { header: auth.header });
          // 5 rule 2: none of these values carries a key the service knows (made-up tokens, an empty bearer,
          // no scheme or another one): the key is missing or invalid under every reading.
          ctx.conform(
            res.status === 401,
            ctx.requirement,
            `${op.operation} with Authorization ${shown(auth.header)} answered ${res.status}, expected 401`,
            res,
          );
        },
      });
    },
  },
]);
