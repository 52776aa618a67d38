/**
 * files.property.strictly-after: for any path, present or not, after=cfile_+base64url(path) resumes
 * with exactly the files after it (4.1 "Listing resumes strictly after that path"), compared with the
 * shared full listing, never with known data.
 */
import fc from 'fast-check';
import type { CheckDeclaration, ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { encodeFileId } from '../../core/document/file-id.ts';
import { pathAround, validLimit } from '../../generators/arbitraries/index.ts';
import { readPage, walkNotReached, walkToFile, type FetchedPage } from '../support/file-pages.ts';
import { notJudgedWithoutFiles } from '../support/no-file-listed.ts';
import { assertPageRules, ONE_PAGE_RULES } from '../support/page-rules.ts';
import { compareIn, PathOrderTracker } from '../support/path-order.ts';
import { checkProperty } from '../support/property.ts';
import { main } from '../support/container-files.ts';
import { fullListing } from '../support/traversal.ts';
import { fixedPlaces } from '../support/traversal-places.ts';
import { shown } from '../support/values.ts';

/** Fraction of the run's request budget files.property.strictly-after spends, its walks included. */
const STRICTLY_AFTER_SHARE = 0.04;

/** C0 controls and DEL: a path holding one may be refused as after (reading cursor-control-refused). */
const CONTROL = /[\u0000-\u001f\u007f]/;

export const strictlyAfterCheck: CheckDeclaration = {
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
    const full = await fullListing(ctx, main(ctx));
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
    if (judged === 0 && notReached !== undefined) ctx.skip(`no generated cursor reached a listed file: ${notReached}`);
  },
};
