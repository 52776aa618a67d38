import type { RequirementId } from '../../spec/requirement-ids.ts';
import fc from 'fast-check';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { SkipCheck } from '../../core/check/errors.ts';
import { conform } from '../../core/check/expect.ts';
import { expectErrorShape } from '../judges/response-schema.ts';
import {
  invalidLimit,
  malformedAuthorization,
  malformedCursor,
  validLimit,
} from '../../generators/arbitraries/index.ts';
import { FILE_ID_PREFIX } from '../../core/document/file-id.ts';
import { FILES_LIMIT } from '../../spec/parameter-bounds.ts';
import { main, prefixlessScanCursor } from '../support/container-files.ts';
import { OPERATION_PROBES } from '../support/operations.ts';
import { ONE_PAGE_RULES } from '../support/page-rules.ts';
import { walkListingEnd } from '../support/listing-end.ts';
import { checkProperty } from '../support/property.ts';
import { classifyPageSize } from '../support/query-values.ts';
import { FULL_LISTING_LIMIT, fullListing, listingNotRead, pageCapFor, traverse } from '../support/traversal.ts';
import { shown } from '../support/values.ts';
import { expectSameFiles } from '../support/traversal-places.ts';
import { strictlyAfterCheck } from './pagination-strictly-after.ts';

// Properties of listContainerFiles (4.1) that hold for ANY data: the target is compared with itself
// (a traversal at one limit against the full listing at limit 1000), never with known data.

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
      const full = await fullListing(ctx, main(ctx));
      const n = full.files.length;
      if (n === 0) ctx.skip('the container lists no file: nothing to traverse');
      // A traversal beyond the budget ends the random limits unjudged, not the listing's end (below).
      let skipped: SkipCheck | undefined;
      try {
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
      } catch (e) {
        if (!(e instanceof SkipCheck)) throw e;
        skipped = e;
      }
      // The listing's end at small limits, on every seed, after the random limits (a counterexample of
      // theirs, shrunk and replayable, comes first): listing-end.ts.
      await walkListingEnd(ctx, full);
      if (skipped) throw skipped;
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
      const full = await fullListing(ctx, main(ctx));
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
  strictlyAfterCheck,
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
